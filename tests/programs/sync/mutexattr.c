// A mutex made with an attribute object (error-checking type) protects a
// counter like any mutex: SAFE. -DRECURSIVE asks for a recursive mutex,
// which is not modelled: the answer is UNKNOWN with that reason.
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m;
int counter;
void *inc(void *a) { pthread_mutex_lock(&m); counter++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
#ifdef RECURSIVE
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
#else
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
#endif
  int type;
  pthread_mutexattr_gettype(&attr, &type);
  pthread_mutex_init(&m, &attr);
  pthread_mutexattr_destroy(&attr);
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
