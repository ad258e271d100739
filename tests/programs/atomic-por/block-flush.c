/* An atomic block's buffered store reaches memory when the block ends (the
 * flush belongs to the block). Another thread's store to the same variable
 * must wake the block from its sleep set: y=1 (the other store flushed
 * first) is a final outcome under every model. Found by fuzz.py --atomic. */
#include <pthread.h>
#include "tsoify.h"
int x, y;
void __VERIFIER_assume(int);
void __VERIFIER_atomic_set(void) { __VERIFIER_assume(x == 0); y = 1; }
static void *t0(void *arg) { __VERIFIER_atomic_set(); x = 2; return 0; }
static void *t1(void *arg) { y = 2; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("x=%d y=%d", x, y);
  return 0;
}
