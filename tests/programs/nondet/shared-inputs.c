// The values are read in main before the threads start and reach them
// through shared memory: each thread branches on one after the spawns, and
// only the combination x == 123456, y == 654321 fails the assertion.
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

int x, y;
int a, b;

void *t1(void *arg) {
  (void)arg;
  if (x == 123456) a = 1;
  return 0;
}

void *t2(void *arg) {
  (void)arg;
  if (y == 654321) b = 1;
  return 0;
}

int main(void) {
  x = __VERIFIER_nondet_int();
  y = __VERIFIER_nondet_int();
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  assert(!(a && b));
  return 0;
}
