/* A store that needs room in a bounded buffer, and readers around it
 * (found by fuzz.py --corpus --cas, seed 104, shrunk). With one or two
 * buffer entries, optimal DPOR reversed the race between a flush and the
 * store that found room only through it, although nothing in the
 * reversal made room: the branch could not run, and the sequences it had
 * covered were lost (r1=0 r0=2 r2=1 and r2=2 with v0=2 v1=2, which even
 * SC reaches). */
#include <pthread.h>
#include "tsoify.h"
int vars[2] __attribute__((aligned(8))); /* shared, initially 0 */
int r1, r0, r2;                         /* registers, read by main after join */
static void *t0(void *arg) { vars[0] = 2; return 0; }
static void *t1(void *arg) { vars[1] = 1; vars[1] = 2; return 0; }
static void *t2(void *arg) { int a0 = vars[1]; int a1 = vars[0]; r1 = a1; r0 = a0; return 0; }
static void *t3(void *arg) { int a2 = vars[1]; r2 = a2; return 0; }
int main(void) {
  pthread_t h0, h1, h2, h3;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_create(&h3, 0, t3, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  pthread_join(h3, 0);
  tsoify_outcome("r1=%d r0=%d r2=%d v0=%d v1=%d", r1, r0, r2, vars[0], vars[1]);
  return 0;
}
