/* main reports what it read and leaves by pthread_exit, so the other
 * threads go on after the report, and t1 always ends the execution by an
 * abort. An execution that a sleep set cuts short after main's report
 * once added main's report alone as an outcome (optimal DPOR, TSO with
 * one buffer entry): every outcome ends with t1's abort. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "tsoify.h"
atomic_int x, y, z;
int reports, r0;
void __VERIFIER_atomic_check(void) {
  if (atomic_load_explicit(&y, memory_order_relaxed) != 1) { reports++; tsoify_outcome("t1 aborts"); abort(); }
  atomic_store_explicit(&y, 1, memory_order_relaxed);
}
void *t0(void *arg) {
  atomic_store_explicit(&y, 2, memory_order_relaxed);
  r0 = atomic_load_explicit(&x, memory_order_relaxed);
  return 0;
}
void *t1(void *arg) {
  atomic_store_explicit(&z, 2, memory_order_relaxed);
  __VERIFIER_atomic_check();
  return 0;
}
void __VERIFIER_atomic_report(void) {
  reports++;
  tsoify_outcome("main y=%d z=%d", atomic_load(&y), atomic_load(&z));
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t0, 0);
  pthread_create(&b, 0, t1, 0);
  __VERIFIER_atomic_report();
  pthread_exit(0);
}
