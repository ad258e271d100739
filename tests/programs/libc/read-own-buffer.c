// The readers of libc (strlen, strcmp, memcmp, strchr, atoi, strtol) see a
// thread's own buffered stores, as its loads do: under TSO the bytes just
// written are still in the store buffer, not in memory, and reading memory
// natively would see zeros. Another thread writes `other` at the same
// time; main reads it only after the join.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
char text[8], other[8];
void *writer(void *a) { other[0] = '7'; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  text[0] = '4';
  text[1] = '2';
  assert(strlen(text) == 2);
  assert(strcmp(text, "42") == 0);
  assert(memcmp(text, "42", 3) == 0);
  assert(strchr(text, '2') == text + 1);
  assert(atoi(text) == 42);
  char *end;
  assert(strtol(text, &end, 10) == 42 && end == text + 2);
  pthread_join(t, 0);
  assert(atoi(other) == 7);
  return 0;
}
