/* tsoify verify: source-DPOR misses the race of a read whose __VERIFIER_assume
 * fails.  T2 is created first and runs first: it reads x == 0, the assume
 * fails, the execution is discarded, and the schedule in which T1's store
 * x = 1 comes first is never tried.  Expected VIOLATION under every model. */
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "assume-reach.c", 7, "reach_error"); }
extern void __VERIFIER_assume(int);
volatile int x;
void *t1(void *arg) { x = 1; return 0; }
void *t2(void *arg) { __VERIFIER_assume(x == 1); reach_error(); return 0; }
int main(void)
{
  pthread_t a, b;
  pthread_create(&b, 0, t2, 0);
  pthread_create(&a, 0, t1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
