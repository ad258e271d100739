/* A 32-bit task's pthread_mutex_t is 24 bytes; initialising it must not
 * write past them into the data that follows. */
#include <assert.h>
typedef union { char size[24]; long align; } mutex24_t;
int pthread_mutex_init(mutex24_t *, const void *);
int pthread_mutex_lock(mutex24_t *);
int pthread_mutex_unlock(mutex24_t *);
struct { mutex24_t m; int after[6]; } s = { .after = { 1, 2, 3, 4, 5, 6 } };
int main(void) {
  pthread_mutex_init(&s.m, 0);
  pthread_mutex_lock(&s.m);
  pthread_mutex_unlock(&s.m);
  for (int k = 0; k < 6; k++) assert(s.after[k] == k + 1);
  return 0;
}
