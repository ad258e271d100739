// Store buffering with values: t1 stores a nondet value into x and reads
// it back from its own store buffer, then reads y; t2 mirrors it with y.
// Both threads missing the other's store needs TSO or PSO, and the error
// needs t1's value to be 31337 besides: the value travels through t1's
// buffer (its read of x) and through memory to main after the joins.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int x, y;
int seen1, seen2, own1;

void *t1(void *arg) {
  (void)arg;
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v != 0);
  x = v;
  own1 = x;
  seen1 = y;
  return 0;
}

void *t2(void *arg) {
  (void)arg;
  y = 1;
  seen2 = x;
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  if (seen1 == 0 && seen2 == 0 && own1 == 31337) reach_error();
  return 0;
}
