// A race that needs one value out of 2^32, compared as a double: the
// reader sees the error only when it reads the main thread's store and
// the value stored was -987654321 (converted exactly, so the comparison
// of the doubles is one of the integers).
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

double g = 0.5;

void *reader(void *arg) {
  (void)arg;
  double v = g;
  if (v == -987654321.0) reach_error();
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  g = __VERIFIER_nondet_int();
  pthread_join(t, 0);
  return 0;
}
