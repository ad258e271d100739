// The value reaches the comparison through a call: its id travels with the
// argument, so the bug at x == 42 is found.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void check(int v) {
  if (v == 42) reach_error();
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  check(x);
  return 0;
}
