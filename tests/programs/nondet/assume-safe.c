// Safe for every value: the assume makes the error branch infeasible, the
// other branches on x are explored, and the threads that run afterwards
// never see x. SAFE, and only because every use of x was tracked.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int g;

void *writer(void *arg) {
  (void)arg;
  g = 1;
  return 0;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5);
  if (x <= 5) reach_error();
  int y = x * 2;
  if (y == 14) g = 2; /* x == 7 */
  else g = 3;
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  if (g == 0) reach_error();
  return 0;
}
