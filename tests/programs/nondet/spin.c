// A spin loop whose condition compares memory with a wide nondet value:
// the branch is a choice each iteration, and await blocking still ends
// the loop (the branch's pseudo-location write changes nothing): SAFE.
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int flag;
void *t(void *a) { (void)a; flag = 7; return 0; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  __VERIFIER_assume(x > 6 && x < 8);
  while (flag != x) {}
  pthread_join(th, 0);
  assert(flag == 7);
  return 0;
}
