// A writer formats a message into a shared buffer with snprintf and then
// raises a flag; the reader waits for the flag and checks the message.
// snprintf's bytes are stores like any other: under PSO the flag may
// overtake them (VIOLATION), under SC and TSO it may not (SAFE).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
char msg[16];
volatile int ready;
void *writer(void *a) { snprintf(msg, sizeof msg, "n=%d", 42); ready = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  while (!ready) {}
  assert(strcmp(msg, "n=42") == 0);
  pthread_join(t, 0);
  return 0;
}
