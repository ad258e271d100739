// Two threads that grow two counters in turns, Fibonacci-style (after the
// fib_bench benchmarks of GenMC and SV-COMP), and a checker created last:
// the assertion fails only when every update of one thread falls between
// two updates of the other, the schedule with the most alternation there
// is. A depth-first search meets it after tens of thousands of executions;
// a rotation probe (threads by turns, the checker held back) at once.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define ROUNDS 5

atomic_int a = 1, b = 1;

/* each thread adds both counters into its own one */
static void *grow(void *counter) {
  for (int k = 0; k < ROUNDS; k++) {
    int x = atomic_load_explicit(&a, memory_order_relaxed);
    int y = atomic_load_explicit(&b, memory_order_relaxed);
    atomic_store_explicit((atomic_int *)counter, x + y, memory_order_relaxed);
  }
  return 0;
}

/* 144 = F(12): reached only by strict alternation from the first round */
static void *check(void *arg) {
  (void)arg;
  assert(atomic_load_explicit(&a, memory_order_relaxed) < 144 && atomic_load_explicit(&b, memory_order_relaxed) < 144);
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, grow, &a);
  pthread_create(&t2, 0, grow, &b);
  pthread_create(&t3, 0, check, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}
