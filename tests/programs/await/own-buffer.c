/* A thread spins on a location it has itself stored to: it reads its own
 * buffered value until another thread's store reaches memory after its own
 * flush. */
#include <pthread.h>
#include "tsoify.h"
int x, r;
void *a(void *p) { x = 1; while (x == 1) {} r = x; return 0; }
void *b(void *p) { x = 2; return 0; }
int main(void) {
  pthread_t s, t;
  pthread_create(&s, 0, a, 0);
  pthread_create(&t, 0, b, 0);
  pthread_join(s, 0);
  pthread_join(t, 0);
  tsoify_outcome("r=%d x=%d", r, x);
  return 0;
}
