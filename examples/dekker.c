/* dekker.c - the entry protocol of Dekker's mutual exclusion, without fences.
 *
 * Each thread raises its flag, then enters the critical section only if the
 * other thread's flag is down. Under sequential consistency at most one
 * thread can see the other's flag down, so the critical section is safe.
 * On x86 the store of the own flag waits in the store buffer while the load
 * of the other flag goes ahead: both threads can read 0 and both enter.
 *
 *   verify --model sc examples/dekker.c    -> SAFE
 *   verify examples/dekker.c               -> VIOLATION (x86-TSO)
 *   verify -DFENCED examples/dekker.c      -> SAFE (mfence after the flag store)
 */
#include <assert.h>
#include <pthread.h>

int flag0, flag1;  /* "I want to enter" */
int inside;        /* threads in the critical section */

static void enter_fence(void) {
#ifdef FENCED
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

static void critical_section(void) {
  /* a locked increment: it cannot hide the bug, it only counts */
  int before = __atomic_fetch_add(&inside, 1, __ATOMIC_SEQ_CST);
  assert(before == 0 && "two threads in the critical section");
  __atomic_fetch_sub(&inside, 1, __ATOMIC_SEQ_CST);
}

static void *thread0(void *arg) {
  flag0 = 1;
  enter_fence();
  if (flag1 == 0) critical_section();
  flag0 = 0;
  return 0;
}

static void *thread1(void *arg) {
  flag1 = 1;
  enter_fence();
  if (flag0 == 0) critical_section();
  flag1 = 0;
  return 0;
}

int main(void) {
  pthread_t t0, t1;
  pthread_create(&t0, 0, thread0, 0);
  pthread_create(&t1, 0, thread1, 0);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  return 0;
}
