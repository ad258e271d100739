// One value out of 2^32 reaches the error: the search over nondet values
// must find x = 123456789 (sampling never would).
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 123456789) reach_error();
  return 0;
}
