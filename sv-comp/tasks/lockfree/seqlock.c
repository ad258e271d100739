/* Sequence lock: one writer, one reader.  The writer makes seq odd, updates
 * the two data fields, and makes seq even again (twice, with values 1 and 2).
 * The reader reads seq, both fields and seq again, and retries while a write
 * was in progress (seq odd) or seq changed.  Check: the pair the reader
 * returns is never torn (both fields equal).
 * Correct under SC and TSO (stores reach memory in program order and loads
 * are not reordered).  Broken under PSO: the stores to seq, d1 and d2 go to
 * different addresses and can become visible out of order, e.g. d1 = 1 before
 * seq = 1, so the reader sees an even, unchanged seq around a torn pair.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "seqlock.c", 14, "reach_error"); }

volatile unsigned seq;
volatile int d1, d2;

void *writer(void *arg)
{
  int v;
  for (v = 1; v <= 2; v++) {
    unsigned s = seq;
    seq = s + 1; /* odd: write in progress */
    d1 = v;
    d2 = v;
    seq = s + 2; /* even: done */
  }
  return 0;
}

void *reader(void *arg)
{
  unsigned s1, s2;
  int r1, r2;
  do {
    s1 = seq;
    r1 = d1;
    r2 = d2;
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
