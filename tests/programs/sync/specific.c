// Thread-specific data: each thread's value under one key is its own, and
// each non-null value's destructor runs when its thread ends. Threads are
// created with an attribute object (joinable).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
pthread_key_t key;
atomic_int destroyed;
int mine[2];
void done(void *v) { assert(v == &mine[0] || v == &mine[1]); atomic_fetch_add(&destroyed, 1); }
void *worker(void *a) {
  long me = (long)a;
  assert(pthread_getspecific(key) == 0);
  pthread_setspecific(key, &mine[me]);
  sched_yield();
  assert(pthread_getspecific(key) == &mine[me]);
  return 0;
}
int main(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_JOINABLE);
  pthread_key_create(&key, done);
  pthread_t a, b;
  pthread_create(&a, &attr, worker, (void *)0);
  pthread_create(&b, &attr, worker, (void *)1);
  pthread_attr_destroy(&attr);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(destroyed == 2);
  assert(pthread_getspecific(key) == 0);
  return 0;
}
