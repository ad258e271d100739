// A switch on the value: each case is a branch `v == case` of the search,
// and the default the path where none is taken.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v < LIMIT);
  int r = 0;
  switch (v) {
  case 17: r = 1; break;
  case 123456: r = 2; break;
  case -5: r = 3; break;
  default: r = 4; break;
  }
  if (r == 2) reach_error();
  return 0;
}
