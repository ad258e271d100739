/* Two threads that store, read the other's address, and (the first) store
 * again: with one buffer entry the first thread's second store waits for
 * room, which only its own flush makes. A flush of a thread that can run
 * makes room for no one, so it gets no flush-first branch there (it once
 * did, and those branches ended executions sleep-blocked). */
#include <pthread.h>
#include <stdatomic.h>
#include "tsoify.h"
atomic_int x, y;
int r1, r2;
static void *b(void *arg) {
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  r1 = atomic_load_explicit(&x, memory_order_relaxed);
  atomic_store_explicit(&x, 2, memory_order_relaxed);
  return 0;
}
static void *c(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  r2 = atomic_load_explicit(&y, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t t[2];
  pthread_create(&t[0], 0, b, 0);
  pthread_create(&t[1], 0, c, 0);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  tsoify_outcome("r1=%d r2=%d x=%d", r1, r2, atomic_load_explicit(&x, memory_order_relaxed));
  return 0;
}
