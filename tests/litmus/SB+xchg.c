/* SB+xchg: SB with the stores done by locked xchg: xchg writes memory
 * directly, so r0=0 r1=0 is forbidden. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1;                             /* registers, read by main after join */
static void *t0(void *arg) { __atomic_exchange_n(&x, 1, __ATOMIC_SEQ_CST); r0 = y; return 0; }
static void *t1(void *arg) { __atomic_exchange_n(&y, 1, __ATOMIC_SEQ_CST); r1 = x; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
