/* An iteration that only changes private memory is not a no-op: it writes
 * a private array (through an index the compiler cannot resolve, so the
 * array stays in memory) and changes no carried value, and the next
 * iteration, reading the same shared value, leaves the loop because of what
 * it wrote. Blocking the first iteration as a no-op (its shared read is
 * unchanged) would wait for `flag` forever; the pass's spoil call before the
 * array store prevents that, and every execution ends with left=1. */
#include <pthread.h>
#include "tsoify.h"
int flag, left;
void *looper(void *p) {
  int seen[2] = {0, 0};
  for (;;) {
    int k = flag;
    if (seen[k])
      break;
    seen[k] = 1;
  }
  left = 1;
  return 0;
}
void *setter(void *p) {
  flag = 1;
  return 0;
}
int main(void) {
  pthread_t l, s;
  pthread_create(&l, 0, looper, 0);
  pthread_create(&s, 0, setter, 0);
  pthread_join(l, 0);
  pthread_join(s, 0);
  tsoify_outcome("left=%d", left);
  return 0;
}
