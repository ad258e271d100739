/* Shape of sv-benchmarks pthread-lit/qw2004-2: when main ends, the other
 * thread waits for its own store buffer to drain before its atomic block;
 * that flush must be tried before main's end too (source DPOR explored one
 * execution under TSO and PSO and answered TRUE). */
#include <pthread.h>
void reach_error(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
volatile int stoppingFlag, pendingIo, stoppingEvent, stopped;
int dec(void) {
  __VERIFIER_atomic_begin();
  pendingIo--;
  int tmp = pendingIo;
  __VERIFIER_atomic_end();
  return tmp;
}
void *stop(void *arg) {
  stoppingFlag = 1;
  if (dec() == 0) stoppingEvent = 1;
  __VERIFIER_assume(stoppingEvent);
  stopped = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pendingIo = 1;
  pthread_create(&t, 0, stop, 0);
  if (!stoppingFlag) {
    pendingIo = pendingIo + 1;
    if (stopped) reach_error();
  }
  if (dec() == 0) stoppingEvent = 1;
  return 0;
}
