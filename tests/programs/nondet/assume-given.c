// The reader's assume is on a value the writer took and published, so its
// failing side is not the reader's business alone: with j == -1 the reader
// stops at its assume, and the writer, which only waits for `ready`, calls
// reach_error. The search must take that side although the assume passed
// when it first ran (the writer's branch comes after it, with the path
// condition v >= 0). An assume on a value its thread took itself and never
// stored is another matter: its failing side only stops that thread
// (runtime/src/sym.c __tsoify_sym_assume); skipping the failing side here
// too answered SAFE under SC and TSO.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int g, published, ready;

void *reader(void *arg) {
  (void)arg;
  while (!published) {}
  int v = g;
  ready = 1;
  __VERIFIER_assume(v >= 0);
  return 0;
}

void *writer(void *arg) {
  (void)arg;
  int j = __VERIFIER_nondet_int();
  g = j;
  published = 1;
  while (!ready) {}
  if (j == -1) reach_error();
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
