// The thread's write is before its end, the join after it: main's read
// is ordered after the write. No race (and no race with the creation's
// earlier write either).
#include <pthread.h>
int x;
void *t1(void *a) { x = x + 1; return 0; }
int main(void) {
  pthread_t t;
  x = 1;
  pthread_create(&t, 0, t1, 0);
  pthread_join(t, 0);
  return x == 2 ? 0 : 1;
}
