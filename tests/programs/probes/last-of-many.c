// One checker and N incrementers (SV-COMP pthread-nondet/nondet-loop-bound
// with a fixed N): the assertion fails only when the checker runs after
// all N increments, none of them lost. A depth-first search explores the
// incrementers' interleavings first (millions at N = 20); a probe that
// gives the checker the lowest priority finds it (about one in N). With
// -DSAFE the assertion holds everywhere.
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 20
#endif

volatile int x;

void *checker(void *arg) {
  (void)arg;
#ifdef SAFE
  assert(x <= N); /* holds in every execution */
#else
  assert(x < N);
#endif
  return 0;
}

void *incrementer(void *arg) {
  (void)arg;
  int t = x;
  x = t + 1;
  return 0;
}

int main(void) {
  pthread_t c, t[N];
  pthread_create(&c, 0, checker, 0);
  for (int i = 0; i < N; i++) pthread_create(&t[i], 0, incrementer, 0);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  pthread_join(c, 0);
  return 0;
}
