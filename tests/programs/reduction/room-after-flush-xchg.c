/* The same loss as room-after-flush.c with an exchange (found by fuzz.py
 * --corpus --cas, seed 103, shrunk): with one buffer entry optimal DPOR
 * missed r0=1 r1=0 x=1 y=1, reached even under SC by y=3; xchg(y,1);
 * r0=y; r1=x; x=3; x=1. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1;                             /* registers, read by main after join */
static void *t0(void *arg) { x = 3; x = 1; return 0; }
static void *t1(void *arg) { y = 3; return 0; }
static void *t2(void *arg) { r0 = y; r1 = x; return 0; }
static void *t3(void *arg) { __atomic_exchange_n(&y, 1, __ATOMIC_SEQ_CST); return 0; }
int main(void) {
  pthread_t h0, h1, h2, h3;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_create(&h3, 0, t3, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  pthread_join(h3, 0);
  tsoify_outcome("r0=%d r1=%d x=%d y=%d", r0, r1, x, y);
  return 0;
}
