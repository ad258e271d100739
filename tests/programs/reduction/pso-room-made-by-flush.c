/* PSO with K=2 (was a wrong SAFE for --por source and optimal, issue 18):
 * t0's z fits in its buffer only because y=1 left it; y=1 is overwritten
 * in memory by t1's y=2, which t0 reads back; then z reaches memory while
 * x=1 is still buffered, and t2 sees z=1 but x=0. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y, z;
int r1, r2, r3;
void *t0(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  r1 = atomic_load_explicit(&y, memory_order_relaxed);
  atomic_store_explicit(&z, 1, memory_order_relaxed);
  return 0;
}
void *t1(void *arg) {
  atomic_store_explicit(&y, 2, memory_order_relaxed);
  return 0;
}
void *t2(void *arg) {
  r2 = atomic_load_explicit(&z, memory_order_relaxed);
  r3 = atomic_load_explicit(&x, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  pthread_create(&c, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  assert(!(r1 == 2 && r2 == 1 && r3 == 0));
  return 0;
}
