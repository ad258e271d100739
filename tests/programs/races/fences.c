// Message passing through relaxed atomics made to synchronise by fences: a
// release fence before the flag's store, an acquire fence after its load.
// No race on `data`.
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int flag;
void *writer(void *a) {
  data = 42;
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (atomic_load_explicit(&flag, memory_order_relaxed)) {
    atomic_thread_fence(memory_order_acquire);
    int d = data; (void)d;
  }
  pthread_join(t, 0);
  return 0;
}
