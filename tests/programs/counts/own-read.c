/* A thread stores x and reads it back from its own store buffer while
 * another thread reads x. Under TSO and PSO the other reader sees x before
 * or after the store's flush: two traces. The own read returns the stored
 * value whether it comes before the flush (from the buffer) or after it
 * (from memory): it commutes with its own thread's flush, so it adds no
 * trace of its own. */
#include <pthread.h>
#include "tsoify.h"
int x, seen, own;

static void *writer(void *arg) {
  (void)arg;
  x = 1;
  own = x;
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  seen = x;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("seen=%d own=%d", seen, own);
  return 0;
}
