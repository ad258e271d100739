// Message passing with a value: t1 publishes a nondet value of at least
// 1000 in data, then sets flag; t2, seeing flag, reads data. Under SC and
// TSO it reads the published value, which is never below 100 (SAFE: the
// solver rules the branch out, so the value must be followed from t1's
// store through its buffer and memory to t2's load). Under PSO the two
// stores may reach memory in the other order, and t2 reads the initial 0.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int data, flag;

void *t1(void *arg) {
  (void)arg;
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v >= 1000);
  data = v;
  flag = 1;
  return 0;
}

void *t2(void *arg) {
  (void)arg;
  if (flag) {
    int v = data;
    if (v < 100) reach_error();
  }
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
