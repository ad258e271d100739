// The release-sequence program, but the reader reads `data` when it saw
// 10: the relaxed fetch_add came before the release store and read the
// initial 0, so nothing released reaches the reader. A race on `data`.
#include <pthread.h>
#include <stdatomic.h>
int data;
atomic_int flag;
void *writer(void *a) {
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  atomic_store_explicit(&flag, 2, memory_order_relaxed);
  return 0;
}
void *adder(void *a) { atomic_fetch_add_explicit(&flag, 10, memory_order_relaxed); return 0; }
int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, adder, 0);
  int v = atomic_load_explicit(&flag, memory_order_acquire);
  if (v == 10) { int d = data; (void)d; }
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
