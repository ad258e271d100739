/* sync.c - the pthread calls beyond threads, mutexes and condition
 * variables: pthread_once, barriers, read-write locks, semaphores,
 * thread-specific data and thread attributes.
 *
 * Each sync object's state lives in the program's object itself (its first
 * words, zero meaning "fresh" where a static initialiser is all zeros), as
 * threads.c does for mutexes, so snapshots cover it. Every call is a
 * scheduling point and a full fence (the buffer drains), like the other
 * pthread calls. Blocking is "not enabled until" (rt_wait_until). For the
 * reduction and the data-race check, taking a sync object logs a LOCK event
 * on its address (acquire: after everything released into it) and giving
 * it logs an UNLOCK event (release: what the thread did so far goes into
 * the object); the race check joins releases, so a barrier or semaphore
 * collects every arrival and post. */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

void __tsoify_store(void *addr, const void *src, uint64_t size, uint32_t order, uint32_t loc); /* api.c */

static void acquire(const void *obj, uint32_t kind) { rt_event(TSOIFY_EV_LOCK, obj, 0, 0, rt_cur_loc, kind, 0); }
static void release(const void *obj, uint32_t kind) { rt_event(TSOIFY_EV_UNLOCK, obj, 0, 0, rt_cur_loc, kind, 0); }
/* a try that failed: it read the object's state, which a release changes */
static void failed(const void *obj, uint32_t kind) { acquire(obj, kind | TSOIFY_LOCK_FAILED); }

/* A sync call that does not block: scheduling point, drain. */
static void sync_point(void) {
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
}

/* ---- pthread_once: word 0 = not run (PTHREAD_ONCE_INIT), ONCE_DONE, or
 * the runner's id + 1 while init runs (the others wait for it) ---- */
#define ONCE_DONE 0x7fffffff

static int once_settled(const void *o, uint64_t arg) {
  (void)arg;
  int w = *(const int *)o;
  return w == 0 || w == ONCE_DONE;
}

int __tsoify_pthread_once(pthread_once_t *o, void (*init)(void)) {
  int *w = (int *)(void *)o;
  rt_wait_until(once_settled, o, 0);
  acquire(o, TSOIFY_OBJ_KIND_ONCE);
  if (*w == ONCE_DONE) return 0;
  *w = rt_cur + 1;
  init();
  sync_point();
  *w = ONCE_DONE;
  release(o, TSOIFY_OBJ_KIND_ONCE);
  return 0;
}

/* ---- barriers: count, arrived, generation ---- */
struct barrier {
  uint32_t count, arrived, generation;
};

static int generation_passed(const void *b, uint64_t gen) { return ((const struct barrier *)b)->generation != (uint32_t)gen; }

int __tsoify_pthread_barrier_init(pthread_barrier_t *pb, const pthread_barrierattr_t *a, unsigned count) {
  (void)a;
  sync_point();
  if (count == 0) return 22; /* EINVAL */
  struct barrier *b = (struct barrier *)(void *)pb;
  b->count = count, b->arrived = 0, b->generation = 0;
  return 0;
}

int __tsoify_pthread_barrier_destroy(pthread_barrier_t *pb) {
  (void)pb;
  sync_point();
  return 0;
}

int __tsoify_pthread_barrier_wait(pthread_barrier_t *pb) {
  struct barrier *b = (struct barrier *)(void *)pb;
  sync_point();
  release(b, TSOIFY_OBJ_KIND_BARRIER);
  uint32_t gen = b->generation;
  if (++b->arrived == b->count) {
    b->arrived = 0;
    b->generation++;
    acquire(b, TSOIFY_OBJ_KIND_BARRIER);
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  rt_wait_until(generation_passed, b, gen);
  acquire(b, TSOIFY_OBJ_KIND_BARRIER);
  return 0;
}

/* ---- read-write locks: writer (id + 1, 0 = none), readers ---- */
struct rwlock {
  int writer;
  int readers;
};

static int no_writer(const void *l, uint64_t arg) {
  (void)arg;
  return ((const struct rwlock *)l)->writer == 0;
}

static int unheld(const void *l, uint64_t arg) {
  (void)arg;
  const struct rwlock *r = l;
  return r->writer == 0 && r->readers == 0;
}

int __tsoify_pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *a) {
  (void)a;
  sync_point();
  struct rwlock *r = (struct rwlock *)(void *)l;
  r->writer = 0, r->readers = 0;
  return 0;
}

