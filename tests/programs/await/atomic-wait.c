/* The SV-COMP way to wait: re-check inside an atomic block until the
 * condition holds, through a helper function. */
#include <pthread.h>
#include "tsoify.h"
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int ready, value, got;
static int is_ready(void) { return ready; }
void *setter(void *p) { value = 7; ready = 1; return 0; }
void *getter(void *p) {
  for (;;) {
    __VERIFIER_atomic_begin();
    if (is_ready()) {
      got = value;
      __VERIFIER_atomic_end();
      break;
    }
    __VERIFIER_atomic_end();
  }
  return 0;
}
int main(void) {
  pthread_t s, g;
  pthread_create(&s, 0, setter, 0);
  pthread_create(&g, 0, getter, 0);
  pthread_join(s, 0);
  pthread_join(g, 0);
  tsoify_outcome("got=%d", got);
  return 0;
}
