/* MP: message passing: stores reach memory in order under TSO; only PSO lets
 * the flag y overtake the data x. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1;                             /* registers, read by main after join */
static void *t0(void *arg) { x = 1; y = 1; return 0; }
static void *t1(void *arg) { r0 = y; r1 = x; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
