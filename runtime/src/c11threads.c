/* c11threads.c - C11's <threads.h> in terms of the runtime's pthreads.
 *
 * glibc's thrd_t is a pthread_t, and mtx_t, cnd_t, once_flag and tss_t
 * have the sizes of pthread_mutex_t, pthread_cond_t, pthread_once_t and
 * pthread_key_t, so each call is the pthread call it stands for
 * (threads.c, sync.c), on the program's own object: a scheduling point
 * and a full fence, with the same events for the reduction. Only the
 * return codes differ (thrd_success, thrd_busy, thrd_timedout), and a
 * thread's start function returns an int, which a trampoline hands to
 * pthread's void * result. The pass renames the calls
 * (pass/src/redirect.rs, C11_REDIRECTS); an export refuses them.
 *
 * Not modelled beyond pthreads: a recursive mutex (refused as
 * pthread_mutex_init refuses one), mtx_timedlock's timeout (it waits as
 * mtx_lock does), thrd_sleep (a yield: time is not modelled). */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include "rt.h"

/* <threads.h>'s constants, as glibc defines them (the header itself is
 * not included: its declarations would clash with ours) */
enum { THRD_SUCCESS = 0, THRD_BUSY = 1, THRD_ERROR = 2, THRD_TIMEDOUT = 4 };
enum { MTX_RECURSIVE = 1 };

int __tsoify_pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __tsoify_pthread_join(pthread_t t, void **ret);
_Noreturn void __tsoify_pthread_exit(void *ret);
int __tsoify_pthread_detach(pthread_t t);
int __tsoify_pthread_mutexattr_init(pthread_mutexattr_t *a);
int __tsoify_pthread_mutexattr_settype(pthread_mutexattr_t *a, int type);
int __tsoify_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a);
int __tsoify_pthread_mutex_lock(pthread_mutex_t *m);
int __tsoify_pthread_mutex_trylock(pthread_mutex_t *m);
int __tsoify_pthread_mutex_unlock(pthread_mutex_t *m);
int __tsoify_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a);
int __tsoify_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int __tsoify_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime);
int __tsoify_pthread_cond_signal(pthread_cond_t *c);
int __tsoify_pthread_cond_broadcast(pthread_cond_t *c);
int __tsoify_pthread_once(pthread_once_t *o, void (*init)(void));
int __tsoify_pthread_key_create(pthread_key_t *key, void (*destructor)(void *));
int __tsoify_pthread_key_delete(pthread_key_t key);
int __tsoify_pthread_setspecific(pthread_key_t key, const void *value);
void *__tsoify_pthread_getspecific(pthread_key_t key);
int __tsoify_yield(void);

/* ---- threads: the start function of each thread made by thrd_create,
 * by thread index (set before the new thread first runs) ---- */
typedef int (*c11_start_fn)(void *);
static c11_start_fn c11_start[RT_MAX_THREADS];

static void *c11_entry(void *arg) {
  int res = c11_start[rt_cur](arg);
  return (void *)(intptr_t)res;
}

int __tsoify_c11_thrd_create(pthread_t *out, c11_start_fn fn, void *arg) {
  __tsoify_pthread_create(out, 0, c11_entry, arg);
  c11_start[*out] = fn; /* the new thread has not run yet */
  return THRD_SUCCESS;
}

int __tsoify_c11_thrd_join(pthread_t t, int *res) {
  void *ret = 0;
  __tsoify_pthread_join(t, &ret);
  if (res) *res = (int)(intptr_t)ret;
  return THRD_SUCCESS;
}

_Noreturn void __tsoify_c11_thrd_exit(int res) { __tsoify_pthread_exit((void *)(intptr_t)res); }

int __tsoify_c11_thrd_detach(pthread_t t) { return __tsoify_pthread_detach(t) ? THRD_ERROR : THRD_SUCCESS; }

void __tsoify_c11_thrd_yield(void) { __tsoify_yield(); }

int __tsoify_c11_thrd_sleep(const struct timespec *duration, struct timespec *remaining) {
  (void)duration;
  if (remaining) remaining->tv_sec = 0, remaining->tv_nsec = 0;
  __tsoify_yield();
  return 0;
}

/* ---- mutexes ---- */
int __tsoify_c11_mtx_init(pthread_mutex_t *m, int type) {
  /* a recursive one is refused where pthread_mutex_init refuses it */
  pthread_mutexattr_t a;
  __tsoify_pthread_mutexattr_init(&a);
  if (type & MTX_RECURSIVE) __tsoify_pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  __tsoify_pthread_mutex_init(m, &a);
  return THRD_SUCCESS;
}

void __tsoify_c11_mtx_destroy(pthread_mutex_t *m) { (void)m; }

int __tsoify_c11_mtx_lock(pthread_mutex_t *m) {
  __tsoify_pthread_mutex_lock(m);
  return THRD_SUCCESS;
}

int __tsoify_c11_mtx_timedlock(pthread_mutex_t *m, const struct timespec *abstime) {
  (void)abstime;
  return __tsoify_c11_mtx_lock(m);
}

int __tsoify_c11_mtx_trylock(pthread_mutex_t *m) { return __tsoify_pthread_mutex_trylock(m) ? THRD_BUSY : THRD_SUCCESS; }

int __tsoify_c11_mtx_unlock(pthread_mutex_t *m) {
  __tsoify_pthread_mutex_unlock(m);
  return THRD_SUCCESS;
}

/* ---- condition variables (a wait may wake spuriously, as a pthread one) ---- */
int __tsoify_c11_cnd_init(pthread_cond_t *c) {
  __tsoify_pthread_cond_init(c, 0);
  return THRD_SUCCESS;
}

void __tsoify_c11_cnd_destroy(pthread_cond_t *c) { (void)c; }

int __tsoify_c11_cnd_signal(pthread_cond_t *c) {
  __tsoify_pthread_cond_signal(c);
  return THRD_SUCCESS;
}

int __tsoify_c11_cnd_broadcast(pthread_cond_t *c) {
  __tsoify_pthread_cond_broadcast(c);
  return THRD_SUCCESS;
}

int __tsoify_c11_cnd_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  __tsoify_pthread_cond_wait(c, m);
  return THRD_SUCCESS;
}

int __tsoify_c11_cnd_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime) {
  return __tsoify_pthread_cond_timedwait(c, m, abstime) ? THRD_TIMEDOUT : THRD_SUCCESS;
}

/* ---- call_once and thread-specific storage ---- */
void __tsoify_c11_call_once(pthread_once_t *flag, void (*fn)(void)) { __tsoify_pthread_once(flag, fn); }

int __tsoify_c11_tss_create(pthread_key_t *key, void (*destructor)(void *)) {
  return __tsoify_pthread_key_create(key, destructor) ? THRD_ERROR : THRD_SUCCESS;
}

void __tsoify_c11_tss_delete(pthread_key_t key) { __tsoify_pthread_key_delete(key); }

void *__tsoify_c11_tss_get(pthread_key_t key) { return __tsoify_pthread_getspecific(key); }

int __tsoify_c11_tss_set(pthread_key_t key, void *value) {
  return __tsoify_pthread_setspecific(key, value) ? THRD_ERROR : THRD_SUCCESS;
}
