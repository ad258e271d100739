// The value is used as an array index (an address, not followed yet):
// UNKNOWN, never SAFE.
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int a[4] = {0, 0, 7, 0};

int main(void) {
  unsigned i = __VERIFIER_nondet_uint();
  if (i < 4 && a[i] == 7) reach_error();
  return 0;
}
