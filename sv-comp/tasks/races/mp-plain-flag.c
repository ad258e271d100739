/* Message passing through a plain flag: the consumer's reads of the flag
 * and of the data race with the producer's writes (nothing orders them),
 * whatever the hardware does. The data still arrives under SC and TSO, not
 * under PSO (the flag's store may overtake the data's).
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "mp-plain-flag.c", 9, "reach_error"); }

int data;
volatile int flag;

void *producer(void *arg)
{
  data = 42;
  flag = 1;
  return 0;
}

void *consumer(void *arg)
{
  while (!flag) {}
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
