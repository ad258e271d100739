/* The idiom of Peterson's lock with store buffering (the example of
 * chronological traces, Abdulla et al.): each thread writes its flag,
 * writes the shared turn z and reads z back, then reads the other's flag.
 * Which turn write a thread's read of z sees, and which one memory keeps,
 * are the classes; a turn write that reaches memory before the reader's
 * own turn write is hidden from that read.
 * The reductions must reach exactly the outcomes exhaustive search
 * reaches. */
#include <pthread.h>
#include "tsoify.h"
int x, y, z;
int r1, s1, r2, s2;

static void *p(void *arg) {
  (void)arg;
  x = 1;
  z = 1;
  r1 = z;
  s1 = y;
  return 0;
}

static void *q(void *arg) {
  (void)arg;
  y = 1;
  z = 0;
  r2 = z;
  s2 = x;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p, 0);
  pthread_create(&b, 0, q, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("r1=%d s1=%d r2=%d s2=%d z=%d", r1, s1, r2, s2, z);
  return 0;
}
