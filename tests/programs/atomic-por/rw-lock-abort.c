/* SV-COMP's pthread-atomic/read_write_lock-1, rewritten: a reader-writer
 * lock whose blocks take the lock the SV-COMP way, aborting when it is
 * held, so most executions end by an abort. Optimal DPOR once needed
 * 388,351 executions here against source DPOR's 17,469: the branches it
 * tries before an execution's end covered no sequence, so the races added
 * each of them again. */
#include <pthread.h>
#include <stdlib.h>
void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void);
void assume_abort_if_not(int c) { if (!c) abort(); }
void reach_error(void);
int w=0, r=0, x, y;
void __VERIFIER_atomic_take_write_lock() { assume_abort_if_not(w==0 && r==0); w = 1; }
void __VERIFIER_atomic_take_read_lock() { assume_abort_if_not(w==0); r = r+1; }
void __VERIFIER_atomic_release_read_lock() { r = r-1; }
void *writer(void *arg) {
  __VERIFIER_atomic_take_write_lock();
  x = 3;
  __VERIFIER_atomic_begin(); w = 0; __VERIFIER_atomic_end();
  return 0;
}
void *reader(void *arg) {
  int l;
  __VERIFIER_atomic_take_read_lock();
  __VERIFIER_atomic_begin(); l = x; __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin(); y = l; __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin(); int ly = y; __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin(); int lx = x; __VERIFIER_atomic_end();
  if (ly != lx) reach_error();
  __VERIFIER_atomic_release_read_lock();
  return 0;
}
int main() {
  pthread_t t1, t2, t3, t4;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_create(&t3, 0, writer, 0); pthread_create(&t4, 0, reader, 0);
  pthread_join(t1, 0); pthread_join(t2, 0); pthread_join(t3, 0); pthread_join(t4, 0);
  return 0;
}
