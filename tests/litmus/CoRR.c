/* CoRR: coherence of read-read: two loads of x in one thread never see the
 * new value and then the old one. */
#include <pthread.h>
#include "tsoify.h"
int x;                                  /* shared, initially 0 */
int r0, r1;                             /* registers, read by main after join */
static void *t0(void *arg) { x = 1; return 0; }
static void *t1(void *arg) { r0 = x; r1 = x; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
