/* Lamport's fast mutual exclusion algorithm (1987), two threads with ids 1
 * and 2.  Without contention a thread enters after writing x and y and
 * reading them back; on contention it waits for all b[] to clear and for y
 * to be released.  Each thread enters the critical section once.  Check: a
 * shared counter is incremented on entry, must be 1 inside the critical
 * section, and is decremented on exit.
 * Correct under SC.  Broken under TSO and PSO: x = i and y = i can be
 * buffered while the thread reads y == 0 and x == i, so both threads take the
 * fast path (store->load reordering).
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "lamport-fast.c", 14, "reach_error"); }

#define N 2

volatile int b[N + 1]; /* b[1..N] */
volatile int x, y;
volatile int cs; /* number of threads in the critical section */

void *thr(void *arg)
{
  int i = (int)(long)arg; /* 1..N */
  int j;

  for (;;) {
    b[i] = 1;
    x = i;
    if (y != 0) {
      b[i] = 0;
      while (y != 0) {}
      continue;
    }
    y = i;
    if (x != i) {
      b[i] = 0;
      for (j = 1; j <= N; j++)
        while (b[j]) {}
      if (y != i) {
        while (y != 0) {}
        continue;
      }
    }
    break;
  }

  /* critical section */
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;

  y = 0;
  b[i] = 0;
  return 0;
}

int main(void)
{
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr, (void *)1L);
  pthread_create(&t2, 0, thr, (void *)2L);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
