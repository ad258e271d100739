/* Store buffering as GenMC's litmus test writes it: two threads, each a
 * release store and an acquire load, created and never joined. Under TSO
 * there are 4 classes of executions; optimal DPOR explored 5, one twice: a
 * thread's load and its end were one step once its own flush had gone
 * first, and the end waits for the flush, so the explored load (asleep)
 * was not taken to cover the sequence that flushes, then loads. */
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;

static void *one(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_release);
  atomic_load_explicit(&y, memory_order_acquire);
  return 0;
}

static void *two(void *arg) {
  atomic_store_explicit(&y, 1, memory_order_release);
  atomic_load_explicit(&x, memory_order_acquire);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, one, 0);
  pthread_create(&b, 0, two, 0);
  return 0;
}
