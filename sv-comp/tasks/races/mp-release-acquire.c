/* Message passing with a release store and an acquire load: the consumer
 * reads the plain data only after it saw the flag, so the data accesses
 * are ordered (no data race) and it always sees 42 (under every model:
 * release/acquire is what TSO gives every access, and under PSO a release
 * store is a store-store barrier).
 */
#include <pthread.h>
#include <stdatomic.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "mp-release-acquire.c", 12, "reach_error"); }

int data;
atomic_int flag;

void *producer(void *arg)
{
  data = 42;
  atomic_store_explicit(&flag, 1, memory_order_release);
  return 0;
}

void *consumer(void *arg)
{
  while (!atomic_load_explicit(&flag, memory_order_acquire)) {}
  if (data != 42) reach_error();
  return 0;
}

int main(void)
{
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
