/* main checks, inside atomic blocks and without joining, what the threads
 * compute in atomic blocks: the last step where the threads could run
 * first is before main's block, not inside it. */
#include <pthread.h>
void reach_error(void);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int i = 1, j = 1;
void *add_j(void *a) { __VERIFIER_atomic_begin(); i += j; __VERIFIER_atomic_end(); return 0; }
void *add_i(void *a) { __VERIFIER_atomic_begin(); j += i; __VERIFIER_atomic_end(); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add_j, 0);
  pthread_create(&b, 0, add_i, 0);
  __VERIFIER_atomic_begin();
  int big = i + j >= 5;
  __VERIFIER_atomic_end();
  if (big) reach_error();
  return 0;
}
