/* export.c - the runtime in export mode (-DTSOIFY_EXPORT; ../ABI.md,
 * "Export mode"): the program is handed to another SC model checker, so
 * there is no scheduler, no explorer channel, no fork and no system call.
 * Threads stay pthreads; the store buffers (memmodel.c) and the memory
 * operations (api.c) are the native ones. This file stands in for
 * choice.c, threads.c, libc.c and server.c:
 *   - every runtime operation is one atomic step for the checker
 *     (__VERIFIER_atomic_begin/end, or one pthread mutex with
 *     -DTSOIFY_EXPORT_MUTEX);
 *   - the thread index of the caller is found by pthread_self();
 *   - rt_choose() is __VERIFIER_nondet_uint() bounded by __VERIFIER_assume;
 *   - flushes happen at the operations that could observe them (see
 *     rt_sched_point below) instead of at scheduling points.
 * Everything here has external names only until the driver links it into
 * the program: it then gets the __tsoify_x. prefix and internal linkage. */
#include <pthread.h>
#include <stddef.h>
#include "rt.h"
#undef __tsoify_load
#undef __tsoify_store
#undef __tsoify_rmw
#undef __tsoify_cmpxchg
#undef __tsoify_fence
#undef __tsoify_stack_release

unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
_Noreturn void __assert_fail(const char *, const char *, unsigned int, const char *);
void *malloc(size_t);
void *calloc(size_t, size_t);
void free(void *);

void rt_impl_load(const void *, void *, uint64_t, uint32_t, uint32_t);
void rt_impl_store(void *, const void *, uint64_t, uint32_t, uint32_t);
void rt_impl_rmw(void *, void *, uint64_t, uint32_t, uint32_t, uint32_t);
uint32_t rt_impl_cmpxchg(void *, void *, const void *, uint64_t, uint32_t, uint32_t, uint32_t);
void rt_impl_fence(uint32_t, uint32_t);
void rt_impl_stack_release(void *, uint64_t);
void __tsoify_memcpy(void *, const void *, uint64_t, uint32_t);
void __tsoify_memset(void *, uint32_t, uint64_t, uint32_t);

uint32_t rt_cur_loc;
int rt_cur;

/* ---- one atomic step per operation ---- */

#ifdef TSOIFY_EXPORT_MUTEX
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
#define STEP_BEGIN() pthread_mutex_lock(&big_lock)
#define STEP_END() pthread_mutex_unlock(&big_lock)
#define FAST_PATHS 0 /* checkers without atomic blocks may report data races */
#else
#define STEP_BEGIN() __VERIFIER_atomic_begin()
#define STEP_END() __VERIFIER_atomic_end()
/* Every step is one more thing for the checker to interleave, so a thread
 * skips steps that cannot do anything, looking outside a step at state only
 * it can add to: its registration and the length of its own buffer (others
 * only ever empty it). */
#define FAST_PATHS 1
#endif

static pthread_t ids[RT_MAX_THREADS]; /* pthread_self() of each started thread */
static uint8_t registered[RT_MAX_THREADS];
static struct {
  void *(*fn)(void *);
  void *arg;
} starts[RT_MAX_THREADS];
static int nthreads = 1; /* 0 is main; may pass RT_MAX_THREADS just before limit() */
#define NT (nthreads < RT_MAX_THREADS ? nthreads : RT_MAX_THREADS)
static int initialised;
static int atomic_owner = -1, atomic_depth; /* the program's __VERIFIER_atomic blocks */

static _Noreturn void limit(const char *what) { __assert_fail(what, "tsoify export runtime", 0, "tsoify"); }

/* Only runtime code touches runtime state, always inside a step. */
static int current(void) {
  pthread_t me = pthread_self();
  for (int t = 1; t < NT; t++)
    if (registered[t] && ids[t] == me) return t;
  return 0;
}

static void op_begin(void) {
  STEP_BEGIN();
  if (!initialised) rt_mm_init(), initialised = 1;
  rt_cur = current();
}

static void op_end(void) { STEP_END(); }

/* ---- what choice.c does natively ---- */

/* The one choice point. Kept out of line under this name: `verify --model
 * sc` on an export replaces it by its own exact choice (ABI.md). */
