/* indexer (after the classic DPOR benchmark): N threads insert into a
 * hash table with compare-and-swap; threads whose keys do not collide are
 * independent, so a good reduction explores few interleavings. */
#include <pthread.h>
#ifndef N
#define N 3
#endif
#define SIZE 32
int table[SIZE];

static void *worker(void *arg) {
  int tid = (int)(long)arg;
  for (int i = 0; i < 2; i++) {
    int w = (tid * 11 + i * 7) % SIZE; /* the key decides the slot */
    int expected = 0;
    while (!__atomic_compare_exchange_n(&table[w], &expected, tid + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
      w = (w + 1) % SIZE;
      expected = 0;
    }
  }
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return 0;
}
