/* An assumption the SV-COMP way (abort when it fails): the error is reached
 * when the other thread's store comes first. */
#include <pthread.h>
#include <stdlib.h>
void reach_error(void);
int flag;
void *checker(void *a) { if (!(flag == 1)) abort(); reach_error(); return 0; }
void *setter(void *a) { flag = 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, checker, 0);
  pthread_create(&b, 0, setter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
