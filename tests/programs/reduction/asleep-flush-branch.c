/* t1 reading back 3 (t2's store, between its own two), with t2 reading
 * v0=2 and v1=1, is an SC outcome, so every model has it. Under TSO with 2
 * buffer entries, optimal DPOR lost it when it dropped a wakeup branch
 * whose first process (a flush) was asleep where the branch starts: a
 * flush process's next step depends on what its thread buffered since, so
 * a sleeping flush does not cover every branch that starts with it. Found
 * by fuzz.py --corpus (seed 3012, program 24). `--por none` needs minutes
 * under TSO here, so the test compares the reductions with SC's answer. */
#include <assert.h>
#include <pthread.h>
int vars[2] __attribute__((aligned(8)));
int r0, r1, r2, r3, r4;
static void *t0(void *arg) { vars[1] = 1; r0 = vars[1]; r1 = vars[1]; return 0; }
static void *t1(void *arg) { vars[0] = 2; r2 = vars[0]; vars[0] = 3; return 0; }
static void *t2(void *arg) {
  int a3 = vars[0];
  int a4 = vars[1];
  vars[0] = 3;
  r3 = a3;
  r4 = a4;
  return 0;
}
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(!(r2 == 3 && r3 == 2 && r4 == 1));
  return 0;
}
