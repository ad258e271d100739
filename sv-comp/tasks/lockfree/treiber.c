/* Treiber's lock-free stack: push and pop retry a CAS on top.  Nodes come
 * from a static pool and are never reused (so there is no ABA problem).
 * Test: two threads each push one node and then pop one.
 * Check: every pop returns a node (the stack cannot be empty then) with the
 * value its pusher wrote, the two pops return different nodes, and the stack
 * is empty at the end.
 * Plain loads and stores, relaxed CAS.  Correct under SC, TSO and PSO as
 * modelled here: the CAS is a locked instruction, which drains the store
 * buffer(s) first, so a node's fields are in memory before the node is
 * published, and loads are not reordered with each other.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "treiber.c", 15, "reach_error"); }

struct node {
  int val;
  struct node *next;
};

struct node pool[2];
struct node *volatile top;

void push(struct node *n)
{
  struct node *old;
  do {
    old = top;
    n->next = old;
  } while (!__atomic_compare_exchange_n(&top, &old, n, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

struct node *pop(void)
{
  struct node *old, *next;
  do {
    old = top;
    if (old == 0)
      return 0;
    next = old->next;
  } while (!__atomic_compare_exchange_n(&top, &old, next, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return old;
}

struct node *popped[2];
int val[2];

void *thr(void *arg)
{
  int i = (int)(long)arg;
  struct node *n = &pool[i];
  n->val = 10 + i;
  push(n);
  popped[i] = pop();
  if (popped[i] != 0)
    val[i] = popped[i]->val;
  return 0;
}

int main(void)
{
  pthread_t t0, t1;
  pthread_create(&t0, 0, thr, (void *)0L);
  pthread_create(&t1, 0, thr, (void *)1L);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  if (!(popped[0] != 0 && popped[1] != 0 && popped[0] != popped[1])) reach_error();
  if (!(val[0] == popped[0]->val && val[1] == popped[1]->val)) reach_error();
  if (!((val[0] == 10 || val[0] == 11) && (val[1] == 10 || val[1] == 11))) reach_error();
  if (!(top == 0)) reach_error();
  return 0;
}
