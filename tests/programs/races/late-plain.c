/* The race needs T3's flag first: in the first executions the scheduler
 * runs T1 and T2 before T3, they read 0 and make no plain access at all
 * (the race check skips such executions), and only a later execution
 * reaches the two plain writes of x, unordered. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
int x;

static void *writer(void *arg) {
  if (atomic_load_explicit(&flag, memory_order_relaxed))
    x = (int)(long)arg;
  return 0;
}

static void *setter(void *arg) {
  atomic_store_explicit(&flag, 1, memory_order_relaxed);
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, writer, (void *)1);
  pthread_create(&b, 0, writer, (void *)2);
  pthread_create(&c, 0, setter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
