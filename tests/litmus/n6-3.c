/* n6-3: n6 plus an observer T2 reading y then x: the observer sees memory,
 * never T0's buffered x=1. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1, r2, r3;                     /* registers, read by main after join */
static void *t0(void *arg) { x = 1; r0 = x; r1 = y; return 0; }
static void *t1(void *arg) { y = 2; x = 2; return 0; }
static void *t2(void *arg) { r2 = y; r3 = x; return 0; }
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  tsoify_outcome("r0=%d r1=%d r2=%d r3=%d x=%d", r0, r1, r2, r3, x);
  return 0;
}
