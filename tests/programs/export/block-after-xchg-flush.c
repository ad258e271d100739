/* T0's xchg drains its buffered y=2 to memory before it writes 3; an
 * atomic block of T1 that runs in between reads y=2. So x=3 y=3 is a
 * final outcome under every model (found by fuzz.py --atomic --export,
 * like block-reads-a-flush.c). */
#include <pthread.h>
#include "tsoify.h"
int x, y;
void __VERIFIER_assume(int);
void __VERIFIER_atomic_check(void) { __VERIFIER_assume(y == 2); x = 3; }
static void *t0(void *arg) { y = 2; __atomic_exchange_n(&y, 3, __ATOMIC_SEQ_CST); return 0; }
static void *t1(void *arg) { __VERIFIER_atomic_check(); return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("x=%d y=%d", x, y);
  return 0;
}
