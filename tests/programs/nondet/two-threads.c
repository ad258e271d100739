// Two threads each branch on their own wide nondet value, after both have
// started: the assertion fails only for the one combination in which both
// took the rare side (x == 123456 and y == 654321).
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

int a, b;

void *t1(void *arg) {
  (void)arg;
  int x = __VERIFIER_nondet_int();
  if (x == 123456) a = 1;
  return 0;
}

void *t2(void *arg) {
  (void)arg;
  int y = __VERIFIER_nondet_int();
  if (y == 654321) b = 1;
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
