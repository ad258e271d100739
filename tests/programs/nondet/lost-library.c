// The value is passed to a library function the pass cannot see into:
// it is pinned there (each feasible value a path of its own), so the bug
// at |x| == 42 is found, 43 executions in (before: UNKNOWN).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (labs(x) == 42) reach_error();
  return 0;
}