int __tsoify_pthread_rwlock_destroy(pthread_rwlock_t *l) {
  (void)l;
  sync_point();
  return 0;
}

int __tsoify_pthread_rwlock_rdlock(pthread_rwlock_t *l) {
  struct rwlock *r = (struct rwlock *)(void *)l;
  if (r->writer == rt_cur + 1) rt_end(TSOIFY_ST_DEADLOCK, rt_cur_loc, "thread %d read-locks an rwlock it holds for writing", rt_cur);
  rt_wait_until(no_writer, r, 0);
  r->readers++;
  acquire(r, TSOIFY_OBJ_KIND_RWLOCK);
  return 0;
}

int __tsoify_pthread_rwlock_wrlock(pthread_rwlock_t *l) {
  struct rwlock *r = (struct rwlock *)(void *)l;
  if (r->writer == rt_cur + 1) rt_end(TSOIFY_ST_DEADLOCK, rt_cur_loc, "thread %d write-locks an rwlock it already holds", rt_cur);
  rt_wait_until(unheld, r, 0);
  r->writer = rt_cur + 1;
  acquire(r, TSOIFY_OBJ_KIND_RWLOCK);
  return 0;
}

int __tsoify_pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
  struct rwlock *r = (struct rwlock *)(void *)l;
  sync_point();
  if (r->writer) {
    failed(r, TSOIFY_OBJ_KIND_RWLOCK);
    return 16; /* EBUSY */
  }
  r->readers++;
  acquire(r, TSOIFY_OBJ_KIND_RWLOCK);
  return 0;
}

int __tsoify_pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
  struct rwlock *r = (struct rwlock *)(void *)l;
  sync_point();
  if (r->writer || r->readers) {
    failed(r, TSOIFY_OBJ_KIND_RWLOCK);
    return 16; /* EBUSY */
  }
  r->writer = rt_cur + 1;
  acquire(r, TSOIFY_OBJ_KIND_RWLOCK);
  return 0;
}

int __tsoify_pthread_rwlock_unlock(pthread_rwlock_t *l) {
  struct rwlock *r = (struct rwlock *)(void *)l;
  sync_point();
  if (r->writer == rt_cur + 1) r->writer = 0;
  else if (r->readers > 0) r->readers--;
  else rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "unlock of an rwlock this thread does not hold");
  release(r, TSOIFY_OBJ_KIND_RWLOCK);
  return 0;
}

/* ---- semaphores: the value in the first word ---- */
static int positive(const void *s, uint64_t arg) {
  (void)arg;
  return *(const int *)s > 0;
}

int __tsoify_sem_init(sem_t *s, int pshared, unsigned value) {
  (void)pshared;
  sync_point();
  *(int *)(void *)s = (int)value;
  return 0;
}

int __tsoify_sem_destroy(sem_t *s) {
  (void)s;
  sync_point();
  return 0;
}

int __tsoify_sem_wait(sem_t *s) {
  rt_wait_until(positive, s, 0);
  (*(int *)(void *)s)--;
  acquire(s, TSOIFY_OBJ_KIND_SEMAPHORE);
  return 0;
}

int __tsoify_sem_trywait(sem_t *s) {
  sync_point();
  if (*(int *)(void *)s <= 0) {
    failed(s, TSOIFY_OBJ_KIND_SEMAPHORE);
    return -1; /* EAGAIN (errno is not set) */
  }
  (*(int *)(void *)s)--;
  acquire(s, TSOIFY_OBJ_KIND_SEMAPHORE);
  return 0;
}

int __tsoify_sem_post(sem_t *s) {
  sync_point();
  (*(int *)(void *)s)++;
  release(s, TSOIFY_OBJ_KIND_SEMAPHORE);
  return 0;
}

int __tsoify_sem_getvalue(sem_t *s, int *value) {
  sync_point();
  failed(s, TSOIFY_OBJ_KIND_SEMAPHORE); /* it reads the count: posts and waits change it */
  *value = *(int *)(void *)s;
  return 0;
}

