/* Dijkstra's 1965 mutual exclusion algorithm, two threads.  want[i] is
 * Dijkstra's "not b[i]", pass[i] his "not c[i]" (thread i is past the turn
 * check), k the turn.  A thread takes the turn when its holder is not
 * interested, then announces pass[i] = 1 and enters if no other thread is
 * passing; otherwise it starts over.  The spin on "pass[j] && k == i" is the
 * original's loop back to the turn check while keeping the turn (it only
 * re-stores values the thread already wrote).  Each thread enters the
 * critical section once.  Check: a shared counter is incremented on entry,
 * must be 1 inside the critical section, and is decremented on exit.
 * A full fence after each store of the entry protocol (want[i] = 1,
 * pass[i] = 0, k = i, pass[i] = 1) keeps it ahead of the reads that follow
 * it (TSO, PSO), so every execution is an SC one (robust); a release fence
 * before the exit stores makes the critical section's stores visible first,
 * and one between them keeps them in order (PSO).
 * Correct under SC, TSO and PSO.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "dijkstra-fenced.c", 18, "reach_error"); }

volatile int want[2];
volatile int pass[2];
volatile int k;
volatile int cs; /* number of threads in the critical section */

void *thr(void *arg)
{
  int i = (int)(long)arg;
  int j = 1 - i;

  want[i] = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  for (;;) {
    if (k != i) {
      pass[i] = 0;
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
      while (k != i) {
        if (!want[k]) {          /* the turn holder is not interested: take it */
          k = i;
          __atomic_thread_fence(__ATOMIC_SEQ_CST);
        }
      }
    }
    pass[i] = 1;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (pass[j] && k == i) {}
    if (!pass[j]) break;
  }

  /* critical section */
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;

  __atomic_thread_fence(__ATOMIC_RELEASE);
  pass[i] = 0;
  __atomic_thread_fence(__ATOMIC_RELEASE); /* PSO: pass[i] = 0 before want[i] = 0 */
  want[i] = 0;
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
