/* T1's assume fails whenever it runs before anyone sets flag (no one
 * does), so every execution in which T1 ran is infeasible; but T2's
 * assertion fails without reading anything T1 did: the execution in which
 * T1 has not reached its assume yet violates it. Expected VIOLATION under
 * every model and reduction (source and optimal DPOR once said SAFE: a
 * failed assume that conflicts with nothing has no race to reverse). */
#include <assert.h>
#include <pthread.h>
void __VERIFIER_assume(int);
int flag, y;
static void *t1(void *a) { __VERIFIER_assume(flag); return 0; }
static void *t2(void *a) { y = 1; assert(y == 0); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
