/* main ends with its store to y still buffered: no flush event shows the
 * race between that flush and T1's read of y, and main's end step has no
 * event of its own (it once slept as independent of everything). T1 must
 * see y=2 and store z before main reads z. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int y, z;
void *t1(void *arg) {
  if (atomic_load_explicit(&y, memory_order_relaxed) == 2)
    atomic_store_explicit(&z, 1, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  atomic_store_explicit(&y, 2, memory_order_relaxed);
  assert(atomic_load_explicit(&z, memory_order_relaxed) != 1);
  return 0;
}
