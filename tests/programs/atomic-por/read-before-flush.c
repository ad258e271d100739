/* Under PSO, t0's two stores flush in either order. For y=2 at the end,
 * t1's block must pass its assume (read x=0, before t0's x flush) and
 * write y=3 before t0's y=2 reaches memory. The reduction saw t0's x
 * flush as free to go before the block, because it follows only the
 * block's first read while only the block's last write follows t0's y
 * flush; but a block runs whole, so what follows any part of it follows
 * all of it. Optimal DPOR then reached y=3 only. Found by fuzz.py --atomic
 * (seed 41) once optimal DPOR explored blocks itself. */
#include <pthread.h>
#include "tsoify.h"
int x, y;
void __VERIFIER_assume(int);
void __VERIFIER_atomic_0(void) { __VERIFIER_assume(x == 0); y = 3; }
static void *t0(void *arg) { x = 1; y = 2; return 0; }
static void *t1(void *arg) { y = 1; __VERIFIER_atomic_0(); return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("x=%d y=%d", x, y);
  return 0;
}
