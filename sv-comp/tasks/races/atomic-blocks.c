/* SV-COMP atomic functions: every access to the shared counter is inside
 * one, so none races (they count as atomic), and the count is 2.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "atomic-blocks.c", 6, "reach_error"); }

int counter;

void __VERIFIER_atomic_inc(void) { counter = counter + 1; }
int __VERIFIER_atomic_get(void) { return counter; }

void *inc(void *arg)
{
  __VERIFIER_atomic_inc();
  return 0;
}

int main(void)
{
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  int now = __VERIFIER_atomic_get();
  if (now > 2) reach_error();
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (__VERIFIER_atomic_get() != 2) reach_error();
  return 0;
}
