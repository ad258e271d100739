// A step with a value choice inside it sleeps at a node for every value
// of that choice, so its footprint there is what all of them touch: t0
// writes y when its _Bool is 0 and x when it is 1. Explored first with 1
// (x), then 0 (y); at the node where t1 goes first t0 sleeps, and t1
// reads y twice. Only if the sleeping t0 counts y too does it wake between
// the two reads, for r0=0 r1=1. A sleeper with the last execution's
// footprint alone (x) lost that outcome under SC with optimal and source
// DPOR (a mutant tried on 2026-12-04; the search keeps steps with value
// choices open, driver/src/dpor/mod.rs step_at).
#include <pthread.h>
#include "tsoify.h"
extern _Bool __VERIFIER_nondet_bool(void);

int x, y, r0, r1;

static void *t0(void *arg) {
  (void)arg;
  int u = __VERIFIER_nondet_bool();
  if (u) x = 1; else y = 1;
  return 0;
}

static void *t1(void *arg) {
  (void)arg;
  r0 = y;
  r1 = y;
  return 0;
}

int main(void) {
  pthread_t h[2];
  pthread_create(&h[0], 0, t0, 0);
  pthread_create(&h[1], 0, t1, 0);
  pthread_join(h[0], 0);
  pthread_join(h[1], 0);
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
