/* deadlock.c - two threads take two mutexes in opposite orders: one
 * interleaving blocks both forever (VIOLATION deadlock). */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;

static void *other(void *arg) {
  pthread_mutex_lock(&b);
  pthread_mutex_lock(&a);
  pthread_mutex_unlock(&a);
  pthread_mutex_unlock(&b);
  return 0;
}

int main(void) {
  pthread_t h;
  pthread_create(&h, 0, other, 0);
  pthread_mutex_lock(&a);
  pthread_mutex_lock(&b);
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  pthread_join(h, 0);
  return 0;
}
