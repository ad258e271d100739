// The value is passed to a function (not followed yet): the bug at x == 42
// cannot be found, so the answer must stay UNKNOWN with the reason (never SAFE).
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
