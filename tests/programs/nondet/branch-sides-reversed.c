// One thread branches on a nondet value between its store and its load;
// the other stores y and then x. Under TSO, r1 = 2 with x = 2 at the end
// (t0 reads y after t1's store left its buffer, and t0's x = 2 leaves its
// buffer after t1's x = 3) is reachable on either side of the branch. The
// race between the two flushes of x is reversed by a wakeup branch that
// starts with t0's step holding the branch; optimal DPOR took the branch
// made for one side to cover the reversal on the other, and lost
// r1 = 2 x = 2 (found by nondetfuzz.py --own-assumes, seed 13, program 14).
// Now steps of a wakeup branch are told apart by their value choices in
// `place` (driver/src/dpor/wakeup.rs, Seq::weak_initial_of).
#include <pthread.h>
#include "tsoify.h"
extern int __VERIFIER_nondet_int(void);

int x, y, W;
int r0, r1;

static void *t0(void *arg) {
  (void)arg;
  x = 2;
  if (W > 2) { r0 = y; } else { r1 = y; }
  return 0;
}

static void *t1(void *arg) {
  (void)arg;
  y = 2;
  x = 3;
  return 0;
}

int main(void) {
  W = __VERIFIER_nondet_int();
  pthread_t h[2];
  pthread_create(&h[0], 0, t0, 0);
  pthread_create(&h[1], 0, t1, 0);
  pthread_join(h[0], 0);
  pthread_join(h[1], 0);
  tsoify_outcome("r0=%d r1=%d x=%d y=%d", r0, r1, x, y);
  return 0;
}
