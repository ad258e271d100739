/* Load buffering where T1 first stores to a stack slot that dies while the
 * store is still buffered (the end of touch()'s frame drops it unwritten).
 * The explorer must match T1's later flush of x with x's store, not with
 * the dropped one: matched with the dropped store, the flush did not seem
 * to follow T1's step that stores x, and a wakeup sequence started with a
 * flush of an entry not yet stored (a branch that cannot run). On GenMC's
 * fcombiner-async under TSO that made optimal DPOR explore 70 complete
 * executions where source DPOR needs 44. */
#include <pthread.h>
#include "tsoify.h"
int x, y;
int r0, r1;
int *volatile leak;
static __attribute__((noinline)) void touch(void) { int local; leak = &local; local = 1; }
static void *t1(void *arg) { touch(); r0 = y; x = 1; return 0; }
static void *t2(void *arg) { r1 = x; y = 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
