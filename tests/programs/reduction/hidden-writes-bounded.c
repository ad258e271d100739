/* TSO with one buffer entry (was a wrong SAFE for --por optimal, issue 18,
 * found on the relaxed Nidhugg corpus in session 28). The outcome needs
 * x's writes in memory in the order c, b, d, a; b's x=2 waits for room
 * until its y=1 has left, and a reads y before that. b's re-read of x is
 * a load its own buffered x=2 covers. The hidden-writes rule (removed in
 * session 29) let that load sleep through other threads' writes to x and
 * then through its own flush, after which it would have seen them: optimal
 * DPOR at buffer size 1 never reached the outcome. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
int r0, r1, r2, r3;
void *a(void *arg) {
  atomic_store_explicit(&x, 4, memory_order_relaxed);
  r0 = atomic_load_explicit(&y, memory_order_relaxed);
  return 0;
}
void *b(void *arg) {
  atomic_store_explicit(&y, 1, memory_order_relaxed);
  r1 = atomic_load_explicit(&x, memory_order_relaxed);
  atomic_store_explicit(&x, 2, memory_order_relaxed);
  r2 = atomic_load_explicit(&x, memory_order_relaxed);
  return 0;
}
void *c(void *arg) {
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  r3 = atomic_load_explicit(&x, memory_order_relaxed);
  return 0;
}
void *d(void *arg) {
  atomic_store_explicit(&x, 3, memory_order_relaxed);
  return 0;
}
int main(void) {
  pthread_t t[4];
  void *(*body[4])(void *) = {a, b, c, d};
  for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, body[i], 0);
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  assert(!(atomic_load_explicit(&x, memory_order_relaxed) == 4 && r0 == 0 && r1 == 0 && r2 == 3 && r3 == 2));
  return 0;
}
