/* message-passing.c - publish data, then raise a flag; the reader waits for
 * the flag and reads the data.
 *
 * On x86 (TSO) stores leave the store buffer in program order, so a reader
 * that sees the flag also sees the data. Under PSO the two stores go to
 * different addresses and may reach memory in either order: the reader can
 * see the flag and stale data. A release store of the flag (a store-store
 * barrier under PSO) restores the order.
 *
 *   verify --model tso examples/message-passing.c           -> SAFE
 *   verify --model pso examples/message-passing.c           -> VIOLATION
 *   verify --model pso -DRELEASE examples/message-passing.c -> SAFE
 */
#include <assert.h>
#include <pthread.h>

int data;
int ready;

static void *producer(void *arg) {
  data = 42;
#ifdef RELEASE
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
#else
  ready = 1;
#endif
  return 0;
}

static void *consumer(void *arg) {
  /* a reader that sees the flag must see the data it publishes */
  if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) == 1)
    assert(data == 42 && "flag seen before the data it publishes");
  return 0;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
