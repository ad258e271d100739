/* CoWR: a thread stores x and reads it back while another thread stores x.
 * The read sees its own store, or the other store if that reaches memory
 * after its own store's flush; memory ends with either store. Three
 * classes under SC, TSO and PSO alike (the program has no relaxed
 * behaviour). Under TSO and PSO the other store can also reach memory
 * before the own flush, before or after the read: the read sees its own
 * store either way (the own flush overwrites the other one first), so
 * where the other store went relative to the read is no class of its own
 * (chronological traces, driver/src/dpor/hiding.rs). Before that rule,
 * TSO and PSO explored 4 complete executions here. */
#include <pthread.h>
#include "tsoify.h"
int x, own;

static void *writer(void *arg) {
  (void)arg;
  x = 1;
  own = x;
  return 0;
}

static void *other(void *arg) {
  (void)arg;
  x = 2;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, other, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("own=%d x=%d", own, x);
  return 0;
}
