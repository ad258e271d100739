// Order comparisons of converted values against numbers that are not
// whole: x < 2.5 is x <= 2, x > 1.5 is x >= 2, so only x == 2 reaches
// the error; a short converted to float is exact too.
extern int __VERIFIER_nondet_int(void);
extern short __VERIFIER_nondet_short(void);
extern void reach_error(void);

int main(void) {
  double d = __VERIFIER_nondet_int();
  float f = __VERIFIER_nondet_short();
  if (d < 2.5 && d > 1.5 && f <= -32767.5f) reach_error();
  return 0;
}
