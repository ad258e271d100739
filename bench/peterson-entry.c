/* peterson-entry: N rounds of Peterson's mutual-exclusion entry protocol
 * for two threads, with no spin loop.
 *
 * Each round a thread raises its flag, then yields priority by setting turn
 * to the other thread, and may enter once the other's flag is down or the
 * other has since handed the turn back. The verifier cannot yet tell an
 * await loop from a livelock, so the wait is a single look: if the
 * condition does not hold the thread lowers its flag and gives up the round
 * (with -DAWAIT it is __VERIFIER_assume(condition) instead, which discards
 * the executions in which it does not hold). The critical section counts
 * its occupants with a locked increment and asserts there is only one; on
 * exit the thread lowers its flag. Under SC this is Peterson's algorithm
 * and is SAFE. Under x86-TSO the store of turn can still sit in the store
 * buffer when the other thread's flag and the turn are read, and under PSO
 * the store of turn can also reach memory before the store of the flag;
 * either way both threads enter (VIOLATION). -DFENCED puts an mfence after
 * the flag store and another after the turn store, which repairs both (the
 * first alone leaves the TSO bug, the second alone the PSO one). Peterson's
 * lock is, with Dekker's, the standard small example of the memory-model
 * literature and its benchmark suites; the rounds give the search several
 * critical sections to order.
 *
 *   tsoify bench/peterson-entry.c -DN=2 [-DFENCED] [-DAWAIT] -o p.tso   (rounds, default 2)
 */
#include <assert.h>
#include <pthread.h>
#ifndef N
#define N 2
#endif
extern void __VERIFIER_assume(int);
int flag[2]; /* "I want to enter" */
int turn;    /* who has priority when both want to */
int inside;  /* threads in the critical section */

#ifdef AWAIT
#define WAIT_OR_GIVE_UP(cond) __VERIFIER_assume(cond)
#else
#define WAIT_OR_GIVE_UP(cond) \
  if (!(cond)) {              \
    flag[me] = 0;             \
    continue;                 \
  }
#endif

static void *thread(void *arg) {
  int me = (int)(long)arg, other = 1 - me;
  for (int round = 0; round < N; round++) {
    flag[me] = 1;
#ifdef FENCED
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* flag before turn (PSO) */
#endif
    turn = other;
#ifdef FENCED
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* turn before the loads (TSO) */
#endif
    WAIT_OR_GIVE_UP(flag[other] == 0 || turn == me);
    int before = __atomic_fetch_add(&inside, 1, __ATOMIC_SEQ_CST);
    assert(before == 0 && "two threads in the critical section");
    __atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST);
    flag[me] = 0;
  }
  return 0;
}

int main(void) {
  pthread_t t0, t1;
  pthread_create(&t0, 0, thread, (void *)0L);
  pthread_create(&t1, 0, thread, (void *)1L);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  return 0;
}
