/* 2+2W: two writers, two locations: final x=1 y=1 needs store-store
 * reordering (PSO only). */
#include <pthread.h>
#include "tsoify.h"
int x, y;                               /* shared, initially 0 */
static void *t0(void *arg) { x = 1; y = 2; return 0; }
static void *t1(void *arg) { y = 1; x = 2; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("x=%d y=%d", x, y);
  return 0;
}
