// The value is passed to a library function the pass cannot see into:
// the bug at |x| == 42 cannot be ruled out, so UNKNOWN with the reason.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (labs(x) == 42) reach_error();
  return 0;
}
