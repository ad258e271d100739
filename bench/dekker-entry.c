/* dekker-entry: N rounds of Dekker's mutual-exclusion entry protocol for
 * two threads, with no spin loop.
 *
 * Each round a thread raises its flag and looks at the other's. If the
 * other is not interested it enters the critical section. If it is, the
 * thread whose turn it is not lowers its flag and gives up this round; the
 * thread whose turn it is would wait for the other's flag to drop. The
 * verifier cannot yet tell an await loop from a livelock, so that wait is
 * a single second look: if the flag is still up the thread gives up the
 * round too (with -DAWAIT it is __VERIFIER_assume(flag == 0) instead, which
 * discards the executions in which the flag is still up). On exit a thread
 * hands the turn over and lowers its flag. The critical section counts its
 * occupants with a locked increment and asserts there is only one. Under SC
 * this is Dekker's algorithm and is SAFE; under x86-TSO and PSO the flag
 * store can wait in the store buffer while the load of the other flag goes
 * ahead, so both threads enter (VIOLATION) unless -DFENCED puts an mfence
 * after the flag store. It is the textbook store-buffering bug of the
 * memory-model literature and of the Dekker entries in the usual
 * concurrency benchmark suites, unrolled into rounds so that the search has
 * several critical sections to order.
 *
 *   tsoify bench/dekker-entry.c -DN=2 [-DFENCED] [-DAWAIT] -o d.tso   (rounds, default 2)
 */
#include <assert.h>
#include <pthread.h>
#ifndef N
#define N 2
#endif
extern void __VERIFIER_assume(int);
int flag[2]; /* "I want to enter" */
int turn;    /* who goes first when both want to */
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
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
    if (flag[other]) {
      if (turn != me) { /* not my turn: back off for this round */
        flag[me] = 0;
        continue;
      }
      WAIT_OR_GIVE_UP(flag[other] == 0); /* my turn: the other backs off */
    }
    int before = __atomic_fetch_add(&inside, 1, __ATOMIC_SEQ_CST);
    assert(before == 0 && "two threads in the critical section");
    __atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST);
    turn = other;
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
