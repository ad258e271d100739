/* A failed __VERIFIER_assume inside an atomic function must not hide the
 * store that would have satisfied it. */
#include <pthread.h>
void reach_error(void);
void __VERIFIER_assume(int);
int flag;
void __VERIFIER_atomic_wait(void) { __VERIFIER_assume(flag == 1); }
void *waiter(void *a) { __VERIFIER_atomic_wait(); reach_error(); return 0; }
void *setter(void *a) { flag = 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, waiter, 0);
  pthread_create(&b, 0, setter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
