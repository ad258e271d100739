/* CoWR: a thread stores x and reads it back while another thread stores x.
 * The read sees its own store, or the other store if that reaches memory
 * after its own store's flush; memory ends with either store. Three
 * classes under SC, TSO and PSO alike (the program has no relaxed
 * behaviour). Under TSO and PSO the other store can also reach memory
 * before the own flush, before or after the read: the read sees its own
 * store either way (the own flush overwrites the other one first), but the
 * reduction tells the two orders apart, so TSO and PSO explore 4 complete
 * executions. (Chronological traces' hidden-writes rule made it 3; it lost
 * violations in our sleep sets and wakeup trees and was removed.) */
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
