/* SB3: SB with 3 threads in a ring: all-zero needs every store buffered
 * (TSO/PSO only). */
#include <pthread.h>
#include "tsoify.h"
int x0, x1, x2;                         /* shared, initially 0 */
int r0, r1, r2;                         /* registers, read by main after join */
static void *t0(void *arg) { x0 = 1; r0 = x1; return 0; }
static void *t1(void *arg) { x1 = 1; r1 = x2; return 0; }
static void *t2(void *arg) { x2 = 1; r2 = x0; return 0; }
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  tsoify_outcome("r0=%d r1=%d r2=%d", r0, r1, r2);
  return 0;
}
