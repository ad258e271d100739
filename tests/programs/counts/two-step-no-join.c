/* N threads each write x, then y, and main returns without joining them
 * (as GenMC's data-structure tests do). Each variable's writes conflict
 * pairwise: N! orders of x times N! of y. Optimal DPOR must explore each
 * once: the step that ends main waits for the others, so a wakeup sequence
 * never puts it before them (it once did, and the guides broke). */
#include <pthread.h>
#ifndef N
#define N 2
#endif
int x, y;

static void *writer(void *arg) {
  x = (int)(long)arg;
  y = (int)(long)arg;
  return 0;
}

int main(void) {
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], 0, writer, (void *)(i + 1));
  return 0;
}
