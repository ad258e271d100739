/* Loops that retry until a nondet choice lets them out (SV-COMP
 * pthread-atomic/qrcu: `while (1) { idx_read = idx; if (nondet()) break; }`):
 * an iteration that read and drew a value that keeps it in is a failing
 * iteration like a spin's, so it stops its thread; the draws that let it
 * out are explored beside it. One thread draws a _Bool (an enumerated
 * choice), the other a wide int (a branch the solver flips). Under PSO
 * the data store may still be buffered when the flag is read (a = 1, b = 0). */
#include <pthread.h>
#include "tsoify.h"
extern _Bool __VERIFIER_nondet_bool(void);
extern int __VERIFIER_nondet_int(void);
int data, flag, a0, a1, b0, b1;
void *producer(void *arg) { data = 1; flag = 1; return 0; }
void *retry_bool(void *arg) {
  int f;
  while (1) {
    f = flag;
    if (__VERIFIER_nondet_bool()) break;
  }
  a0 = f;
  a1 = data;
  return 0;
}
void *retry_int(void *arg) {
  int f;
  while (1) {
    f = flag;
    if (__VERIFIER_nondet_int() == 7) break;
  }
  b0 = f;
  b1 = data;
  return 0;
}
int main(void) {
  pthread_t p, c, d;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, retry_bool, 0);
  pthread_create(&d, 0, retry_int, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  pthread_join(d, 0);
  tsoify_outcome("a=%d%d b=%d%d", a0, a1, b0, b1);
  return 0;
}
