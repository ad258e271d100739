// Arithmetic before the comparison, an assert as the property:
// x * 3 + 7 == 1000000009 needs x = 333333334.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned y = (unsigned)x * 3u + 7u;
  assert(y != 1000000009u);
  return 0;
}
