// A nondet index after the reader started: the reader sees the error only
// when main's store goes to a[5] and the reader runs after it.
#include <pthread.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int a[8];

void *reader(void *arg) {
  (void)arg;
  if (a[5] == 1) reach_error();
  return 0;
}

int main(void) {
  unsigned i = __VERIFIER_nondet_uint();
  __VERIFIER_assume(i < BOUND);
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  a[i] = 1;
  pthread_join(t, 0);
  return 0;
}
