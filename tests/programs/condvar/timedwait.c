/* A timed wait may end without a signal (its time is up): the waiter that
 * ignores the result reads x too early. */
#include <pthread.h>
#include <assert.h>
#include <time.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
int x, ready;
void *waiter(void *arg) {
  struct timespec ts = {0, 0};
  pthread_mutex_lock(&lock);
  if (!ready) pthread_cond_timedwait(&cond, &lock, &ts);
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
