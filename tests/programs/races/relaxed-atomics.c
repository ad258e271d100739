// Relaxed atomic accesses to one variable from two threads: conflicting
// and unordered, but all atomic, so no data race.
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *t1(void *a) { atomic_store_explicit(&x, 1, memory_order_relaxed); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t1, 0);
  atomic_store_explicit(&x, 2, memory_order_relaxed);
  int r = atomic_load_explicit(&x, memory_order_relaxed); (void)r;
  pthread_join(t, 0);
  return 0;
}
