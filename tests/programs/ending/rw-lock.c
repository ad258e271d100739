/* A writer's atomic block assumes the lock is free and takes it; the readers'
 * unlock (r = r - 1) must be able to flush before the writer's block. */
#include <pthread.h>
void reach_error(void);
void __VERIFIER_assume(int);
int w, r, x;
void __VERIFIER_atomic_wl(void) { __VERIFIER_assume(w == 0 && r == 0); w = 1; }
void __VERIFIER_atomic_rl(void) { __VERIFIER_assume(w == 0); r = r + 1; }
void *writer(void *a) { __VERIFIER_atomic_wl(); x = 3; return 0; }
void *reader(void *a) {
  int l;
  __VERIFIER_atomic_rl();
  l = x;
  if (l != x) reach_error();
  l = r - 1;
  r = l;
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_create(&t3, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}
