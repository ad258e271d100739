/* PSO with K=2: the third store finds the buffer full, and the violation
 * needs w (not the older x) to leave to make room, so that z reaches memory
 * while x is still buffered. The two flushes commute as events, so no race
 * showed the choice (SAFE with --por source and optimal). */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, z, w;
void *t1(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  atomic_store_explicit(&w, 1, memory_order_relaxed);
  atomic_store_explicit(&z, 1, memory_order_relaxed);
  return 0;
}
void *t2(void *arg) {
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
