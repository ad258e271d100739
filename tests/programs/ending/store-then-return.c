/* main's last store can be seen by a thread it created just before: the
 * thread may run between the store and main's return (issue 18). */
#include <pthread.h>
#include <stdatomic.h>
void reach_error(void);
atomic_int y;
void *t1(void *a) {
  if (atomic_load(&y) == 1) reach_error();
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  atomic_store(&y, 1);
  return 0;
}
