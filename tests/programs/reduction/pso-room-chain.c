/* One thread stores to five addresses in order; another reads the last,
 * then the first. Under PSO with a buffer of 2 entries, reading x[4] == 1
 * and x[0] == 0 needs x[0] to stay buffered while each later store waits
 * for room: at every wait, another entry must be the one that leaves. */
#include <pthread.h>
#include <assert.h>
int x[5];
int r1, r2;
void *writer(void *a) { for (int i = 0; i < 5; i++) x[i] = 1; return 0; }
void *reader(void *a) { r1 = __atomic_load_n(&x[4], __ATOMIC_RELAXED); r2 = __atomic_load_n(&x[0], __ATOMIC_RELAXED); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(r1 == 1 && r2 == 0));
  return 0;
}
