// sscanf reads its input as the thread sees it (its own buffered bytes
// first) and its results are stores through the model: another thread
// that waits for a flag raised after the sscanf sees them under SC and
// TSO, and under PSO the flag may overtake them (VIOLATION).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
char input[32];
int number;
char word[8], letter;
short small;
double real;
volatile int ready;
void *parser(void *a) {
  strcpy(input, "42 abc x -7 2.5");
  int n = sscanf(input, "%d %7s %c %hd %lf", &number, word, &letter, &small, &real);
  assert(n == 5);
  ready = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, parser, 0);
  while (!ready) {}
  assert(number == 42 && strcmp(word, "abc") == 0 && letter == 'x' && small == -7 && real == 2.5);
  pthread_join(t, 0);
  int skipped = -1, after = -1;
  assert(sscanf("1 2", "%*d %d %d", &skipped, &after) == 1 && skipped == 2 && after == -1);
  return 0;
}
