/* One thread stores to N addresses that no other thread reads. Under PSO
 * with a small bound every store past the K-th waits for room, and any
 * buffered entry may be the one that leaves: the bounded search explores
 * each choice (195,025 executions for N = 16 and K = 2 under --por
 * optimal; --por source did not finish in 20 s), while with unbounded
 * buffers one execution covers everything, and it covers the bound too. */
#include <pthread.h>
#ifndef N
#define N 16
#endif
int x[N];
int y;
static void *writer(void *a) { for (int i = 0; i < N; i++) x[i] = 1; return 0; }
static void *other(void *a) { __atomic_store_n(&y, 1, __ATOMIC_RELAXED); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, other, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
