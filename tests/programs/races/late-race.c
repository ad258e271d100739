/* Races that show only after many executions (the race check runs on its
 * own thread in batches of executions: race_thread.rs). Four threads add
 * to a counter in every order; the reader writes y, which main also
 * writes, only when it saw none of the additions, and z only when it saw
 * exactly two. */
#include <pthread.h>
#include <stdatomic.h>

atomic_int c;
int y, z;

static void *adder(void *arg) {
  atomic_fetch_add_explicit(&c, 1, memory_order_relaxed);
  return 0;
}

static void *reader(void *arg) {
  int seen = atomic_load_explicit(&c, memory_order_relaxed);
  if (seen == 0)
    y = 1;
  if (seen == 0)
    z = 1;
  return 0;
}

static void *other(void *arg) {
  y = 2;
  if (atomic_load_explicit(&c, memory_order_relaxed) == 4)
    z = 2;
  return 0;
}

int main(void) {
  pthread_t t[6];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], 0, adder, 0);
  pthread_create(&t[4], 0, reader, 0);
  pthread_create(&t[5], 0, other, 0);
  for (int i = 0; i < 6; i++)
    pthread_join(t[i], 0);
  return 0;
}
