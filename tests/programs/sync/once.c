// Two threads and main call pthread_once: init runs exactly once, and
// everyone who returns from pthread_once sees what it wrote (no race on
// `config`, a plain variable).
#include <assert.h>
#include <pthread.h>
pthread_once_t once = PTHREAD_ONCE_INIT;
int config, runs;
void init(void) { config = 42; runs++; }
void *user(void *a) { pthread_once(&once, init); assert(config == 42); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, user, 0);
  pthread_create(&b, 0, user, 0);
  pthread_once(&once, init);
  assert(config == 42);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(runs == 1);
  return 0;
}
