/* N threads each write the same variable once, and main returns without
 * joining them. Ending the process early only cuts the writers short, so
 * the traces worth exploring are those of the joined program: N! (the
 * cut ones, one per prefix of the writes, once made this grow far faster). */
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
  return 0;
}
