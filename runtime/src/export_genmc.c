/* export_genmc.c - glue for GenMC (tsoify --export --export-for genmc).
 *
 * GenMC interprets only its own primitives (__VERIFIER_thread_create,
 * __VERIFIER_mutex_lock, __VERIFIER_malloc, ...); its headers map the
 * pthread and libc names onto them with inline functions. An export is
 * compiled against the system's headers, so its calls go to the glibc
 * names, which GenMC would run natively (and crash). These definitions
 * give those names GenMC's meaning; the driver links them into the export
 * as they are (no prefix), and drops the ones the program does not call.
 *
 * Compiled on its own, without the system headers: the types here are the
 * glibc ABI's (pthread_t is an unsigned long, attributes and mutexes are
 * passed by pointer), the __VERIFIER_ declarations GenMC 0.11's. GenMC
 * has no condition variables, so pthread_cond_* stay undefined and GenMC
 * reports them if a program uses them. */
typedef unsigned long size_t;
typedef unsigned long pthread_t;
typedef long verifier_thread_t;
typedef struct {
  int private_;
} verifier_mutex_t;

void __VERIFIER_assert_fail(const char *, const char *, int);
void *__VERIFIER_malloc(size_t);
void __VERIFIER_free(void *);
int __VERIFIER_thread_create(const void *, void *(*)(void *), void *);
_Noreturn void __VERIFIER_thread_exit(void *);
void *__VERIFIER_thread_join(verifier_thread_t);
verifier_thread_t __VERIFIER_thread_self(void);
int __VERIFIER_mutex_init(verifier_mutex_t *, const long *);
int __VERIFIER_mutex_destroy(verifier_mutex_t *);
int __VERIFIER_mutex_trylock(verifier_mutex_t *);
int __VERIFIER_mutex_lock(verifier_mutex_t *);
int __VERIFIER_mutex_unlock(verifier_mutex_t *);

/* Thread attributes (stack size, detach state) mean nothing to GenMC, and
 * its attribute type is not glibc's: they are not passed on. */
int pthread_create(pthread_t *id, const void *attr, void *(*fn)(void *), void *arg) {
  (void)attr;
  *id = (pthread_t)__VERIFIER_thread_create(0, fn, arg);
  return 0;
}

int pthread_join(pthread_t id, void **ret) {
  void *r = __VERIFIER_thread_join((verifier_thread_t)id);
  if (ret) *ret = r;
  return 0;
}

_Noreturn void pthread_exit(void *ret) { __VERIFIER_thread_exit(ret); }

pthread_t pthread_self(void) { return (pthread_t)__VERIFIER_thread_self(); }

int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

/* A glibc mutex is 40 bytes, GenMC's an int at its start; both initialise
 * to zeros (PTHREAD_MUTEX_INITIALIZER). Mutex attributes are not passed on
 * (GenMC's mutexes are plain ones). */
int pthread_mutex_init(void *m, const void *attr) {
  (void)attr;
  return __VERIFIER_mutex_init(m, 0);
}

int pthread_mutex_destroy(void *m) { return __VERIFIER_mutex_destroy(m); }

int pthread_mutex_lock(void *m) { return __VERIFIER_mutex_lock(m); }

int pthread_mutex_trylock(void *m) { return __VERIFIER_mutex_trylock(m); }

int pthread_mutex_unlock(void *m) { return __VERIFIER_mutex_unlock(m); }

_Noreturn void __assert_fail(const char *expr, const char *file, unsigned int line, const char *func) {
  (void)func;
  __VERIFIER_assert_fail(expr, file, (int)line);
  for (;;) { /* not reached: GenMC ends the execution */
  }
}

void *malloc(size_t n) { return __VERIFIER_malloc(n); }

void free(void *p) { __VERIFIER_free(p); }

/* GenMC rejects a read of another width than the write that it reads
 * from, and no one width fits every program: the block is zeroed in 8-byte
 * words (pointers, and the export runtime's block header) where it can. */
void *calloc(size_t n, size_t m) {
  if (m && n > (size_t)-1 / m) return 0;
  size_t size = n * m;
  unsigned char *p = __VERIFIER_malloc(size);
  if (!p) return 0;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) *(unsigned long *)(p + i) = 0;
  for (; i < size; i++) p[i] = 0;
  return p;
}

/* A test's outcome report (include/tsoify.h): only `verify` collects
 * outcomes; under GenMC it does nothing. */
void tsoify_outcome(const char *fmt, ...) { (void)fmt; }