/* ---- thread-specific data: keys and each thread's values live in the
 * runtime (a thread's values are its own); the key a program keeps is
 * written through the model, since other threads read it ---- */
#define RT_MAX_KEYS 64
#define DESTRUCTOR_ROUNDS 4 /* PTHREAD_DESTRUCTOR_ITERATIONS */
static int nkeys;
static void (*destructors[RT_MAX_KEYS])(void *);
/* outside the data segment, which is restored after every execution (32
 * KB, most of it never used): a thread's row is cleared as it starts */
static const void *(*values)[RT_MAX_KEYS];

void rt_keys_init(void) {
  values = rt_scratch(RT_MAX_THREADS * sizeof *values);
}

void rt_keys_thread_start(int t) {
  /* not memset(.., 0): an empty one cost 2% of a short execution */
  for (int k = 0; k < nkeys; k++) values[t][k] = 0;
}

int __tsoify_pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
  sync_point();
  if (nkeys >= RT_MAX_KEYS) return 11; /* EAGAIN */
  pthread_key_t k = (pthread_key_t)nkeys++;
  destructors[k] = destructor;
  for (int t = 0; t < RT_MAX_THREADS; t++) values[t][k] = 0; /* an earlier execution's */
  __tsoify_store(key, &k, sizeof k, 7, rt_cur_loc); /* seq_cst: the call is a fence */
  return 0;
}

int __tsoify_pthread_key_delete(pthread_key_t key) {
  sync_point();
  if (key < (pthread_key_t)nkeys) destructors[key] = 0;
  return 0;
}

int __tsoify_pthread_setspecific(pthread_key_t key, const void *value) {
  if (key >= (pthread_key_t)nkeys) return 22; /* EINVAL */
  values[rt_cur][key] = value;
  return 0;
}

void *__tsoify_pthread_getspecific(pthread_key_t key) {
  if (key >= (pthread_key_t)nkeys) return 0;
  return (void *)values[rt_cur][key];
}

void rt_run_key_destructors(int t) {
  for (int round = 0; round < DESTRUCTOR_ROUNDS; round++) {
    int ran = 0;
    for (int k = 0; k < nkeys; k++) {
      const void *v = values[t][k];
      if (v && destructors[k]) {
        values[t][k] = 0;
        destructors[k]((void *)v);
        ran = 1;
      }
    }
    if (!ran) return;
  }
}

/* ---- mutex attributes: the type in the first int (threads.c refuses a
 * recursive mutex when one is made with it; normal, error-checking and
 * default mutexes behave alike here: relocking is reported as a
 * deadlock) ---- */
int __tsoify_pthread_mutexattr_init(pthread_mutexattr_t *a) {
  *(int *)(void *)a = PTHREAD_MUTEX_DEFAULT;
  return 0;
}
int __tsoify_pthread_mutexattr_destroy(pthread_mutexattr_t *a) {
  (void)a;
  return 0;
}
int __tsoify_pthread_mutexattr_settype(pthread_mutexattr_t *a, int type) {
  *(int *)(void *)a = type;
  return 0;
}
int __tsoify_pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type) {
  *type = *(const int *)(const void *)a;
  return 0;
}

/* ---- thread attributes: accepted; nothing in them changes what the
 * model does (a detached thread simply is never joined) ---- */
int __tsoify_pthread_attr_init(pthread_attr_t *a) {
  (void)a;
  return 0;
}
int __tsoify_pthread_attr_destroy(pthread_attr_t *a) {
  (void)a;
  return 0;
}
int __tsoify_pthread_attr_setdetachstate(pthread_attr_t *a, int state) {
  (void)a, (void)state;
  return 0;
}
int __tsoify_pthread_attr_getdetachstate(const pthread_attr_t *a, int *state) {
  (void)a;
  *state = PTHREAD_CREATE_JOINABLE;
  return 0;
}
int __tsoify_pthread_attr_setstacksize(pthread_attr_t *a, size_t size) {
  (void)a, (void)size;
  return 0;
}
int __tsoify_pthread_attr_setscope(pthread_attr_t *a, int scope) {
  (void)a, (void)scope;
  return 0;
}
int __tsoify_pthread_detach(pthread_t t) {
  (void)t;
  return 0;
}
