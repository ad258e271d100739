// A race that needs one value out of 2^32: the reader sees the error only
// when it reads the main thread's store and that store wrote 987654321.
#include <pthread.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

unsigned g;

void *reader(void *arg) {
  (void)arg;
  unsigned v = g;
  if (v == 987654321u) reach_error();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  g = __VERIFIER_nondet_uint();
  pthread_join(t, 0);
  return 0;
}
