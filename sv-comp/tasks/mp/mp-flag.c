/* Message passing with a flag: the producer writes two data words and then
 * sets a flag; the consumer waits for the flag and reads the data.
 * Check: the consumer sees the data the producer wrote before the flag.
 * Correct under SC and TSO (FIFO store buffer: the data reaches memory
 * before the flag; loads are not reordered).  Broken under PSO: the flag is a
 * different address and its store can become visible before the data.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "mp-flag.c", 11, "reach_error"); }

volatile int data1, data2;
volatile int flag;

void *producer(void *arg)
{
  data1 = 42;
  data2 = 43;
  flag = 1;
  return 0;
}

void *consumer(void *arg)
{
  while (!flag) {}
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
