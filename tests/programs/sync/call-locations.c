/* call-locations.c - each sync call's trace step names its own line.
 * Threads switch inside sync calls (at their scheduling points); a call's
 * events once carried the line of the last call another thread made
 * meanwhile (the unlock at line 14 shown at line 12, main's join at
 * line 21 shown at line 12).
 * The assertion fails (x is 2), so verify prints the trace. */
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *a) {
  pthread_mutex_lock(&m);
  x++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 3);
  return 0;
}
