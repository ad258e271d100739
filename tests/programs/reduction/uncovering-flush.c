/* Unsafe even under SC, and optimal DPOR answered SAFE under TSO and PSO
 * with unbounded buffers, the default search (issue 18, session 29; found
 * by fuzz.py while hunting the cause of hidden-writes-bounded.c).
 *
 * The outcome: x's writes reach memory in the order b, c, a; b reads c's 2
 * and c reads a's 1. Both readers re-read x over their own buffered store.
 * Under the hidden-writes rule (removed since) other threads' writes were
 * hidden from such a read while that store waited, so a sleeping read
 * stayed asleep through them; it also stayed asleep through its own
 * store's flush (the two commute), after which those writes are no longer
 * hidden: c slept through its own flush and a's, the sequence that lets b
 * read first was taken as covered by c's sleep, and b's by c's in turn. */
#include <assert.h>
#include <pthread.h>
int x, rb, rc;
void *a(void *arg) { x = 1; return 0; }
void *b(void *arg) { x = 1; rb = x; return 0; }
void *c(void *arg) { x = 2; rc = x; return 0; }
int main(void) {
  pthread_t t[3];
  pthread_create(&t[0], 0, a, 0);
  pthread_create(&t[1], 0, b, 0);
  pthread_create(&t[2], 0, c, 0);
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  assert(!(rb == 2 && rc == 1));
  return 0;
}
