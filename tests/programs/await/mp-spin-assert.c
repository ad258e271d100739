/* mp-spin.c with the check as an assertion: fails under PSO only. The
 * consumer is created first, so it is already waiting when the flag
 * reaches memory (the trace shows it wake up). */
#include <assert.h>
#include <pthread.h>
int data, flag;
void *producer(void *a) { data = 1; flag = 1; return 0; }
void *consumer(void *a) { while (flag == 0) {} assert(data == 1); return 0; }
int main(void) {
  pthread_t p, c;
  pthread_create(&c, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
