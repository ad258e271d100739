/* Sequence lock: one writer, one reader, with the barriers it needs under PSO
 * (the C11 formulation: release fence after making seq odd, release store
 * to make it even; acquire load of seq and acquire fence before re-reading
 * it in the reader).  The writer updates the two data fields twice (values 1
 * and 2); the reader retries while a write was in progress (seq odd) or seq
 * changed.  Check: the pair the reader returns is never torn.
 * The release fence and release store are store-store barriers under PSO, so
 * seq, the data and seq again become visible in program order; on TSO they
 * cost nothing.  Correct under SC, TSO and PSO.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "seqlock-fenced.c", 14, "reach_error"); }

volatile unsigned seq;
volatile int d1, d2;

void *writer(void *arg)
{
  int v;
  for (v = 1; v <= 2; v++) {
    unsigned s = seq;
    seq = s + 1; /* odd: write in progress */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    d1 = v;
    d2 = v;
    __atomic_store_n(&seq, s + 2, __ATOMIC_RELEASE); /* even: done */
  }
  return 0;
}

void *reader(void *arg)
{
  unsigned s1, s2;
  int r1, r2;
  do {
    s1 = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
    r1 = d1;
    r2 = d2;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    s2 = seq;
  } while ((s1 & 1) || s1 != s2);
  if (!(r1 == r2)) reach_error();
  return 0;
}

int main(void)
{
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
