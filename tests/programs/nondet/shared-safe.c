// Two threads branch on the same value after they started: x > 5 in one,
// x < 3 in the other. Each side is feasible alone, both together are not,
// so the assertion holds in every execution: SAFE (exact, not UNKNOWN).
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

int x;
int a, b;

void *t1(void *arg) {
  (void)arg;
  if (x > 5) a = 1;
  return 0;
}

void *t2(void *arg) {
  (void)arg;
  if (x < 3) b = 1;
  return 0;
}

int main(void) {
  x = __VERIFIER_nondet_int();
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  assert(!(a && b));
  return 0;
}
