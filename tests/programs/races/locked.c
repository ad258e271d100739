// Every access to `counter` holds the mutex: no race.
#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *a) { pthread_mutex_lock(&m); counter++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_mutex_lock(&m); int c = counter; pthread_mutex_unlock(&m); (void)c;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return counter == 2 ? 0 : 1;
}
