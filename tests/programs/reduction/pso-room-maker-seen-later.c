/* PSO, K = 2: T1 buffers y = 1 and r2, then x = 2 waits for room. The
 * outcome r1=2 r2=0 x=1 y=1 needs r2's flush (not y's) to make that room,
 * so that y = 1 reaches memory after T0's exchange; T0 reads x = 2 before.
 * Where T0 runs first, no one reads y after its flush, and a reduction
 * that skipped the room choices no thread sees there lost this outcome:
 * reversing T0's read of x then carried y's early flush along (fuzz.py
 * seed 2004, program 116). */
#include <pthread.h>
#include "tsoify.h"
int x, y;
int r1, r2;
static void *t0(void *arg) {
  r1 = x;
  __atomic_exchange_n(&y, 3, __ATOMIC_SEQ_CST);
  x = 1;
  return 0;
}
static void *t1(void *arg) { y = 1; r2 = x; x = 2; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r1=%d r2=%d x=%d y=%d", r1, r2, x, y);
  return 0;
}
