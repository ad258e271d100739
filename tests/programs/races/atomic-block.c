// An SV-COMP atomic block writes `x`; another thread reads it plainly,
// outside any block: the block counts as atomic, the read does not, and
// nothing orders them. A race.
#include <pthread.h>
void __VERIFIER_atomic_set(void);
int x;
void __VERIFIER_atomic_set(void) { x = 1; }
void *t1(void *a) { __VERIFIER_atomic_set(); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t1, 0);
  int r = x; (void)r;
  pthread_join(t, 0);
  return 0;
}
