// SV-COMP pthread-C-DAC/pthread-finding-k-matches in small: two threads
// count the elements of their half of a table equal to a nondet value
// (compared as doubles, 100 times each, against ten distinct numbers),
// main counts again after the joins and asserts the counts agree. SAFE.
// With -DMISS_LAST the second thread skips its last element, a 10: the
// counts differ exactly when the value is 10.
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

#define N 200
#ifdef MISS_LAST
#define SKIP 1
#else
#define SKIP 0
#endif

double a[N];
int search_no, count;
pthread_mutex_t count_mutex = PTHREAD_MUTEX_INITIALIZER;

void *find_entries(void *arg) {
  int half = *(int *)arg, local = 0;
  int end = (half + 1) * (N / 2) - (half == 1 ? SKIP : 0);
  for (int i = half * (N / 2); i < end; i++)
    if (a[i] == search_no) local++;
  pthread_mutex_lock(&count_mutex);
  count += local;
  pthread_mutex_unlock(&count_mutex);
  return 0;
}

int main(void) {
  for (int i = 0; i < N; i++) a[i] = (i % 10) + 1.0;
  search_no = __VERIFIER_nondet_int();
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, find_entries, &ids[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  int again = 0;
  for (int i = 0; i < N; i++)
    if (a[i] == search_no) again++;
  assert(count == again);
  return 0;
}
