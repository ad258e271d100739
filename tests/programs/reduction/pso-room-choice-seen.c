/* PSO with a small bound: which entry leaves when a store waits for room
 * decides what another thread can still miss. The writer stores x[0..4]
 * in order; the reader reads x[4], x[2] and x[0]. Reading x[4] == 1 with
 * x[0] == 0 needs x[0] to stay buffered through every wait for room, and
 * missing both x[0] and x[2] then needs three entries (K >= 3). */
#include <pthread.h>
#include "tsoify.h"
int x[5];
int r0, r1, r2;
static void *writer(void *a) { for (int i = 0; i < 5; i++) x[i] = 1; return 0; }
static void *reader(void *a) {
  r0 = __atomic_load_n(&x[4], __ATOMIC_RELAXED);
  r1 = __atomic_load_n(&x[2], __ATOMIC_RELAXED);
  r2 = __atomic_load_n(&x[0], __ATOMIC_RELAXED);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  tsoify_outcome("r0=%d r1=%d r2=%d", r0, r1, r2);
  return 0;
}
