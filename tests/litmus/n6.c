/* n6: n6 (x86-TSO paper): T0 reads its own buffered x=1 while memory later
 * ends with x=1 (TSO/PSO). */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1;                             /* registers, read by main after join */
static void *t0(void *arg) { x = 1; r0 = x; r1 = y; return 0; }
static void *t1(void *arg) { y = 2; x = 2; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d r1=%d x=%d", r0, r1, x);
  return 0;
}
