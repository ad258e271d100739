/* own-read: a thread always reads its own latest store (store-buffer
 * forwarding), so r0=0 is impossible. */
#include <pthread.h>
#include "tsoify.h"
int x;                                  /* shared, initially 0 */
int r0;                                 /* registers, read by main after join */
static void *t0(void *arg) { x = 1; r0 = x; return 0; }
int main(void) {
  pthread_t h0;
  pthread_create(&h0, 0, t0, 0);
  pthread_join(h0, 0);
  tsoify_outcome("r0=%d", r0);
  return 0;
}
