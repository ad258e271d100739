/* The waiter does not re-check its condition after pthread_cond_wait: a
 * spurious wakeup (POSIX allows them) lets it read x before main set it.
 * Correct only on a library that never wakes a waiter unsignalled. */
#include <pthread.h>
#include <assert.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
int x;
void *waiter(void *arg) {
  pthread_mutex_lock(&lock);
  if (x != 42) {
    pthread_cond_wait(&cond, &lock);
    assert(x == 42);
  }
  pthread_mutex_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  pthread_mutex_lock(&lock);
  x = 42;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&lock);
  pthread_join(t, 0);
  return 0;
}
