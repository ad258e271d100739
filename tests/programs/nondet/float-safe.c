// Comparisons no value of the integer can satisfy: a converted int is
// never 0.5, never between 2 and 3 exclusive, never above INT_MAX, never
// NaN. Threads count the array entries equal to the value and main checks
// the count (the shape of SV-COMP's pthread-finding-k-matches): SAFE.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
static void __VERIFIER_assert(int c) {
  if (!c) reach_error();
}

double a[4];
double wanted;
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *find(void *arg) {
  int start = *(int *)arg, local = 0;
  for (int i = start; i < start + 2; i++)
    if (a[i] == wanted) local++;
  pthread_mutex_lock(&m);
  count += local;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  for (int i = 0; i < 4; i++) a[i] = i % 3 + 1.0;
  int x = __VERIFIER_nondet_int();
  double d = x;
  if (d == 0.5 || (d > 2.0 && d < 3.0) || d > 2147483647.5 || d != d) reach_error();
  wanted = d;
  pthread_t t[2];
  int starts[2] = {0, 2};
  for (int k = 0; k < 2; k++) pthread_create(&t[k], 0, find, &starts[k]);
  for (int k = 0; k < 2; k++) pthread_join(t[k], 0);
  int expected = 0;
  for (int i = 0; i < 4; i++)
    if (a[i] == wanted) expected++;
  __VERIFIER_assert(count == expected);
  return 0;
}
