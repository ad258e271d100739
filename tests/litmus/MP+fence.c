/* MP+fence: MP with an mfence between the two stores: even PSO must publish
 * x before y. */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
int r0, r1;                             /* registers, read by main after join */
static void *t0(void *arg) { x = 1; __atomic_thread_fence(__ATOMIC_SEQ_CST); y = 1; return 0; }
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
