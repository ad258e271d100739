/* Burns' (Burns-Lynch) one-bit mutual exclusion algorithm, two threads.
 * Thread 1 (higher id) backs off while thread 0 is interested; thread 0 waits
 * for thread 1's flag to clear.  Each thread enters the critical section
 * once.  Check: a shared counter is incremented on entry, must be 1 inside
 * the critical section, and is decremented on exit.
 * A full fence after each flag[i] = 1 keeps it ahead of the following read
 * of the other flag (TSO, PSO); the exit store flag[i] = 0 is a release
 * store, so the critical section's stores are visible first (PSO).
 * Correct under SC, TSO and PSO.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "burns-fenced.c", 14, "reach_error"); }

volatile int flag[2];
volatile int cs; /* number of threads in the critical section */

void critical(void)
{
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;
}

void *thr0(void *arg)
{
  flag[0] = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  while (flag[1]) {}      /* wait for the higher-numbered thread */
  critical();
  __atomic_store_n(&flag[0], 0, __ATOMIC_RELEASE);
  return 0;
}

void *thr1(void *arg)
{
  for (;;) {
    flag[1] = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (flag[0]) {}    /* a lower-numbered thread is interested: back off */
    flag[1] = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (!flag[0]) break;
  }
  critical();
  __atomic_store_n(&flag[1], 0, __ATOMIC_RELEASE);
  return 0;
}

int main(void)
{
  pthread_t t0, t1;
  pthread_create(&t0, 0, thr0, 0);
  pthread_create(&t1, 0, thr1, 0);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  return 0;
}
