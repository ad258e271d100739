// A loop over a nondet count: each count is a path of its own, found by
// flipping the loop test; the error needs exactly 10 iterations.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++) s += 3;
  if (s == 30) reach_error();
  return 0;
}
