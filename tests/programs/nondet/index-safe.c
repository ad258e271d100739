// Every index the bound allows is read and none holds 9: SAFE, not
// UNKNOWN, since every value of the index was taken.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int a[4] = {0, 0, 7, 0};

int main(void) {
  unsigned i = __VERIFIER_nondet_uint();
  if (i < 4 && a[i] == 9) reach_error();
  return 0;
}
