/* The same store inside an atomic block whose assume fails: the block
 * happens entirely or not at all, so no feasible execution has x == 1 and
 * T2's assertion holds. Expected SAFE under every model and reduction. */
#include <assert.h>
#include <pthread.h>
void __VERIFIER_assume(int);
int x;
void __VERIFIER_atomic_set(void) { x = 1; __VERIFIER_assume(0); }
static void *t1(void *a) { __VERIFIER_atomic_set(); return 0; }
static void *t2(void *a) { assert(x == 0); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
