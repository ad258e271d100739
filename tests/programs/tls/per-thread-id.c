// Each thread sets its own copy of a thread-local id and reads it back
// after the other threads ran: a shared variable would be overwritten,
// a thread-local one is not. main's copy keeps its initialiser.
#include <assert.h>
#include <pthread.h>
_Thread_local int tid = 7;
void *worker(void *a) {
  tid = (int)(long)a;
  sched_yield();
  assert(tid == (int)(long)a);
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, (void *)(i + 1));
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  assert(tid == 7);
  return 0;
}
