/* CAS-ring4: casrot-miss.c (tests/programs/reduction) as a litmus test: a
 * ring of four compare-and-swaps on x, Ti moving x from i to i+1 mod 4, ri
 * the value Ti's CAS read (i when it succeeded). r1=1 r2=0 r3=0 needs T2 and
 * T3 to fail before T0, and optimal DPOR once missed it (a failed CAS
 * counted as a read). */
#include <pthread.h>
#include "tsoify.h"
int x;                                  /* shared, initially 0 */
int r0, r1, r2, r3;                     /* registers, read by main after join */
static void *t0(void *arg) { r0 = __sync_val_compare_and_swap(&x, 0, 1); return 0; }
static void *t1(void *arg) { r1 = __sync_val_compare_and_swap(&x, 1, 2); return 0; }
static void *t2(void *arg) { r2 = __sync_val_compare_and_swap(&x, 2, 3); return 0; }
static void *t3(void *arg) { r3 = __sync_val_compare_and_swap(&x, 3, 0); return 0; }
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
  tsoify_outcome("r0=%d r1=%d r2=%d r3=%d x=%d", r0, r1, r2, r3, x);
  return 0;
}
