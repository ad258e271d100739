/* Optimal DPOR must reverse the races of the replayed prefix again in
 * every execution: the reversing sequence of a race also holds the steps
 * that came after it, and those differ from execution to execution. A
 * search that reversed each race only in the first execution holding it
 * missed 6 of the 120 outcomes under PSO (the shape of a relaxed litmus
 * test: a chain of four threads, reads whose address depends on an
 * earlier read). Every reduction must reach the outcomes of source DPOR. */
#include <pthread.h>
#include <stdatomic.h>
#include "tsoify.h"

atomic_int v[5];
int seen[6]; /* each thread's reads, for main's report */

void *writer3(void *arg) {
  atomic_store_explicit(&v[0], 1, memory_order_relaxed);
  atomic_store_explicit(&v[1], 1, memory_order_relaxed);
  atomic_store_explicit(&v[2], 1, memory_order_relaxed);
  return 0;
}

void *writer1(void *arg) {
  atomic_store_explicit(&v[3], 2, memory_order_relaxed);
  return 0;
}

void *reader_a(void *arg) {
  int a = atomic_load_explicit(&v[3], memory_order_relaxed);
  int b = atomic_load_explicit(&v[0 + (a ^ a)], memory_order_relaxed);
  int c = atomic_load_explicit(&v[1], memory_order_relaxed);
  atomic_store_explicit(&v[4 + (c ^ c)], 1, memory_order_relaxed);
  seen[0] = a, seen[1] = b, seen[2] = c;
  return 0;
}

void *reader_b(void *arg) {
  int a = atomic_load_explicit(&v[4], memory_order_relaxed);
  int b = atomic_load_explicit(&v[1 + (a ^ a)], memory_order_relaxed);
  int c = atomic_load_explicit(&v[2], memory_order_relaxed);
  atomic_store_explicit(&v[3 + (c ^ c)], 1, memory_order_relaxed);
  seen[3] = a, seen[4] = b, seen[5] = c;
  return 0;
}

int main(void) {
  pthread_t t[4];
  pthread_create(&t[0], 0, writer3, 0);
  pthread_create(&t[1], 0, writer1, 0);
  pthread_create(&t[2], 0, reader_a, 0);
  pthread_create(&t[3], 0, reader_b, 0);
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  tsoify_outcome("a=%d%d%d b=%d%d%d v3=%d v4=%d v0=%d", seen[0], seen[1], seen[2], seen[3], seen[4], seen[5],
                 atomic_load_explicit(&v[3], memory_order_relaxed), atomic_load_explicit(&v[4], memory_order_relaxed),
                 atomic_load_explicit(&v[0], memory_order_relaxed));
  return 0;
}
