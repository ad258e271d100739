// One thread buffers stores to 1,000 addresses before it sets a flag.
// Under PSO each (thread, address) buffer is a flush process of its own,
// and process ids were 16 bits: past 512 addresses a thread stopped with
// "buffered more than 512 addresses under PSO" (SV-COMP queue_ok_longer and
// queue_ok_longest, UNKNOWN). Under PSO the flag can reach memory before
// the last element; under TSO it cannot.
#include <assert.h>
#include <pthread.h>

#define N 1000
int a[N];
int flag;

void *writer(void *arg) {
  for (int i = 0; i < N; i++) a[i] = i + 1;
  flag = 1;
  return 0;
}

void *reader(void *arg) {
  if (flag) assert(a[N - 1] == N);
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
