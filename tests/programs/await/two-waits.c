/* A spin on two locations that change in turn, and a writer that changes
 * one back: the waiter wakes on each change; what it sees depends on when. */
#include <pthread.h>
#include "tsoify.h"
int x, y, seen_x, seen_y;
void *writer(void *a) { x = 1; x = 0; y = 2; return 0; }
void *waiter(void *a) {
  while (x == 0 && y == 0) {}
  seen_x = x;
  seen_y = y;
  return 0;
}
int main(void) {
  pthread_t w, v;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&v, 0, waiter, 0);
  pthread_join(w, 0);
  pthread_join(v, 0);
  tsoify_outcome("x=%d y=%d", seen_x, seen_y);
  return 0;
}
