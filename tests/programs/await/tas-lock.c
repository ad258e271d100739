/* A test-and-set spinlock around a counter, and one thread that only peeks:
 * the exchange in the spin writes 1 over 1 while the lock is held, which
 * changes nothing, so the spinning thread waits. */
#include <pthread.h>
#include "tsoify.h"
int lock, count, peek = -1;
void *inc(void *a) {
  while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE)) {}
  count = count + 1;
  __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
  return 0;
}
void *peeker(void *a) { peek = count; return 0; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_create(&c, 0, peeker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  tsoify_outcome("count=%d peek=%d", count, peek);
  return 0;
}
