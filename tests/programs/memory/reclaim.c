/* Premature reclamation, the classic bug of lock-free code: main publishes
 * a heap node, the taker unlinks it and frees it, and the reader, which
 * loaded the pointer before the unlink, reads the node afterwards: a read
 * of freed memory in some interleaving. -DDEFER_FREE leaves the freeing to
 * main after both threads are joined (a grace period): then no access
 * comes after the free. -DWRITE makes the reader write the node instead:
 * under TSO and PSO its store may be issued before the free and reach
 * memory after it. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node { int value; };
static struct node *_Atomic head;
static struct node *taken;

static void *taker(void *arg) {
  struct node *n = atomic_exchange(&head, NULL);
#ifdef DEFER_FREE
  taken = n;
#else
  free(n);
#endif
  return arg;
}

static void *reader(void *arg) {
  struct node *n = atomic_load(&head);
#ifdef WRITE
  if (n)
    n->value = 7;
#else
  if (n)
    assert(n->value == 42);
#endif
  return arg;
}

int main(void) {
  struct node *n = malloc(sizeof *n);
  n->value = 42;
  atomic_store(&head, n);
  pthread_t a, b;
  pthread_create(&a, 0, taker, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  free(taken);
  return 0;
}
