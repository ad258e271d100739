/* SB+cas+fadd: SB with a locked compare-and-swap on one side and a locked
 * fetch-add on the other: both write memory directly, so r1=0 r3=0 is
 * forbidden under every model. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1, r2, r3;                     /* registers, read by main after join */
static void *t0(void *arg) {
  r0 = __atomic_compare_exchange_n(&x, &(int){0}, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  r1 = y;
  return 0;
}
static void *t1(void *arg) { r2 = __atomic_fetch_add(&y, 1, __ATOMIC_SEQ_CST); r3 = x; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d r1=%d r2=%d r3=%d", r0, r1, r2, r3);
  return 0;
}
