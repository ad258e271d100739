/* Message passing with a spin-wait on the flag: under PSO the data store may
 * still be buffered when the flag is seen (r = 0); SC and TSO read 1. */
#include <pthread.h>
#include "tsoify.h"
int data, flag, r;
void *producer(void *a) { data = 1; flag = 1; return 0; }
void *consumer(void *a) { while (flag == 0) {} r = data; return 0; }
int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0);
  pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0);
  pthread_join(c, 0);
  tsoify_outcome("r=%d", r);
  return 0;
}
