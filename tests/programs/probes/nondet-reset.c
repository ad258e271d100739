/* A thread (set) publishes g0 = g1 = 1, then lock = 1; each of 20 reset
 * threads may clear all three (a nondet int), and then, if lock is set,
 * expects g0 and g1 set. It fails when set's lock = 1 lands between a
 * reset thread's clearing and its check (SV-COMP
 * pthread-ext/32_pthread5_vs, bounded). The depth-first search takes the
 * other side of a branch on a nondet value only where the solver is asked
 * for it, below every order of the threads after it: thousands of
 * executions. A probe draws the values the search has not pinned (0, 1,
 * -1, 2, INT_MAX or random; runtime/src/choice.c rt_probe_value). */
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int g0, g1, lock, mutex;

void __VERIFIER_atomic_acquire(void) {
  __VERIFIER_assume(mutex == 0);
  mutex = 1;
}

void __VERIFIER_atomic_release(void) {
  __VERIFIER_assume(mutex == 1);
  mutex = 0;
}

void *set(void *arg) {
  __VERIFIER_atomic_acquire();
  g0 = 1, g1 = 1;
  __VERIFIER_atomic_release();
  lock = 1;
  return 0;
}

void *reset(void *arg) {
  __VERIFIER_atomic_acquire();
  if (__VERIFIER_nondet_int()) {
    g0 = 0;
    g1 = 0;
    lock = 0;
  }
  __VERIFIER_atomic_release();
  __VERIFIER_atomic_acquire();
  if (lock)
    assert(g0 == 1 && g1 == 1);
  __VERIFIER_atomic_release();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, set, 0);
  for (int i = 0; i < 20; i++)
    pthread_create(&t, 0, reset, 0);
  return 0;
}
