/* Unsafe even under SC; optimal DPOR answered SAFE under TSO and PSO with
 * unbounded buffers while the hidden-writes rule was in (found by fuzz.py
 * --corpus --threads 3,4, seed 79, in session 29, after the fix for
 * uncovering-flush.c).
 *
 * c re-reads x over its own buffered x=2. Under the rule, c's read slept
 * through b's flush of x=1 (hidden from it while c's store waits), so the
 * wakeup sequence that starts with that flush was a leaf that also stood
 * for the sequences in which c reads later (after its own flush, seeing
 * a's x=1); below that leaf, the reversal that lets a read b's 1 was left
 * to c's sleeping read, whose own branch had left it to the leaf. The rule
 * is gone: the two deferred to each other. */
#include <assert.h>
#include <pthread.h>
int x, ra, rb, rc;
void *a(void *arg) { ra = x; x = 1; return 0; }
void *b(void *arg) { x = 1; rb = x; return 0; }
void *c(void *arg) { x = 2; rc = x; return 0; }
int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, a, 0);
  pthread_create(&t[1], 0, b, 0);
  pthread_create(&t[2], 0, c, 0);
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  assert(!(ra == 1 && rb == 2 && rc == 1));
  return 0;
}
