/* Two threads enter a section guarded by __VERIFIER_assume instead of a spin
 * loop. A failed assume ends only that path: under reduction the thread
 * blocks and the others run on, so the races after it are seen (with the
 * execution simply cut there, DPOR never tried the second thread first).
 * -DTURN adds a Peterson-style turn variable. Each thread records in which
 * order it entered. */
#include <pthread.h>
#include "tsoify.h"
extern void __VERIFIER_assume(int);
int flag0, flag1, turn, order, e0, e1;
static void *t0(void *a) {
  flag0 = 1;
#ifdef TURN
  turn = 1;
  __VERIFIER_assume(flag1 == 0 || turn == 0);
#else
  __VERIFIER_assume(flag1 == 0);
#endif
  e0 = 1 + __atomic_fetch_add(&order, 1, __ATOMIC_SEQ_CST);
  flag0 = 0;
  return 0;
}
static void *t1(void *a) {
  flag1 = 1;
#ifdef TURN
  turn = 0;
  __VERIFIER_assume(flag0 == 0 || turn == 1);
#else
  __VERIFIER_assume(flag0 == 0);
#endif
  e1 = 1 + __atomic_fetch_add(&order, 1, __ATOMIC_SEQ_CST);
  flag1 = 0;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("e0=%d e1=%d", e0, e1);
  return 0;
}
