/* Burns' (Burns-Lynch) one-bit mutual exclusion algorithm, two threads.
 * Thread 1 (higher id) backs off while thread 0 is interested; thread 0 waits
 * for thread 1's flag to clear.  Each thread enters the critical section
 * once.  Check: a shared counter is incremented on entry, must be 1 inside
 * the critical section, and is decremented on exit.
 * Correct under SC.  Broken under TSO and PSO: flag[i] = 1 can be buffered
 * while the thread reads the other flag as 0, so both enter (store->load
 * reordering).
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "burns.c", 13, "reach_error"); }

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
  while (flag[1]) {}      /* wait for the higher-numbered thread */
  critical();
  flag[0] = 0;
  return 0;
}

void *thr1(void *arg)
{
  for (;;) {
    flag[1] = 0;
    while (flag[0]) {}    /* a lower-numbered thread is interested: back off */
    flag[1] = 1;
    if (!flag[0]) break;
  }
  critical();
  flag[1] = 0;
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
