// The value takes part in 128-bit arithmetic, which the tracking cannot
// follow nor pin: UNKNOWN with the reason, never SAFE.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  __int128 x = (__int128)__VERIFIER_nondet_int() * 1000000007;
  if ((long long)(x >> 64) == -1 && (int)x == 12345) reach_error();
  return 0;
}
