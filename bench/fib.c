/* fib: two threads grow a pair of shared counters Fibonacci-style.
 *
 * Starting from i = j = 1, one thread does i = i + j and the other
 * j = j + i, N times each, with plain (racy) loads and stores. The largest
 * value any schedule can produce is reached when the two threads strictly
 * alternate, which yields Fibonacci number F(2N+2) (F(1) = F(2) = 1); main
 * checks that neither counter exceeds it. The bound holds under every
 * memory model: a relaxed schedule can only make a thread read an older,
 * smaller value. The family is the "fib_bench" pthread benchmark popular in
 * concurrency verification competitions, there usually with a bound that
 * is too tight; here the bound is the exact maximum, so every schedule is
 * explored and the verdict is SAFE. Every load races with the other
 * thread's stores, so the reduction has little to remove.
 *
 *   tsoify bench/fib.c -DN=3 -o fib3.tso   (iterations per thread, default 2)
 */
#include <assert.h>
#include <pthread.h>
#ifndef N
#define N 2
#endif
int i = 1, j = 1;

static void *grow_i(void *arg) {
  for (int k = 0; k < N; k++) i = i + j;
  return 0;
}

static void *grow_j(void *arg) {
  for (int k = 0; k < N; k++) j = j + i;
  return 0;
}

static int fibonacci(int n) { /* F(1) = F(2) = 1 */
  int a = 1, b = 1;
  for (int k = 2; k < n; k++) {
    int c = a + b;
    a = b;
    b = c;
  }
  return b;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, grow_i, 0);
  pthread_create(&b, 0, grow_j, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  int bound = fibonacci(2 * N + 2);
  assert(i <= bound && j <= bound && "a counter passed F(2N+2)");
  return 0;
}
