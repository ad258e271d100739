/* CAS-ring3: a ring of three compare-and-swaps on x (Ti moves x from i to
 * i+1 mod 3; ri is 1 if it succeeded, else 0): T0 always succeeds, T1 only
 * after it, T2 only after both. */
#include <pthread.h>
#include "tsoify.h"
int x;                                  /* shared, initially 0 */
int r0, r1, r2;                         /* registers, read by main after join */
static void *t0(void *arg) {
  r0 = __atomic_compare_exchange_n(&x, &(int){0}, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return 0;
}
static void *t1(void *arg) {
  r1 = __atomic_compare_exchange_n(&x, &(int){1}, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return 0;
}
static void *t2(void *arg) {
  r2 = __atomic_compare_exchange_n(&x, &(int){2}, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return 0;
}
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  tsoify_outcome("r0=%d r1=%d r2=%d x=%d", r0, r1, r2, x);
  return 0;
}
