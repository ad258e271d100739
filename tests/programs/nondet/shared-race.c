// The branch on the value comes after the threads started, and whether the
// error is reached also depends on the interleaving: t1 sets flag only for
// x == 4242, and t2 fails only when it sees flag set and x > 4000 itself.
// Needs both the value and t1's store before t2's load.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int x;
int flag;

void *t1(void *arg) {
  (void)arg;
  if (x == 4242) flag = 1;
  return 0;
}

void *t2(void *arg) {
  (void)arg;
  if (flag && x > 4000) reach_error();
  return 0;
}

int main(void) {
  x = __VERIFIER_nondet_int();
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
