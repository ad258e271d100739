/* t2's reads of y and z must run between t0's flushed y=1 and t0's block
 * (which passes only while y is 1, before t1's exchange) for r0=1 r1=1
 * r2=3 y=2 z=1. Optimal DPOR took t0's block, asleep beside a wakeup
 * sequence of t2's reads that does not run it, to cover that sequence;
 * the block's subtree had left the same reversal to t2's branch, and the
 * outcome was lost under TSO and PSO. Found by fuzz.py --atomic (seed
 * 1206, program 40). */
#include <pthread.h>
#include "tsoify.h"
int y, z;                               /* shared, initially 0 */
int r0, r1, r2;                         /* registers, read by main after join */
void __VERIFIER_assume(int);
void __VERIFIER_atomic_0(void) { __VERIFIER_assume(y == 1); z = 1; }
void __VERIFIER_atomic_1(void) { __VERIFIER_assume(z == 0); z = 3; }
static void *t0(void *arg) { y = 1; __VERIFIER_atomic_0(); return 0; }
static void *t1(void *arg) { __atomic_exchange_n(&y, 2, __ATOMIC_SEQ_CST); return 0; }
static void *t2(void *arg) { __VERIFIER_atomic_1(); r0 = y; r1 = y; r2 = z; return 0; }
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  tsoify_outcome("r0=%d r1=%d r2=%d y=%d z=%d", r0, r1, r2, y, z);
  return 0;
}