__attribute__((noinline)) uint32_t rt_choose(uint32_t n, int kind) {
  (void)kind;
  if (n <= 1) return 0;
  uint32_t v = __VERIFIER_nondet_uint();
  __VERIFIER_assume(v < n);
  return v;
}

_Noreturn void rt_end(int status, uint32_t loc, const char *fmt, ...) {
  (void)status, (void)loc;
  limit(fmt ? fmt : "tsoify export runtime: internal error");
}

uint64_t rt_value_of(const void *bytes, uint32_t size) {
  (void)bytes, (void)size;
  return 0;
}

/* await blocking is the native explorer's (await.c); the export's checker
 * runs spin loops as they are */
void rt_await_read(int t, const void *addr, uint32_t size, const void *bytes) {
  (void)t, (void)addr, (void)size, (void)bytes;
}

/* ---- flushing: what the scheduler does natively ---- */

static int pend_kind, pend_need;
static const void *pend_addr;
static uint64_t pend_size;

void rt_pending(int kind, const void *addr, uint64_t size) {
  pend_kind = kind, pend_addr = addr, pend_size = size;
}

void rt_pending_need(int need) { pend_need = need; }

/* The operation about to run may observe buffered stores: let any sequence
 * of flushes happen first, chosen one at a time (stop, or which entry).
 * Which buffers may flush: those holding bytes the operation reads or
 * writes, the caller's own when it drains or needs room, and, closed
 * under "holds an address another of them holds", every buffer whose
 * flushes could be ordered against theirs. A flush of any other buffer
 * touches nothing the operation or those flushes touch, so it commutes
 * with them and can wait for an operation that observes it: every TSO/PSO
 * execution has an equivalent one whose flushes all happen here.
 *
 * Each choice is one more branch for the checker, so only one order of
 * each class of equivalent flush sequences is offered: two adjacent
 * flushes of different buffers and disjoint bytes commute, so they come in
 * increasing buffer order; and the caller's own flushes must be followed by
 * another buffer's flush (at the end of the sequence they are the same as
 * flushing later: the caller's load forwards the same bytes from its
 * buffer, its drain or eviction flushes them in the same order). */
struct flush {
  uint8_t buf;
  uint32_t idx;
  uintptr_t lo, hi;
};

static int after(const struct flush *f, const struct flush *last) {
  return !last || f->buf > last->buf || f->buf == last->buf || (f->lo < last->hi && last->lo < f->hi);
}

void rt_sched_point(void) {
  int t = rt_cur;
  uint8_t in[RT_MAX_THREADS] = {0};
  int drains = pend_kind == PEND_NONE || pend_need != NEED_NONE;
  for (int u = 0; u < NT; u++)
    in[u] = (u == t && drains) || (pend_kind != PEND_NONE && rt_mm_buffer_overlaps(u, pend_addr, pend_size));
  for (int grew = 1; grew;) {
    grew = 0;
    for (int u = 0; u < NT; u++)
      for (int v = 0; v < NT && !in[u]; v++)
        if (in[v] && rt_mm_buffers_overlap(u, v)) in[u] = 1, grew = 1;
  }
  if (atomic_owner == t) /* inside its atomic block only its own buffer flushes */
    for (int u = 0; u < NT; u++) in[u] = u == t && in[u];
  enum { MAX = RT_MAX_THREADS * RT_EXPORT_MAX_BOUND };
  struct flush last;
  int flushed = 0;
  for (;;) {
    struct flush opt[MAX];
    uint32_t idx[MAX];
    int n = 0;
    for (int u = 0; u < NT; u++) {
      if (!in[u]) continue;
      int k = rt_mm_flush_options(u, idx, MAX - n);
      for (int i = 0; i < k; i++) {
        struct flush *f = &opt[n];
        uint32_t size;
        f->buf = (uint8_t)u, f->idx = idx[i];
        rt_mm_entry_range(u, idx[i], &f->lo, &size);
        f->hi = f->lo + size;
        if (after(f, flushed ? &last : 0)) n++;
      }
    }
    /* an own flush only if another buffer's can follow it */
    int m = 0;
    for (int i = 0; i < n; i++) {
      int ok = opt[i].buf != t;
      for (int j = 0; j < n && !ok; j++) ok = opt[j].buf != t && after(&opt[j], &opt[i]);
      if (ok) opt[m++] = opt[i];
    }
    int may_stop = !flushed || last.buf != t;
    if (!m) break; /* (a dead end after an own flush only repeats a shorter sequence) */
    uint32_t c = rt_choose((uint32_t)m + (uint32_t)may_stop, TSOIFY_CH_SCHEDULE);
    if (may_stop && c-- == 0) break;
    rt_mm_flush_entry(opt[c].buf, opt[c].idx);
    last = opt[c], flushed = 1;
  }
  pend_kind = PEND_NONE, pend_need = NEED_NONE;
}

