// C11 release sequences: the writer's release store of 1 heads a sequence
// that its own later relaxed store of 2 and the other thread's relaxed
// fetch_add continue, so an acquire load that reads 2, 11 or 12 still
// synchronises with the release store, and the read of `data` is ordered
// after its write. (10, the fetch_add before the release store, would not
// be: the reader does not read data then.) No race.
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
  if (v == 2 || v == 11 || v == 12) { int d = data; (void)d; }
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
