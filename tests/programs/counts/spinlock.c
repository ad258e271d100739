/* N threads take a test-and-test-and-set spinlock in turn; inside it each
 * writes down its turn. A waiting thread spins on a load, which the
 * runtime parks as an await until the lock is released, so a wakeup
 * sequence may begin with a thread that cannot run where it would start
 * (it waits for the very release it was to go before). The outcome is the
 * order in which the threads got the lock: N! of them. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include "tsoify.h"
#ifndef N
#define N 3
#endif
atomic_int lock;
int turns, turn[N];

static void *worker(void *arg) {
  for (;;) {
    while (atomic_load_explicit(&lock, memory_order_relaxed)) {
    }
    if (!atomic_exchange(&lock, 1)) break;
  }
  turn[(long)arg] = turns++;
  atomic_store(&lock, 0);
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  assert(turns == N);
  int order = 0;
  for (int i = 0; i < N; i++) order = order * 10 + turn[i];
  tsoify_outcome("turns=%03d", order);
  return 0;
}
