/* readers-writers: one writer and N readers of one shared variable.
 *
 * The writer publishes two versions of x (1, then 2); each reader reads x
 * twice and checks that it never sees the value go backwards (read-read
 * coherence). That holds under SC, x86-TSO and PSO alike (PSO keeps one
 * FIFO per address, so two stores to the same variable stay in order), so
 * the program is SAFE everywhere; it is a measure of the search, not a bug.
 * This is the shape of the "readers-writers" family used to evaluate
 * stateless model checkers with DPOR: readers never conflict with each
 * other, only with the writer, so the number of inequivalent executions
 * grows like 6^N (each reader's pair of reads lands in one of six places
 * relative to the two writes) while the number of interleavings grows
 * factorially in the number of events.
 *
 *   tsoify bench/readers-writers.c -DN=3 -o rw3.tso   (N readers, default 2)
 */
#include <assert.h>
#include <pthread.h>
#ifndef N
#define N 2
#endif
int x;

static void *writer(void *arg) {
  x = 1;
  x = 2;
  return 0;
}

static void *reader(void *arg) {
  int first = x;
  int second = x;
  assert(first <= second && "x went backwards");
  return 0;
}

int main(void) {
  pthread_t w, r[N];
  pthread_create(&w, 0, writer, 0);
  for (int i = 0; i < N; i++) pthread_create(&r[i], 0, reader, 0);
  pthread_join(w, 0);
  for (int i = 0; i < N; i++) pthread_join(r[i], 0);
  assert(x == 2);
  return 0;
}
