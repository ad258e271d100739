/* Dekker's entry with back-off: an outer loop around an inner spin; the
 * outer iteration that finds turn == i only re-reads, so it waits too. The
 * outcome is the number of threads that were in the critical section
 * together (2 only where stores wait in buffers: TSO, PSO). */
#include <pthread.h>
#include "tsoify.h"
volatile int flag[2], turn, inside, both;
void *thr(void *arg) {
  int i = (int)(long)arg, j = 1 - i;
  flag[i] = 1;
  while (flag[j]) {
    if (turn != i) {
      flag[i] = 0;
      while (turn != i) {}
      flag[i] = 1;
    }
  }
  inside = inside + 1;
  if (inside == 2) both = 1;
  inside = inside - 1;
  turn = j;
  flag[i] = 0;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thr, (void *)0L);
  pthread_create(&b, 0, thr, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("both=%d", both);
  return 0;
}
