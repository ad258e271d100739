/* Filter lock (Peterson's algorithm generalised to N threads), N = 3.
 * A thread climbs levels 1..N-1; at each level it writes its level, makes
 * itself the victim, and waits while it is the victim and some other thread
 * is at that level or higher.  Each thread enters the critical section once.
 * Check: a shared counter is incremented on entry, must be 1 inside the
 * critical section, and is decremented on exit.
 * Correct under SC.  Broken under TSO and PSO: level[i] = L and victim[L] = i
 * can be buffered while the thread reads the other levels as 0 from memory,
 * so two threads pass the same level (store->load reordering).
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "filter.c", 14, "reach_error"); }

#define N 3

volatile int level[N];
volatile int victim[N];
volatile int cs; /* number of threads in the critical section */

void *thr(void *arg)
{
  int i = (int)(long)arg;
  int a = (i + 1) % N, c = (i + 2) % N; /* the other two threads */
  int L;

  for (L = 1; L < N; L++) {
    level[i] = L;
    victim[L] = i;
    while ((level[a] >= L || level[c] >= L) && victim[L] == i) {}
  }

  /* critical section */
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;

  level[i] = 0;
  return 0;
}

int main(void)
{
  pthread_t t0, t1, t2;
  pthread_create(&t0, 0, thr, (void *)0L);
  pthread_create(&t1, 0, thr, (void *)1L);
  pthread_create(&t2, 0, thr, (void *)2L);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
