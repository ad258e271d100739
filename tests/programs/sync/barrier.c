// Each thread writes its own slot, meets the other at a barrier, then
// reads the other's slot: the barrier orders the write before the read
// (SAFE, no race). Without the barrier (-DNO_BARRIER) the read may come
// first.
#include <assert.h>
#include <pthread.h>
pthread_barrier_t meet;
int slot[2];
void *worker(void *a) {
  long me = (long)a;
  slot[me] = 1;
#ifndef NO_BARRIER
  int r = pthread_barrier_wait(&meet);
  assert(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
#endif
  assert(slot[1 - me] == 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&meet, 0, 2);
  pthread_create(&a, 0, worker, (void *)0);
  pthread_create(&b, 0, worker, (void *)1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_barrier_destroy(&meet);
  return 0;
}
