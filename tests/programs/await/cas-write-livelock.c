/* main alone moves x from 0 to 5 with a compare-exchange, then exchanges
 * 5 for 5 forever. Its first iteration writes a new value, so it is no
 * step that could be deleted: stopping main there would end the execution
 * with main's view of x changed (by main itself) and discard it, leaving
 * SAFE over no execution. The loop in fact spins forever: a livelock. */
#include <stdatomic.h>
atomic_int x;
int main(void) {
  int r = 0;
  for (;;) {
    if (!atomic_compare_exchange_strong(&x, &r, 5)) continue;
  }
}
