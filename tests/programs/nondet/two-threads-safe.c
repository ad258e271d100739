// Each thread takes its own wide nondet value after both started, and an
// assume bounds it below 1000: the branch to the rare side is infeasible in
// both, so the assertion holds: SAFE (exact, not UNKNOWN).
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a, b;

void *t1(void *arg) {
  (void)arg;
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 1000);
  if (x == 123456) a = 1;
  return 0;
}

void *t2(void *arg) {
  (void)arg;
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 0 && y < 1000);
  if (y == 654321 || y == 999) b = 1;
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  assert(!(a && b));
  return 0;
}
