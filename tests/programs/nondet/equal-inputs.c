// The error needs every worker's nondet k equal to main's nondet n (SV-COMP
// pthread-nondet/nondet-loop-bound-variant-1 in small): the search flips
// each k == n in turn, and meets "all equal" after most combinations and
// lock orders; an echo probe (runtime/src/choice.c) draws them all equal.
#include <assert.h>
#include <pthread.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

#ifndef WORKERS
#define WORKERS 7
#endif

static unsigned n, x;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  (void)arg;
  unsigned k = __VERIFIER_nondet_uint();
  __VERIFIER_assume(k >= 5 && k <= 10);
  pthread_mutex_lock(&lock);
  if (k == n) x++;
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  pthread_t t[WORKERS];
  n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n >= 5 && n <= 10);
  for (int i = 0; i < WORKERS; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < WORKERS; i++) pthread_join(t[i], 0);
  assert(x < WORKERS);
  return 0;
}
