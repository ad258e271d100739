/* casrot: N threads pass a token around a ring with compare-and-swap.
 *
 * A shared variable x holds the index of the thread whose turn it is
 * (initially 0). Thread i makes ROUNDS attempts (default 1) to move it on
 * with one __atomic_compare_exchange_n from i to (i+1) mod N; an attempt
 * that finds another value simply fails (no retry loop, so nothing spins).
 * After the joins main checks that x has advanced exactly once per
 * successful CAS. CAS is a locked instruction, so the result is the same
 * under SC, x86-TSO and PSO: SAFE. The family is the "CAS rotation"
 * benchmark of the DPOR literature: all the CAS operations touch one
 * variable, but most of them fail, and a failed CAS only reads, so a
 * reduction that treats failed CASes as reads (GenMC's, which builds
 * executions from reads-from) has far fewer executions to explore than one
 * that orders every pair (ours: N! classes; taken as a read in sleep sets
 * it lost interleavings, tests/programs/reduction/casrot-miss.c).
 *
 *   tsoify bench/casrot.c -DN=4 -o casrot4.tso   (threads, default 3)
 */
#include <assert.h>
#include <pthread.h>
#ifndef N
#define N 3
#endif
#ifndef ROUNDS
#define ROUNDS 1
#endif
int x;            /* whose turn it is */
int successes[N]; /* per thread, read by main after the join */

static void *rotate(void *arg) {
  int me = (int)(long)arg;
  for (int r = 0; r < ROUNDS; r++) {
    int expected = me;
    if (__atomic_compare_exchange_n(&x, &expected, (me + 1) % N, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
      successes[me]++;
  }
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, rotate, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  int total = 0;
  for (int i = 0; i < N; i++) total += successes[i];
  assert(x == total % N && "x moved without a successful CAS");
  return 0;
}
