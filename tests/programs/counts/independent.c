/* N threads each write their own variable once: no two steps conflict, so
 * every interleaving is equivalent: exactly one trace. */
#include <pthread.h>
#ifndef N
#define N 3
#endif
int x[N];

static void *writer(void *arg) {
  long i = (long)arg;
  x[i] = 1;
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, writer, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return 0;
}
