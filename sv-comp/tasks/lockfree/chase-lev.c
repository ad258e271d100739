/* Chase-Lev work-stealing deque (fixed-size array, no resizing).  The owner
 * pushes and takes at the bottom; a thief steals at the top, with a CAS on
 * top; the owner also uses a CAS on top when it takes the last element.
 * Test: the owner pushes 1 and 2 and takes once; the thief steals twice.
 * Check: no element is obtained twice and none is lost (every pushed value is
 * either obtained exactly once or still in the deque at the end, and no
 * operation returns a value that was never pushed).
 * Correct under SC.  Broken under TSO and PSO: in take() the store
 * bottom = b - 1 can still be buffered when the owner reads top, so the owner
 * takes the element at index b without a CAS while the thief, still seeing
 * the old bottom, steals the same element (store->load reordering).  Under
 * PSO, push() can also make bottom visible before the element itself.
 */
#include <pthread.h>

extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "chase-lev.c", 17, "reach_error"); }

#define SIZE 4
#define EMPTY (-1)
#define ABORT (-2)

volatile int buf[SIZE];
volatile long top, bottom;

void push(int v) /* owner */
{
  long b = bottom;
  buf[b % SIZE] = v;
  bottom = b + 1;
}

int take(void) /* owner */
{
  long b = bottom - 1;
  long t;
  int v;
  bottom = b;
  t = top;
  if (t <= b) {
    v = buf[b % SIZE];
    if (t == b) { /* last element: race with the thieves */
      if (!__atomic_compare_exchange_n(&top, &t, t + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        v = EMPTY;
      bottom = b + 1;
    }
  } else {
    v = EMPTY;
    bottom = b + 1;
  }
  return v;
}

int steal(void) /* thief */
{
  long t = top;
  long b;
  int v;
  b = bottom;
  if (t < b) {
    v = buf[t % SIZE];
    if (!__atomic_compare_exchange_n(&top, &t, t + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return ABORT;
    return v;
  }
  return EMPTY;
}

int got[3]; /* got[v]: how often value v was obtained */
int bad;    /* a value that was never pushed */

void record(int v)
{
  if (v == 1 || v == 2)
    got[v]++;
  else if (v != EMPTY && v != ABORT)
    bad = 1;
}

int r_owner, r_thief1, r_thief2;

void *owner(void *arg)
{
  push(1);
  push(2);
  r_owner = take();
  return 0;
}

void *thief(void *arg)
{
  r_thief1 = steal();
  r_thief2 = steal();
  return 0;
}

int main(void)
{
  pthread_t o, t;
  long i;
  pthread_create(&o, 0, owner, 0);
  pthread_create(&t, 0, thief, 0);
  pthread_join(o, 0);
  pthread_join(t, 0);
  record(r_owner);
  record(r_thief1);
  record(r_thief2);
  for (i = top; i < bottom; i++) /* what is left in the deque */
    record(buf[i % SIZE]);
  if (!(!bad && got[1] == 1 && got[2] == 1)) reach_error();
  return 0;
}
