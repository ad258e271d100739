/* C11's <threads.h>: two threads made by thrd_create run one call_once
 * initialiser between them, add to a counter under an mtx_t and announce
 * themselves through a cnd_t; main waits for both, joins them and checks
 * their int results, then tries trylock and thread-specific storage.
 * -DNO_WAIT skips main's wait: it then checks before the workers ran.
 * -DRECURSIVE makes the mutex recursive, which is not modelled. */
#include <assert.h>
#include <threads.h>

static mtx_t m;
static cnd_t announced;
static once_flag once = ONCE_FLAG_INIT;
static int counter, inits;
#ifdef RECURSIVE
#define MTX_TYPE (mtx_plain | mtx_recursive)
#else
#define MTX_TYPE mtx_plain
#endif

static void init(void) { inits++; }

static int worker(void *arg) {
  call_once(&once, init);
  mtx_lock(&m);
  counter++;
  cnd_signal(&announced);
  mtx_unlock(&m);
  return (int)(long)arg * 10;
}

int main(void) {
  thrd_t a, b;
  assert(mtx_init(&m, MTX_TYPE) == thrd_success);
  assert(cnd_init(&announced) == thrd_success);
  assert(thrd_create(&a, worker, (void *)1) == thrd_success);
  assert(thrd_create(&b, worker, (void *)2) == thrd_success);
  mtx_lock(&m);
#ifndef NO_WAIT
  while (counter < 2)
    cnd_wait(&announced, &m);
#endif
  assert(counter == 2 && inits == 1);
  mtx_unlock(&m);
  int ra = 0, rb = 0;
  assert(thrd_join(a, &ra) == thrd_success && thrd_join(b, &rb) == thrd_success);
  assert(ra == 10 && rb == 20);
  mtx_lock(&m);
  assert(mtx_trylock(&m) == thrd_busy);
  mtx_unlock(&m);
  tss_t key;
  assert(tss_create(&key, 0) == thrd_success);
  assert(tss_set(key, &key) == thrd_success && tss_get(key) == &key);
  tss_delete(key);
  cnd_destroy(&announced);
  mtx_destroy(&m);
  return 0;
}
