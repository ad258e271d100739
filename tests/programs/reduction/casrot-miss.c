/* A ring of four compare-and-swaps on x (thread i moves x from i to
 * i + 1): T0 and T1 succeed while T2 and T3 both fail having read 0, so
 * T2 and T3 must run before T0. Optimal DPOR answered SAFE here while a
 * failed compare-exchange counted as a read for the reduction: the
 * sleeping CAS of T1, a read at the start, stayed asleep through T2's
 * failed one, and no execution put T3 before T0 with T1 after it (found
 * by scripts/bench side by side with GenMC and Nidhugg, issue 18). */
#include <assert.h>
#include <pthread.h>
#define N 4
int x;
int seen[N]; /* -1: the CAS succeeded; else the value it found */

static void *rotate(void *arg) {
  int me = (int)(long)arg, expected = me;
  if (__atomic_compare_exchange_n(&x, &expected, (me + 1) % N, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    seen[me] = -1;
  else
    seen[me] = expected;
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, rotate, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  assert(!(seen[1] == -1 && seen[2] == 0 && seen[3] == 0));
  return 0;
}
