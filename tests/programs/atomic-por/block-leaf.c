/* r1=3 x=2 needs t3's block first (it passes only while x is 0), then
 * t2's exchange before t0's store of x, and t1's read after t2's store of
 * y. With optimal DPOR exploring blocks itself, the sequence for that was
 * held covered by a pending one-step branch (t3's block), and under that
 * branch the race between t0's store and the exchange was held covered by
 * t1 sleeping there: each deferred to the other and the outcome was lost
 * under SC. Source DPOR finds it. `--por none` needs 1.9 million
 * executions under SC, so the expected set is pinned. Found by fuzz.py
 * --atomic (seed 1204, program 149). */
#include <pthread.h>
#include "tsoify.h"
int x, y;
int r1;
void __VERIFIER_assume(int);
void __VERIFIER_atomic_0(void) { __VERIFIER_assume(x == 0); x = 2; }
static void *t0(void *arg) { x = 2; return 0; }
static void *t1(void *arg) { r1 = y; return 0; }
static void *t2(void *arg) { __atomic_exchange_n(&x, 1, __ATOMIC_SEQ_CST); y = 3; return 0; }
static void *t3(void *arg) { __VERIFIER_atomic_0(); return 0; }
int main(void) {
  pthread_t h0, h1, h2, h3;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_create(&h3, 0, t3, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  pthread_join(h3, 0);
  tsoify_outcome("r1=%d x=%d y=%d", r1, x, y);
  return 0;
}
