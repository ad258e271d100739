/* mixed-bytes: a 32-bit store 0x01020304 read back byte by byte (little-
 * endian): each byte is old (0) or new, never torn out of order. */
#include <pthread.h>
#include "tsoify.h"
int w;                                  /* shared, initially 0 */
int b0, b1, b2, b3;                     /* registers, read by main after join */
static void *t0(void *arg) { w = 0x01020304; return 0; }
static void *t1(void *arg) {
  b0 = ((unsigned char *)&w)[0];
  b1 = ((unsigned char *)&w)[1];
  b2 = ((unsigned char *)&w)[2];
  b3 = ((unsigned char *)&w)[3];
  return 0;
}
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("b0=%d b1=%d b2=%d b3=%d", b0, b1, b2, b3);
  return 0;
}
