/* N threads each write the same variable once. The writes conflict
 * pairwise, so there are N! Mazurkiewicz traces (one per order of the
 * writes); main reads the last value after joining them all. */
#include <pthread.h>
#ifndef N
#define N 3
#endif
int x;

static void *writer(void *arg) {
  x = (int)(long)arg;
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, writer, (void *)(i + 1));
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return x == 0;
}
