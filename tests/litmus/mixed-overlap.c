/* mixed-overlap: overlapping unaligned stores (4 bytes at buf+1, 2 bytes at
 * buf+3) merge byte-wise; a 16-bit read at buf+2 sees both. */
#include <pthread.h>
#include "tsoify.h"
unsigned char buf[8] __attribute__((aligned(8))); /* shared, initially 0 */
int r0;                                 /* registers, read by main after join */
static void *t0(void *arg) { *(unsigned int *)(buf + 1) = 0x11111111; return 0; }
static void *t1(void *arg) { *(unsigned short *)(buf + 3) = 0x2222; return 0; }
static void *t2(void *arg) { r0 = *(unsigned short *)(buf + 2); return 0; }
int main(void) {
  pthread_t h0, h1, h2;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_create(&h2, 0, t2, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  tsoify_outcome("r0=%d buf1=%d buf2=%d buf3=%d buf4=%d", r0, buf[1], buf[2], buf[3], buf[4]);
  return 0;
}
