// A loop over a nondet count that an assume bounds: every count 0..5 is
// explored, none reaches the error: SAFE.
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 5);
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++) s += 3;
  if (s > 15) reach_error();
  return 0;
}
