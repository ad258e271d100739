/* Message passing with a flag, with release/acquire: the producer writes two
 * data words and then sets the flag with a release store; the consumer waits
 * with acquire loads of the flag and reads the data.
 * Check: the consumer sees the data the producer wrote before the flag.
 * The release store is a store-store barrier under PSO (and free on TSO).
 * Correct under SC, TSO and PSO.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "mp-flag-fenced.c", 11, "reach_error"); }

volatile int data1, data2;
volatile int flag;

void *producer(void *arg)
{
  data1 = 42;
  data2 = 43;
  __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
  return 0;
}

void *consumer(void *arg)
{
  while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) {}
  if (!(data1 == 42 && data2 == 43)) reach_error();
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
