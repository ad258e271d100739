/* Dekker's mutual exclusion algorithm, two threads, with the fences it needs
 * on x86-TSO and PSO.  Each thread enters the critical section once.  Check: a
 * shared counter is incremented on entry, must be 1 inside the critical
 * section, and is decremented on exit.
 * A full fence after every store flag[i] = 1 keeps the store from being
 * overtaken by the following read of flag[j] (store->load order, TSO and PSO).
 * The final flag[i] = 0 is a release store, so under PSO the critical
 * section's stores (and turn) are visible before the other thread may enter.
 * Correct under SC, TSO and PSO.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "dekker-fenced.c", 14, "reach_error"); }

volatile int flag[2];
volatile int turn;
volatile int cs; /* number of threads in the critical section */

void *thr(void *arg)
{
  int i = (int)(long)arg;
  int j = 1 - i;

  flag[i] = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  while (flag[j]) {
    if (turn != i) {
      flag[i] = 0;
      while (turn != i) {}
      flag[i] = 1;
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
  }

  /* critical section */
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;

  turn = j;
  __atomic_store_n(&flag[i], 0, __ATOMIC_RELEASE);
  return 0;
}

int main(void)
{
  pthread_t t0, t1;
  pthread_create(&t0, 0, thr, (void *)0L);
  pthread_create(&t1, 0, thr, (void *)1L);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  return 0;
}
