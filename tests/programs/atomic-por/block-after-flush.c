/* PSO with two buffer entries (found by fuzz.py --atomic, seed 1214,
 * program 53): t1's store of y = 2 needs room, so r2's entry must leave
 * first while x = 1 stays buffered; y = 2 then reaches memory, the block
 * sees it and writes x = 3, and x = 1 arrives last: r2=1 x=1 y=2. Both
 * reductions lost it. Source DPOR took the flush of x, asleep where the
 * block failed its assume, for a cover of the reversal that runs the
 * block later (the block then writes x, which that flush's subtree never
 * saw after it); optimal DPOR let a wakeup branch through the failed
 * block cover the sequence that reverses which entry leaves. */
#include <pthread.h>
#include "tsoify.h"
int x, y, r2;
void __VERIFIER_assume(int);
void __VERIFIER_atomic_set_x_if_y_is_2(void) { __VERIFIER_assume(y == 2); x = 3; }
void *t0(void *arg) { __VERIFIER_atomic_set_x_if_y_is_2(); return 0; }
void *t1(void *arg) { x = 1; r2 = y; y = 2; return 0; }
void *t2(void *arg) { y = 1; return 0; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  pthread_create(&c, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  tsoify_outcome("r2=%d x=%d y=%d", r2, x, y);
  return 0;
}
