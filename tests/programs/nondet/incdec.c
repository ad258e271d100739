// SV-COMP pthread-ext/04_incdec_cas, cut down: N threads each pick
// increment or decrement by a nondet value. Optimal DPOR followed a wakeup
// branch made under another branch with that branch's execution's values,
// which took another side of a branch in the prefix already replayed with
// the current values: "replay diverged", part of the search skipped, and
// UNKNOWN where SAFE is the answer (first after 4,502 executions, N = 4).
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
volatile unsigned value, f1, f2;
void __VERIFIER_atomic_inc(unsigned *old) { *old = value; f1 = 1; value = *old + 1; }
void __VERIFIER_atomic_dec(unsigned *old) { *old = value; f2 = 1; value = *old - 1; }
void __VERIFIER_atomic_assert1(unsigned v) { if (!(f2 || value > v)) reach_error(); }
void __VERIFIER_atomic_assert2(unsigned v) { if (!(f1 || value < v)) reach_error(); }
void *thr(void *arg) {
  (void)arg;
  int r = __VERIFIER_nondet_int();
  unsigned v;
  if (r) {
    if (value == 0u - 1) return 0;
    __VERIFIER_atomic_inc(&v);
    __VERIFIER_atomic_assert1(v);
  } else {
    if (value == 0) return 0;
    __VERIFIER_atomic_dec(&v);
    __VERIFIER_atomic_assert2(v);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  for (int i = 0; i < N; i++) pthread_create(&t, 0, thr, 0);
  return 0;
}
