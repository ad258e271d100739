/* R: R: T1's load of x may pass its own buffered store y=2 (TSO/PSO), giving
 * y=2 r0=0. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0;                                 /* registers, read by main after join */
static void *t0(void *arg) { x = 1; y = 1; return 0; }
static void *t1(void *arg) { y = 2; r0 = x; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d y=%d", r0, y);
  return 0;
}