/* A full fence of the caller (sync calls, thread exit): drain its buffer. */
static void drain_here(void) {
  rt_pending(PEND_NONE, 0, 0);
  rt_sched_point();
  rt_mm_drain(rt_cur, 0);
}

static void fence_step(void) {
  if (FAST_PATHS && (!initialised || !rt_mm_pending(current()))) return; /* nothing to drain */
  op_begin();
  drain_here();
  op_end();
}

/* ---- the memory operations (api.c), one step each ---- */

void __tsoify_load(const void *addr, void *dst, uint64_t size, uint32_t order, uint32_t loc) {
  op_begin();
  rt_impl_load(addr, dst, size, order, loc);
  op_end();
}

void __tsoify_store(void *addr, const void *src, uint64_t size, uint32_t order, uint32_t loc) {
  op_begin();
  rt_impl_store(addr, src, size, order, loc);
  op_end();
}

void rt_piece_load(const void *addr, void *dst, uint64_t size, uint32_t order, uint32_t loc) {
  __tsoify_load(addr, dst, size, order, loc);
}

void rt_piece_store(void *addr, const void *src, uint64_t size, uint32_t order, uint32_t loc) {
  __tsoify_store(addr, src, size, order, loc);
}

void __tsoify_rmw(void *addr, void *val, uint64_t size, uint32_t op, uint32_t order, uint32_t loc) {
  op_begin();
  rt_impl_rmw(addr, val, size, op, order, loc);
  op_end();
}

uint32_t __tsoify_cmpxchg(void *addr, void *expected, const void *desired, uint64_t size, uint32_t succ, uint32_t fail,
                          uint32_t loc) {
  op_begin();
  uint32_t ok = rt_impl_cmpxchg(addr, expected, desired, size, succ, fail, loc);
  op_end();
  return ok;
}

void __tsoify_fence(uint32_t order, uint32_t loc) {
  op_begin();
  rt_impl_fence(order, loc);
  op_end();
}

void __tsoify_stack_release(void *addr, uint64_t size) {
  op_begin();
  rt_impl_stack_release(addr, size);
  op_end();
}

/* ---- threads: real pthreads, with an index and fence semantics ---- */

static void *thread_start(void *p) {
  int t = (int)(intptr_t)p;
  if (!FAST_PATHS) STEP_BEGIN();
  ids[t] = pthread_self(); /* only t writes it; nobody else needs it */
  registered[t] = 1;
  void *(*fn)(void *) = starts[t].fn; /* written before pthread_create */
  void *arg = starts[t].arg;
  if (!FAST_PATHS) STEP_END();
  void *ret = fn(arg);
  fence_step(); /* thread exit flushes the buffer */
  if (atomic_owner == t) { /* ended inside its atomic block */
    op_begin();
    atomic_owner = -1, atomic_depth = 0;
    op_end();
  }
  return ret;
}

int __tsoify_pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
  fence_step(); /* the child sees everything stored before */
  if (!FAST_PATHS) STEP_BEGIN();
  int t = __atomic_fetch_add(&nthreads, 1, __ATOMIC_SEQ_CST);
  if (!FAST_PATHS) STEP_END();
  if (t >= RT_MAX_THREADS) limit("tsoify export: more threads than RT_MAX_THREADS (16)");
  starts[t].fn = fn; /* slot t is ours alone */
  starts[t].arg = arg;
  return pthread_create(out, attr, thread_start, (void *)(intptr_t)t);
}

/* Calls that wait drain after the wait: the buffer may still flush while
 * the thread waits, as it would natively. */
