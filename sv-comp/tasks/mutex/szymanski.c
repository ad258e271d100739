/* Szymanski's mutual exclusion algorithm, two threads.  flag[i] encodes the
 * state: 0 idle, 1 wants in, 2 waits for another thread, 3 in the doorway,
 * 4 behind the doorway.  Each thread enters the critical section once.
 * Check: a shared counter is incremented on entry, must be 1 inside the
 * critical section, and is decremented on exit.
 * Correct under SC.  Broken under TSO and PSO: the stores to flag[i] can be
 * buffered while the thread reads flag[j] from memory, so each thread can see
 * the other still at flag 0 and both reach the critical section
 * (store->load reordering).
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "szymanski.c", 14, "reach_error"); }

volatile int flag[2];
volatile int cs; /* number of threads in the critical section */

void *thr(void *arg)
{
  int i = (int)(long)arg;
  int j = 1 - i;

  flag[i] = 1;
  while (flag[j] >= 3) {}          /* wait until the doorway is open */
  flag[i] = 3;
  if (flag[j] == 1) {              /* another thread wants in: let it come */
    flag[i] = 2;
    while (flag[j] != 4) {}
  }
  flag[i] = 4;
  if (j < i) {
    while (flag[j] >= 2) {}        /* lower ids go first */
  }

  /* critical section */
  cs = cs + 1;
  if (!(cs == 1)) reach_error();
  cs = cs - 1;

  if (j > i) {
    int f;
    do f = flag[j]; while (f == 2 || f == 3); /* higher ids leave the doorway (one read per test) */
  }
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
