/* main returns without joining while its threads dequeue from an empty
 * queue, each blocking in an assume when it finds nothing (the shape of
 * GenMC's hw-queue test). In C the process can end at main's return, before
 * any of those assumes, so these executions are complete and the answer is
 * SAFE over them; only the order in which the others run first (our end step
 * waits for them) reached the failed assumes. With -DBUG a thread that does
 * find an item asserts before its assume: VIOLATION. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
extern void __VERIFIER_assume(int);
atomic_int item;
void *take(void *arg) {
  int v = atomic_exchange(&item, 0);
#ifdef BUG
  assert(v == 0);
#endif
  __VERIFIER_assume(v != 0);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, take, 0);
  pthread_create(&b, 0, take, 0);
  atomic_store(&item, 1);
  return 0;
}
