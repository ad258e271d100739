/* A compare-and-swap spinlock (a failed CAS writes nothing) around a
 * non-atomic read-modify-write, plus an unlocked writer racing with it. */
#include <pthread.h>
#include "tsoify.h"
int lock, count;
void *inc(void *a) {
  int expected = 0;
  while (!__atomic_compare_exchange_n(&lock, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) expected = 0;
  count = count + 1;
  __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
  return 0;
}
void *racer(void *a) { count = 10; return 0; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_create(&c, 0, racer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  tsoify_outcome("count=%d", count);
  return 0;
}
