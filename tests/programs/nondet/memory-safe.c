// The value goes through memory (a global, read back) before the branch
// that the assume makes infeasible: SAFE, tracked through memory.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int g;

int main(void) {
  g = __VERIFIER_nondet_int();
  __VERIFIER_assume(g >= 0 && g < 1000);
  long z = (long)g + 1;
  if (z > 1000 || z <= 0) reach_error();
  if (g == 999) return 1;
  return 0;
}
