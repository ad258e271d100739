// A 64-bit value converted to double: not every value converts exactly,
// so the value is pinned at the conversion: 2^64 paths, UNKNOWN at the
// time limit, never SAFE.
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void reach_error(void);

int main(void) {
  unsigned long long i = __VERIFIER_nondet_ulonglong();
  double d = (double)i;
  if (d == 9007199254740993.0) reach_error();
  return 0;
}
