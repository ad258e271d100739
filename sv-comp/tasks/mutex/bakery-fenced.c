/* Lamport's bakery algorithm, two threads, with the fences it needs on x86-TSO
 * and PSO.  Each thread enters the critical section once.  Check: a shared
 * counter is incremented on entry, must be 1 inside the critical section, and
 * is decremented on exit.
 * - full fence after choosing[i] = 1: visible before the tickets are read;
 * - release fence between number[i] = ... and choosing[i] = 0: under PSO the
 *   ticket must be visible before the thread stops "choosing";
 * - full fence after choosing[i] = 0: store->load order before the waits;
 * - release store for number[i] = 0 on exit (PSO).
 * Correct under SC, TSO and PSO.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "bakery-fenced.c", 15, "reach_error"); }

#define N 2

volatile int choosing[N];
volatile int number[N];
volatile int cs; /* number of threads in the critical section */

void *thr(void *arg)
{
  int i = (int)(long)arg;
  int j, max;

  /* doorway: take a ticket larger than every ticket seen */
  choosing[i] = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  max = 0;
  for (j = 0; j < N; j++) {
    int n = number[j];
    if (n > max) max = n;
  }
  number[i] = max + 1;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  choosing[i] = 0;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);

  /* wait until every thread with a smaller (ticket, id) is done */
  for (j = 0; j < N; j++) {
    if (j == i) continue;
    while (choosing[j]) {}
    while (number[j] != 0 && (number[j] < number[i] || (number[j] == number[i] && j < i))) {}
  }

  /* critical section */
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;

  __atomic_store_n(&number[i], 0, __ATOMIC_RELEASE);
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
