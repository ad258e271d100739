/* Inside an atomic block two reads of the same byte agree: T1's byte
 * store reaches memory before the block or after it, never between the
 * block's reads. The block reads bytes 0-1 of x, then all of x, then byte
 * 2 again, so r1's byte 2 equals r2 in every outcome. (The export once
 * recorded a read only when it shared no byte with an earlier one, so the
 * store could land between the second and third reads.) */
#include <pthread.h>
#include "tsoify.h"
unsigned x;
unsigned short r0;
unsigned r1;
unsigned char r2;
void __VERIFIER_atomic_reads(void) {
  r0 = *(volatile unsigned short *)&x;
  r1 = *(volatile unsigned *)&x;
  r2 = ((volatile unsigned char *)&x)[2];
}
static void *t0(void *arg) { __VERIFIER_atomic_reads(); return 0; }
static void *t1(void *arg) { ((volatile unsigned char *)&x)[2] = 1; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  tsoify_outcome("r1=%u r2=%u", r1 >> 16 & 0xff, r2);
  return 0;
}
