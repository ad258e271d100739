/* exit() right after a thread is created: the thread may run first. */
#include <pthread.h>
#include <stdlib.h>
void reach_error(void);
void *t1(void *a) {
  reach_error();
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  exit(0);
}
