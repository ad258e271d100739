/* MP3: 3-thread message-passing chain x -> y -> z: r0=1 r1=1 r2=0 needs PSO
 * (T0's y overtaking x). */
#include <pthread.h>
#include "tsoify.h"
int x, y, z;                            /* shared, initially 0 */
int r0, r1, r2;                         /* registers, read by main after join */
static void *t0(void *arg) { x = 1; y = 1; return 0; }
static void *t1(void *arg) { int t = y; r0 = t; z = t; return 0; }
static void *t2(void *arg) { r1 = z; r2 = x; return 0; }
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
