/* The waiter re-checks its condition in a loop: correct with or without
 * spurious wakeups, and the loop ends although a wakeup may come unsignalled. */
#include <pthread.h>
#include <assert.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
int x, ready;
void *waiter(void *arg) {
  pthread_mutex_lock(&lock);
  while (!ready) pthread_cond_wait(&cond, &lock);
  assert(x == 42);
  pthread_mutex_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  pthread_mutex_lock(&lock);
  x = 42;
  ready = 1;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&lock);
  pthread_join(t, 0);
  return 0;
}
