// SV-COMP pthread-numerical-integration in small: a nondet count, printed
// (printf changes nothing the program sees: no pin there, although the
// value is not yet bounded), bounded to 1..8, then used in floating-point
// arithmetic by a thread, which the tracking cannot follow: the value is
// pinned there, each of its 8 feasible values a path of its own, and the
// arithmetic is exact on each. SAFE; with -DOFF_BY_ONE the check fails for
// n == 3 only.
#include <pthread.h>
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int n;
double width;

void *worker(void *arg) {
  (void)arg;
  width = 1.0 / n;
  return 0;
}

int main(void) {
  n = __VERIFIER_nondet_int();
  printf("intervals: %d\n", n);
  __VERIFIER_assume(n >= 1 && n <= 8);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  double total = width * n;
#ifdef OFF_BY_ONE
  if (n == 3) total += 0.5;
#endif
  if (total < 0.999999 || total > 1.000001) reach_error();
  return 0;
}
