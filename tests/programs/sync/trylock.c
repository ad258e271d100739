// A trylock that fails while the other thread holds the mutex, and
// succeeds before or after it: the reduction must try the unlock before
// the failed trylock (a failed try races with the release it did not see).
// The assertion fails only when the trylock comes after the whole
// critical section.
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, got, seen;
void *holder(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
void *trier(void *a) {
  if (pthread_mutex_trylock(&m) == 0) { got = 1; seen = x; pthread_mutex_unlock(&m); }
  return 0;
}
int main(void) {
  pthread_t h, t;
  pthread_create(&t, 0, trier, 0);
  pthread_create(&h, 0, holder, 0);
  pthread_join(h, 0);
  pthread_join(t, 0);
  assert(!(got && seen == 1));
  return 0;
}
