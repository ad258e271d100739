/* main ends with pthread_exit: the process lives on until the threads end.
 * The reader sees all zeros only when it runs before both writers; optimal
 * DPOR once missed that order (main's waits for the threads were not
 * ordered after their ends, so a wakeup sequence began with main). */
#include <pthread.h>
#include <stdatomic.h>
void reach_error(void);
atomic_int x, y, z;
void *wx(void *a) {
  atomic_store(&x, 1);
  return 0;
}
void *wyz(void *a) {
  atomic_store(&y, 1);
  atomic_store(&z, 1);
  return 0;
}
void *reader(void *a) {
  int a1 = atomic_load(&y), a2 = atomic_load(&z), a3 = atomic_load(&x);
  if (!a1 && !a2 && !a3) reach_error();
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, wx, 0);
  pthread_create(&t2, 0, wyz, 0);
  pthread_create(&t3, 0, reader, 0);
  pthread_exit(0);
}
