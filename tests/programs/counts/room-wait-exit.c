/* With two buffer entries, thread b's third store waits for room while
 * thread c, its store buffered, waits at its exit for its own flush. Only
 * b waits for room: a flush of c makes room for no one, so it gets no
 * flush-first branch there (it once did, and those branches ended
 * executions sleep-blocked: the runtime did not say which thread waited). */
#include <pthread.h>
#include <stdatomic.h>
#include "tsoify.h"
atomic_int x, y, z;
int r1, r2;
static void *b(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  r1 = atomic_load_explicit(&z, memory_order_relaxed);
  return 0;
}
static void *c(void *arg) {
  atomic_store_explicit(&z, 1, memory_order_relaxed);
  r2 = atomic_load_explicit(&x, memory_order_relaxed);
  return 0;
}
int main(void) {
  void *(*body[2])(void *) = {b, c};
  pthread_t t[2];
  for (int k = 0; k < 2; k++) pthread_create(&t[k], 0, body[k], 0);
  for (int k = 0; k < 2; k++) pthread_join(t[k], 0);
  tsoify_outcome("r1=%d r2=%d", r1, r2);
  return 0;
}
