/* SB+mfences: SB with an mfence after each store: the fences forbid r0=0
 * r1=0 under every model. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1;                             /* registers, read by main after join */
static void *t0(void *arg) { x = 1; __atomic_thread_fence(__ATOMIC_SEQ_CST); r0 = y; return 0; }
static void *t1(void *arg) { y = 1; __atomic_thread_fence(__ATOMIC_SEQ_CST); r1 = x; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%d r1=%d", r0, r1);
  return 0;
}
