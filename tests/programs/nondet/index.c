// The value is used as an array index: every feasible index is a path of
// its own (one branch per bit of it), so the one that reads 7 is found.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int a[4] = {0, 0, 7, 0};

int main(void) {
  unsigned i = __VERIFIER_nondet_uint();
  if (i < 4 && a[i] == 7) reach_error();
  return 0;
}
