// Producer and consumer through a semaphore that starts at 0: the
// consumer reads the data only after the post (SAFE, no race).
// -DSEM_START=1: the consumer may go first and read 0.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#ifndef SEM_START
#define SEM_START 0
#endif
sem_t ready;
int data;
void *producer(void *a) { data = 42; sem_post(&ready); return 0; }
void *consumer(void *a) { sem_wait(&ready); assert(data == 42); return 0; }
int main(void) {
  pthread_t p, c;
  sem_init(&ready, 0, SEM_START);
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  return 0;
}
