// A thread hands main a pointer to its own thread-local counter; main's
// store through it lands in that thread's copy, which the thread then
// sees, while main's own copy stays 0.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
__thread int counter;
int *_Atomic shared;
atomic_int done;
void *worker(void *a) {
  shared = &counter;
  while (!done) {}
  assert(counter == 5);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  while (!shared) {}
  *shared = 5;
  done = 1;
  pthread_join(t, 0);
  assert(counter == 0);
  return 0;
}
