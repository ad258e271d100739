// The same message passing with relaxed atomics: the flag synchronises
// nothing, so the plain accesses to `data` race (the flag does not).
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int flag;
void *writer(void *a) { data = 42; atomic_store_explicit(&flag, 1, memory_order_relaxed); return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (atomic_load_explicit(&flag, memory_order_relaxed)) { int d = data; (void)d; }
  pthread_join(t, 0);
  return 0;
}
