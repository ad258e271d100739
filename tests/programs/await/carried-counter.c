/* A spin loop whose local changes every iteration (a counter modulo 3) is
 * not an await loop: no iteration repeats the one before, so it must never
 * block. The outcome shows how many iterations ran before the flag was
 * seen: with --unroll 4 every residue is reachable. */
#include <pthread.h>
#include "tsoify.h"
int flag, count;
void *spinner(void *p) {
  int n = 0;
  while (flag == 0) n = (n + 1) % 3;
  count = n;
  return 0;
}
void *setter(void *p) { flag = 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, spinner, 0);
  pthread_create(&b, 0, setter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("count=%d", count);
  return 0;
}
