/* PSO with K=2 (was a wrong SAFE for --por optimal, issue 18): t1's third
 * store finds its buffer full of stores to y, so y=2 must reach memory
 * first; t0 then reads y=2 while its own x=1 is still buffered, and t1
 * reads x=0. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
int r1, r2;
void *t0(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  r1 = atomic_load_explicit(&y, memory_order_relaxed);
  return 0;
}
void *t1(void *arg) {
  atomic_store_explicit(&y, 2, memory_order_relaxed);
  atomic_store_explicit(&y, 3, memory_order_relaxed);
  atomic_store_explicit(&y, 4, memory_order_relaxed);
  r2 = atomic_load_explicit(&x, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(r1 == 2 && r2 == 0));
  return 0;
}
