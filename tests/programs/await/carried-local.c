/* A spin loop that carries a local from one iteration to the next (a phi
 * after SROA): waiting on a copied value, the way sv-benchmarks' dekker.i
 * does (t = turn inside an atomic block). The first iteration changes t;
 * the next one that leaves it unchanged and re-reads the same turn blocks. */
#include <pthread.h>
#include "tsoify.h"
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int turn, flag, seen;
void *waiter(void *p) {
  int t = 2;
  while (t != 1) {
    __VERIFIER_atomic_begin();
    t = turn;
    __VERIFIER_atomic_end();
  }
  seen = flag;
  return 0;
}
void *setter(void *p) { flag = 1; turn = 1; return 0; }
int main(void) {
  pthread_t w, s;
  pthread_create(&w, 0, waiter, 0);
  pthread_create(&s, 0, setter, 0);
  pthread_join(w, 0);
  pthread_join(s, 0);
  tsoify_outcome("seen=%d", seen);
  return 0;
}
