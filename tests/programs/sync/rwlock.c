// A writer keeps x and y equal under the write lock; two readers check
// them under the read lock (SAFE, no race). -DREAD_UNLOCKED: the second
// reader skips the lock and may see them differ.
#include <assert.h>
#include <pthread.h>
pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int x, y;
void *writer(void *a) {
  pthread_rwlock_wrlock(&lock);
  x = 1;
  y = 1;
  pthread_rwlock_unlock(&lock);
  return 0;
}
void *reader(void *a) {
#ifdef READ_UNLOCKED
  if (a) { int rx = x, ry = y; assert(rx == ry); return 0; }
#endif
  pthread_rwlock_rdlock(&lock);
  assert(x == y);
  pthread_rwlock_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, (void *)1);
  reader(0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
