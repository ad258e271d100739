/* One reader and N writers of one variable. The reader sees one of N+1
 * values (the initial one or one writer's): N+1 reads-from classes. Under
 * Mazurkiewicz equivalence the writes' order matters too (they conflict),
 * so there are (N+1)! traces: N! orders of the writes times N+1 places of
 * the read among them. The reader reports what it saw as the outcome. */
#include <pthread.h>
#include "tsoify.h"
#ifndef N
#define N 2
#endif
int x, seen;

static void *writer(void *arg) {
  x = (int)(long)arg;
  return 0;
}

static void *reader(void *arg) {
  (void)arg;
  seen = x;
  return 0;
}

int main(void) {
  pthread_t t[N + 1];
  pthread_create(&t[N], 0, reader, 0);
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, writer, (void *)(i + 1));
  for (int i = 0; i <= N; i++) pthread_join(t[i], 0);
  tsoify_outcome("seen=%d", seen);
  return 0;
}
