/* An atomic block may read another thread's store that reached memory
 * while a later store of that thread is still buffered: x=1 is a final
 * outcome under TSO and PSO with K=2 (T1's first x=1 flushed, the block
 * reads it and writes 3, T1's second x=1 lands last). The export once
 * let no other buffer flush where the program enters an atomic block
 * (found by fuzz.py --atomic --export). */
#include <pthread.h>
#include "tsoify.h"
int x;
void __VERIFIER_assume(int);
void __VERIFIER_atomic_bump(void) { __VERIFIER_assume(x == 1); x = 3; }
static void *t0(void *arg) { __VERIFIER_atomic_bump(); return 0; }
static void *t1(void *arg) { x = 1; x = 1; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("x=%d", x);
  return 0;
}
