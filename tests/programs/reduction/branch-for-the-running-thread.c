/* t2 reading v0=2 and v1 ending as t1's 1 is an SC outcome, so every model
 * has it. Under TSO with 2 buffer entries, optimal DPOR lost it when it
 * dropped a wakeup branch that started with the process run at that choice
 * in the execution just over: sequences found in that execution start with
 * it too, and are explored by running it again with a guide. Found by
 * fuzz.py --corpus (seed 3003, program 1) once optimal was the default. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
int vars[2] __attribute__((aligned(8)));
int r1;
static void *t0(void *arg) { vars[1] = 2; vars[1] = 3; vars[0] = 2; return 0; }
static void *t1(void *arg) {
  atomic_store_explicit((atomic_int *)&vars[1], 1, memory_order_seq_cst);
  return 0;
}
static void *t2(void *arg) { r1 = vars[0]; return 0; }
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  assert(!(r1 == 2 && vars[1] == 1));
  return 0;
}
