// Both accesses to `x` are in atomic blocks: no race.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x;
void *t1(void *a) { __VERIFIER_atomic_begin(); x = 1; __VERIFIER_atomic_end(); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t1, 0);
  __VERIFIER_atomic_begin(); int r = x; __VERIFIER_atomic_end(); (void)r;
  pthread_join(t, 0);
  return x == 1 ? 0 : 1;
}
