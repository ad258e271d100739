/* lastzero (after the classic DPOR benchmark): thread 0 scans an array
 * from the end for the last zero while N writers each set one element from
 * the one before it. Every writer races with the scanner. */
#include <pthread.h>
#ifndef N
#define N 3
#endif
int array[N + 1];

static void *scanner(void *arg) {
  int i;
  for (i = N; array[i] != 0; i--) {}
  return (void *)(long)i;
}

static void *writer(void *arg) {
  int j = (int)(long)arg;
  array[j] = array[j - 1] + 1;
  return 0;
}

int main(void) {
  pthread_t t[N + 1];
  pthread_create(&t[0], 0, scanner, 0);
  for (long j = 1; j <= N; j++) pthread_create(&t[j], 0, writer, (void *)j);
  for (int j = 0; j <= N; j++) pthread_join(t[j], 0);
  return 0;
}
