/* An atomic block is several accesses whose later ones depend on what its
 * first ones read. t1's block, explored first, reads z=0 and writes x=3;
 * in another execution it runs after z=1 and fails its assume. Reversing
 * that (block before z=1's flush) with t2's x store flushed first needs an
 * execution the sleeping block's subtree does not hold: x=3 at the end
 * (t2's bytes overwritten by the block) is only reached that way.
 * Found by fuzz.py --atomic. Under optimal DPOR the same outcome needs
 * t2's store, the last step of the run in which the block failed, in the
 * wakeup sequence: that run ends because nothing can run (main waits for
 * t1 forever), so its last step ended nothing and is reversible like any
 * other (FL_RAN_OUT); optimal once left it out as if it were main's end. */
#include <pthread.h>
#include "tsoify.h"
int x, z;
int r0;
void __VERIFIER_assume(int);
void __VERIFIER_atomic_0(void) { __VERIFIER_assume(z == 0); x = 3; }
static void *t0(void *arg) { z = 1; return 0; }
static void *t1(void *arg) { __VERIFIER_atomic_0(); r0 = x; return 0; }
static void *t2(void *arg) { *(unsigned short *)((unsigned char *)&x + 1) = 1; return 0; }
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  tsoify_outcome("r0=%d x=%d z=%d", r0, x, z);
  return 0;
}
