/* bound3: all-zero needs T0's 3 stores a,b,c all buffered at once: safe for
 * TSO bound K=1,2, violated for K>=3 and unbounded. */
#include <assert.h>
#include <pthread.h>
#include "tsoify.h"
int a, b, c, d;                         /* shared, initially 0 */
int r0, r1, r2, r3;                     /* registers, read by main after join */
static void *t0(void *arg) { a = 1; b = 1; c = 1; r0 = d; return 0; }
static void *t1(void *arg) {
  d = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  r1 = a;
  r2 = b;
  r3 = c;
  return 0;
}
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d r1=%d r2=%d r3=%d", r0, r1, r2, r3);
  assert(!(r0 == 0 && r1 == 0 && r2 == 0 && r3 == 0));
  return 0;
}
