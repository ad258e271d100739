/* Message passing through strcpy: the copy's bytes are stores like any
 * other, buffered in order with the flag under TSO (safe) and free to pass
 * it under PSO (the reader can see the flag before the text). */
#include <assert.h>
#include <pthread.h>
#include <string.h>
char text[8];
int flag;
void *writer(void *a) { strcpy(text, "hi"); flag = 1; return 0; }
void *reader(void *a) {
  if (flag) assert(text[0] == 'h' && strlen(text) == 2);
  return 0;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
