/* A spin loop with two paths, the way sv-benchmarks' ring_2w1r-2 reads its
 * ring: while nothing is ready the iteration only re-reads `ready` and goes
 * round again (`continue`); once something is, it copies it into a private
 * array indexed by a counter. The array store is a change of local state the
 * runtime does not see, so it spoils the iteration that makes it, but the
 * spinning path makes none and blocks until `ready` changes: without that a
 * consumer scheduled before its producer would spin to the step limit. */
#include <pthread.h>
#include "tsoify.h"
int data[2], ready;
void *consumer(void *p) {
  int got[2] = {0, 0};
  int i = 0;
  while (i < 2) {
    if (ready <= i)
      continue;
    got[i] = data[i];
    i++;
  }
  tsoify_outcome("got=%d,%d", got[0], got[1]);
  return 0;
}
void *producer(void *p) {
  data[0] = 1;
  ready = 1;
  data[1] = 2;
  ready = 2;
  return 0;
}
int main(void) {
  pthread_t c, q;
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&q, 0, producer, 0);
  pthread_join(c, 0);
  pthread_join(q, 0);
  return 0;
}
