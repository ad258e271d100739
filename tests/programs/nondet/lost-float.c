// The value takes part in floating-point arithmetic (not followed): it
// is pinned there, and the bug at i == 9 is found (before: UNKNOWN).
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned i = __VERIFIER_nondet_uint();
  double d = (double)i / 3.0;
  if (d == 3.0) reach_error();
  return 0;
}
