/* T1 stores x = 1, then its assume fails. The state between the two is
 * reachable, and in it T2 reads x == 1: expected VIOLATION under every
 * model and reduction (with no scheduling point between the store and the
 * assume, no model found it once). */
#include <assert.h>
#include <pthread.h>
void __VERIFIER_assume(int);
int x;
static void *t1(void *a) { x = 1; __VERIFIER_assume(0); return 0; }
static void *t2(void *a) { assert(x == 0); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
