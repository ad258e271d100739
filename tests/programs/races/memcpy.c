// memcpy into a buffer while another thread stores into it: a race
// between the copy's write and the plain store.
#include <pthread.h>
#include <string.h>
char buf[16];
const char src[16] = "hello, world";
void *t1(void *a) { buf[3] = 'x'; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, t1, 0);
  memcpy(buf, src, sizeof buf);
  pthread_join(t, 0);
  return 0;
}
