/* main reads what a thread writes without joining it: the violation needs
 * the thread to run before main returns. */
#include <pthread.h>
void reach_error(void);
int i = 1;
void *writer(void *a) { i = 2; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  if (i == 2) reach_error();
  return 0;
}
