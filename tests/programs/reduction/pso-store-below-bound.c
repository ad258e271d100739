/* PSO, a bound the program never reaches: z overtakes the still buffered
 * x, and T2 sees z=1 but x=0. With a bounded buffer (the default K=32)
 * every buffered store once counted as waiting for its thread's earlier
 * flushes, which hid the reversal (SAFE with --por source and optimal). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y, z;
void *t1(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  if (atomic_load_explicit(&y, memory_order_relaxed) == 2)
    atomic_store_explicit(&z, 1, memory_order_relaxed);
  return 0;
}
void *t2(void *arg) {
  atomic_store_explicit(&y, 2, memory_order_relaxed);
  if (atomic_load_explicit(&z, memory_order_relaxed) == 1)
    assert(atomic_load_explicit(&x, memory_order_relaxed) == 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
