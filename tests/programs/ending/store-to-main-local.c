/* main hands a thread the address of its own local and returns without
 * joining. In C the thread may run before main's return and see the local
 * as main last wrote it. Before 2026-11-29 main's return was taken after
 * main's frame had died (its buffered stores dropped, its memory reused by
 * the runtime), so the thread read garbage: SAFE under every model and
 * reduction, --por none included. */
#include <pthread.h>
#include <stdatomic.h>
void reach_error(void);
void *t1(void *a) {
  atomic_int *x = a;
  if (atomic_load(x) == 1) reach_error();
  return 0;
}
int main(void) {
  atomic_int x = 0;
  pthread_t a;
  pthread_create(&a, 0, t1, &x);
  atomic_store_explicit(&x, 1, memory_order_relaxed);
  return 0;
}
