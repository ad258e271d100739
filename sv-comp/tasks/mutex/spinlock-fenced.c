/* Test-and-test-and-set spinlock, two threads.  Acquire: atomic exchange
 * lock <- 1; if it was taken, spin reading lock until it looks free and retry.
 * Acquire is an acquire xchg, release a release store (a store-store barrier
 * under PSO), so the critical section's stores are visible before the lock
 * is seen free.
 * Correct under SC, TSO and PSO.
 * Each thread takes the lock once.  Check: a shared counter is incremented
 * inside the lock, must be 1 there, and is decremented before unlocking.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "spinlock-fenced.c", 13, "reach_error"); }

volatile int lock;
volatile int cs; /* number of threads in the critical section */

void spin_lock(void)
{
  while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE)) {
    while (lock) {}
  }
}

void spin_unlock(void)
{
  __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

void *thr(void *arg)
{
  spin_lock();
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;
  spin_unlock();
  return 0;
}

int main(void)
{
  pthread_t t0, t1;
  pthread_create(&t0, 0, thr, 0);
  pthread_create(&t1, 0, thr, 0);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  return 0;
}
