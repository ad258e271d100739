/* An atomic block that aborts (an SV-COMP assumption) ends the execution
 * once x is 1. Explored after t1's store, its step (the abort) slept
 * through t2's read of y, although t2's reads could come before it: the
 * violation needs t2 to read x and y before the block, the block to see
 * x == 0 and store y, and then t1's store. */
#include <pthread.h>
#include <stdlib.h>
void reach_error(void);
int x, y, r0, r1;
void __VERIFIER_atomic_store_y_if_x_is_0(void) {
  if (x != 0) abort();
  y = 1;
}
void *t0(void *arg) {
  __VERIFIER_atomic_store_y_if_x_is_0();
  return 0;
}
void *t1(void *arg) {
  x = 1;
  return 0;
}
void *t2(void *arg) {
  r0 = x;
  r1 = y;
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  pthread_create(&c, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  if (r0 == 0 && r1 == 0 && y == 1 && x == 1) reach_error();
  return 0;
}
