// SV-COMP's helpers: the assume and the assert are functions, and so is
// the arithmetic; every value goes through calls and returns. Safe for
// every n (TRUE under --svcomp, where abort ends an execution quietly).
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) {}
void assume_abort_if_not(int cond) {
  if (!cond) abort();
}
void __VERIFIER_assert(int cond) {
  if (!cond) {
    reach_error();
    abort();
  }
}
int twice(int v) { return v * 2; }

int main(void) {
  int n = __VERIFIER_nondet_uint();
  assume_abort_if_not(n >= 5 && n <= 10);
  int t = twice(n);
  __VERIFIER_assert(t >= 10 && t <= 20);
  __VERIFIER_assert(t != 16 || n == 8);
  return 0;
}
