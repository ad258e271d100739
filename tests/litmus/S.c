/* S: S: x=2 r0=1 needs T0's y=1 to reach memory before its x=2 (PSO only). */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0;                                 /* registers, read by main after join */
static void *t0(void *arg) { x = 2; y = 1; return 0; }
static void *t1(void *arg) { r0 = y; x = 1; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d x=%d", r0, x);
  return 0;
}
