/* mixed-own: partial-byte forwarding: T0 reads parts of its own buffered
 * 32-bit store; T1 reads w with byte 0 from its own buffer and bytes 1..3
 * from memory (0xAABBCC55 = 2864434261, 0xAABBCCDD = 2864434397). */
#include <pthread.h>
#include "tsoify.h"
unsigned int w;                         /* shared, initially 0 */
unsigned int r0, r1, r2;                /* registers, read by main after join */
static void *t0(void *arg) {
  w = 0xAABBCCDD;
  r0 = ((unsigned char *)&w)[1];
  r1 = *(unsigned short *)((unsigned char *)&w + 2);
  return 0;
}
static void *t1(void *arg) { ((unsigned char *)&w)[0] = 0x55; r2 = w; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r0=%u r1=%u r2=%u w=%u", r0, r1, r2, w);
  return 0;
}