int __tsoify_pthread_join(pthread_t t, void **ret) {
  int r = pthread_join(t, ret);
  fence_step();
  return r;
}

_Noreturn void __tsoify_pthread_exit(void *ret) {
  op_begin();
  drain_here();
  if (atomic_owner == rt_cur) atomic_owner = -1, atomic_depth = 0;
  op_end();
  pthread_exit(ret);
}

pthread_t __tsoify_pthread_self(void) { return pthread_self(); }

int __tsoify_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
  fence_step();
  return pthread_mutex_init(m, a);
}

int __tsoify_pthread_mutex_destroy(pthread_mutex_t *m) { return pthread_mutex_destroy(m); }

int __tsoify_pthread_mutex_lock(pthread_mutex_t *m) {
  int r = pthread_mutex_lock(m);
  fence_step();
  return r;
}

int __tsoify_pthread_mutex_trylock(pthread_mutex_t *m) {
  int r = pthread_mutex_trylock(m);
  fence_step();
  return r;
}

int __tsoify_pthread_mutex_unlock(pthread_mutex_t *m) {
  fence_step(); /* the critical section's stores are visible before the release */
  return pthread_mutex_unlock(m);
}

int __tsoify_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) { return pthread_cond_init(c, a); }

int __tsoify_pthread_cond_destroy(pthread_cond_t *c) { return pthread_cond_destroy(c); }

int __tsoify_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  fence_step();
  return pthread_cond_wait(c, m);
}

int __tsoify_pthread_cond_signal(pthread_cond_t *c) {
  fence_step();
  return pthread_cond_signal(c);
}

int __tsoify_pthread_cond_broadcast(pthread_cond_t *c) {
  fence_step();
  return pthread_cond_broadcast(c);
}

int __tsoify_yield(void) { return 0; }

/* The program's __VERIFIER_atomic_begin/end: drain on entry (as a locked
 * instruction would), then the checker's own atomic block; inside it no
 * other buffer flushes, and its end drains. Nested blocks are one block. */
void __tsoify_atomic_begin(void) {
  op_begin();
  int nested = atomic_owner == rt_cur;
  if (nested) atomic_depth++;
  else drain_here();
  op_end();
  if (nested) return;
  __VERIFIER_atomic_begin();
  op_begin();
  atomic_owner = rt_cur;
  atomic_depth = 1;
  op_end();
}

void __tsoify_atomic_end(void) {
  op_begin();
  int last = atomic_owner == rt_cur && --atomic_depth == 0;
  if (last) rt_mm_drain(rt_cur, 0), atomic_owner = -1;
  op_end();
  if (last) __VERIFIER_atomic_end();
}

/* ---- the heap: the checker's malloc, with the block size in front so
 * free can drop the caller's buffered stores into the block ---- */

struct block {
  uint64_t size, pad; /* 16 bytes keep the payload aligned */
};

void *__tsoify_malloc(size_t n) {
  struct block *b = malloc(sizeof *b + n);
  if (!b) return 0;
  b->size = n;
  return b + 1;
}

void *__tsoify_calloc(size_t n, size_t m) {
  if (m && n > (size_t)-1 / m - sizeof(struct block)) return 0;
  struct block *b = calloc(1, sizeof *b + n * m);
  if (!b) return 0;
  b->size = n * m;
  return b + 1;
}

void __tsoify_free(void *p) {
  if (!p) return;
  struct block *b = (struct block *)p - 1;
  op_begin();
  rt_mm_drop(rt_cur, p, b->size);
  op_end();
  free(b);
}

void *__tsoify_realloc(void *p, size_t n) {
  void *q = __tsoify_malloc(n);
  if (p && q) {
    uint64_t old = ((struct block *)p - 1)->size;
    __tsoify_memcpy(q, p, old < n ? old : n, 0);
    __tsoify_free(p);
  }
  return q;
}

void *__tsoify_libc_memcpy(void *dst, const void *src, size_t n) {
  __tsoify_memcpy(dst, src, n, 0);
  return dst;
}

void *__tsoify_libc_memset(void *dst, int c, size_t n) {
  __tsoify_memset(dst, (uint32_t)(unsigned char)c, n, 0);
  return dst;
}
