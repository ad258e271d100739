// Message passing with a release store and an acquire load: the reader
// reads `data` only after it saw the flag, so the plain accesses to
// `data` are ordered. No race.
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int flag;
void *writer(void *a) { data = 42; atomic_store_explicit(&flag, 1, memory_order_release); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (atomic_load_explicit(&flag, memory_order_acquire)) { int d = data; (void)d; }
  pthread_join(t, 0);
  return 0;
}
