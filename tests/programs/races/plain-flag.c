// A plain flag: the reader's load of `data` races with the writer's store
// (nothing orders them), and so do the two accesses to `flag`.
#include <pthread.h>
int data, flag;
void *writer(void *a) { data = 42; flag = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (flag) { int d = data; (void)d; }
  pthread_join(t, 0);
  return 0;
}
