/* Two threads increment a counter under a mutex; main reads it after
 * joining both. No data race, and the count is 2.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "counter-mutex.c", 6, "reach_error"); }

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *inc(void *arg)
{
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (counter != 2) reach_error();
  return 0;
}
