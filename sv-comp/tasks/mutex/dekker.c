/* Dekker's mutual exclusion algorithm, two threads (flag[] + turn, with back-off).
 * Each thread enters the critical section once.  Check: a shared counter is
 * incremented on entry, must be 1 inside the critical section, and is
 * decremented on exit.
 * Correct under SC.  Broken under TSO and PSO: the store flag[i] = 1 can still sit
 * in the store buffer while the thread reads flag[j] == 0 from memory, so both
 * threads see the other's flag clear and enter together (store->load reordering).
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "dekker.c", 12, "reach_error"); }

volatile int flag[2];
volatile int turn;
volatile int cs; /* number of threads in the critical section */

void *thr(void *arg)
{
  int i = (int)(long)arg;
  int j = 1 - i;

  flag[i] = 1;
  while (flag[j]) {
    if (turn != i) {
      flag[i] = 0;
      while (turn != i) {}
      flag[i] = 1;
    }
  }

  /* critical section */
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;

  turn = j;
  flag[i] = 0;
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
