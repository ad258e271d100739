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
 *   - when buffered stores reach memory, two ways:
 *     choice (default): at the operations that could observe them, a
 *       sequence of flushes picked by rt_choose(), which is
 *       __VERIFIER_nondet_uint() bounded by __VERIFIER_assume (see
 *       rt_sched_point below): for checkers that enumerate nondet values;
 *     flusher threads (-DTSOIFY_EXPORT_FLUSHERS): each buffer is emptied by
 *       pthreads of its own, one step per flushed entry, so the relaxed
 *       behaviours are plain interleavings: for stateless model checkers
 *       (Nidhugg, GenMC) that explore schedules but not data choices.
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

#ifdef TSOIFY_EXPORT_FLUSHERS
#define FLUSHERS 1
#else
#define FLUSHERS 0
#endif

/* ---- byte loops for memcpy & co. (export.h says why) ---- */

void *rt_x_memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
  return dst;
}

void *rt_x_memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s)
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  else
    for (size_t i = n; i-- > 0;) d[i] = s[i];
  return dst;
}

void *rt_x_memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  for (size_t i = 0; i < n; i++) d[i] = (unsigned char)c;
  return dst;
}

int rt_x_memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* ---- hooks for `verify --model sc` (ABI.md, "verify on an export") ----
 *
 * Out of line under these names, so the pass can replace them when it
 * instruments an export: a step's bracket by a block that touches only
 * what the step declares, and the declarations (rt.h RT_TOUCH) by events.
 * For any other checker they are an atomic block and nothing. (At -O0 and
 * with only SROA and CFG clean-up after it, nothing removes the calls to
 * the empty function.) */
#if RT_DECLARES
__attribute__((noinline)) void rt_step_begin(void) { __VERIFIER_atomic_begin(); }
__attribute__((noinline)) void rt_step_end(void) { __VERIFIER_atomic_end(); }
__attribute__((noinline)) void rt_touch(uint64_t lo, uint64_t n, int how) { (void)lo, (void)n, (void)how; }
#endif

/* ---- one atomic step per operation ----
 *
 * Three ways, by build:
 *   atomic (default): each operation is a __VERIFIER_atomic_begin/end block.
 *   mutex: one global pthread mutex around each operation.
 *   mutex with flusher threads ("fine" locking, RT_FINE): a mutex per
 *     store buffer, held by every operation of its thread and by its
 *     flushers; the runtime's reads and writes of program memory are
 *     atomic instructions (rt_mem_* in memmodel.c; RMW and cmpxchg a
 *     compare-and-swap). Operations of different threads on different
 *     memory then share nothing, so a checker's partial order reduction
 *     sees them commute, as on the hardware; with one big lock every pair
 *     of steps would be ordered both ways. (No lock may be chosen by
 *     address: Nidhugg's addresses differ from one replay to the next.) */

#define FINE RT_FINE

#ifdef TSOIFY_EXPORT_MUTEX
static pthread_mutex_t big_lock = PTHREAD_MUTEX_INITIALIZER;
#define STEP_BEGIN() pthread_mutex_lock(&big_lock)
#define STEP_END() pthread_mutex_unlock(&big_lock)
#define FAST_PATHS 0 /* checkers without atomic blocks may report data races */
#else
#define STEP_BEGIN() rt_step_begin()
#define STEP_END() rt_step_end()
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

/* Checkers number threads from 0 (main) in creation order, flushers
 * included; each thread writes and reads only its own slot here, so
 * finding the caller's index races with nobody. Larger ids fall back to
 * scanning `ids`. */
#define TID_SLOTS (4 * RT_MAX_THREADS)
static uint8_t index_of_tid[TID_SLOTS]; /* thread index + 1 */

static _Noreturn void limit(const char *what) { __assert_fail(what, "tsoify export runtime", 0, "tsoify"); }

static void register_self(int t) {
  pthread_t me = pthread_self();
  if ((unsigned long)me < TID_SLOTS) index_of_tid[me] = (uint8_t)(t + 1);
  ids[t] = me;
  registered[t] = 1;
}

/* Only runtime code touches runtime state, always inside a step. */
static int current(void) {
  pthread_t me = pthread_self();
  if ((unsigned long)me < TID_SLOTS && index_of_tid[me]) return index_of_tid[me] - 1;
  for (int t = 1; t < NT; t++)
    if (registered[t] && ids[t] == me) return t;
  return 0;
}

#if FINE
static pthread_mutex_t buffer_lock[RT_MAX_THREADS];

int rt_x_self(void) { return current(); }

static void publish(int t);
static void op_begin(void) { pthread_mutex_lock(&buffer_lock[current()]); }
static void op_end(void) {
  int t = current();
  publish(t);
  pthread_mutex_unlock(&buffer_lock[t]);
}
#define FLUSHER_BEGIN(t) pthread_mutex_lock(&buffer_lock[t])
#define FLUSHER_END(t) pthread_mutex_unlock(&buffer_lock[t])
#else
int rt_cur;

static void op_begin(void) {
  STEP_BEGIN();
  if (!initialised) rt_mm_init(), initialised = 1;
  rt_cur = current();
}

static void publish(int t);
static void op_end(void) {
  publish(rt_cur);
  STEP_END();
}
#define FLUSHER_BEGIN(t) STEP_BEGIN()
#define FLUSHER_END(t) STEP_END()
#endif

/* ---- what choice.c does natively ---- */

/* The one choice point. Kept out of line under this name: `verify --model
 * sc` on an export replaces it by its own exact choice (ABI.md). */
__attribute__((noinline)) uint32_t rt_choose(uint32_t n, int kind) {
  (void)kind;
  if (n <= 1) return 0;
  /* with flusher threads the only choice left is a PSO eviction, which
   * __tsoify_store avoids by waiting for room; a store that alone needs
   * more entries than the bound cannot wait */
  if (FLUSHERS) limit("tsoify export: a store wider than the PSO buffer (--buffer-size K holds K*16 bytes); raise --buffer-size");
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
  if (FLUSHERS) return; /* flushes are not chosen here (and threads run at once) */
  pend_kind = kind, pend_addr = addr, pend_size = size;
}

void rt_pending_need(int need) {
  if (!FLUSHERS) pend_need = need;
}

/* The operation about to run may observe buffered stores: let any sequence
 * of flushes happen first, chosen one at a time (stop, or which entry).
 * Which entries may flush: those the operation could observe and those
 * whose flushes could be ordered against theirs (mark_flush_set below).
 * A flush of any other entry touches nothing the operation or those
 * flushes touch, so it commutes with them and can wait for an operation
 * that observes it: every TSO/PSO execution has an equivalent one whose
 * flushes all happen at such points.
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

/* field by field: a struct assignment would be llvm.memcpy */
static void copy_flush(struct flush *d, const struct flush *s) {
  d->buf = s->buf, d->idx = s->idx, d->lo = s->lo, d->hi = s->hi;
}

static int after(const struct flush *f, const struct flush *last) {
  return !last || f->buf > last->buf || f->buf == last->buf || rt_ranges_overlap(f->lo, f->hi - f->lo, last->lo, last->hi - last->lo);
}

/* Which entries may flush before the operation (bit i of may_flush[u]:
 * entry i of u's buffer, indices as they are now). Those holding bytes the
 * operation reads or writes, the caller's own when it drains or needs
 * room, and, closed under two rules: the entries that must leave before a marked one
 * (its buffer's older ones under TSO; under PSO the older ones to the same
 * bytes or before a barrier), and every other buffer's entries to bytes a
 * marked one writes (so their flushes can be ordered either way against
 * it). Flushing any other entry here commutes with the operation and with
 * the marked flushes, and it can wait for a step that observes it.
 * (Before, the closure took whole buffers: a buffer holding one address a
 * marked entry holds brought all its entries, and each could then reach
 * memory at many steps: many more executions of one state.) Inside the
 * program's atomic block, none to bytes the block already accessed. */
static uint32_t may_flush[RT_MAX_THREADS];

/* Inside the program's atomic block nothing else happens, so natively any
 * flushes the block could see come before it. Offering every sequence of
 * them where the block begins would be one branch per sequence, most of
 * them failing the block's assume. Instead a flush comes at the block's
 * first access to its bytes (a store in the block is an observing point
 * too, see __tsoify_store), never after: an entry to bytes the block has
 * already read or written may not leave inside it, nor may the entries
 * that wait for it. That reaches what flushing before the block reaches:
 * a flush the block never observes can wait until after it. */
enum { BLOCK_RANGES = 64 };
static struct {
  uintptr_t lo;
  uint64_t n;
} block_seen[BLOCK_RANGES];
static int block_seen_n;

static int block_touched(uintptr_t lo, uint64_t n) {
  for (int i = 0; i < block_seen_n; i++)
    if (rt_ranges_overlap(lo, n, block_seen[i].lo, block_seen[i].n)) return 1;
  return 0;
}

static void block_access(const void *addr, uint64_t n) {
  uintptr_t a = (uintptr_t)addr;
  for (int i = 0; i < block_seen_n; i++) /* (a range already held adds nothing) */
    if (block_seen[i].lo <= a && a + n <= block_seen[i].lo + block_seen[i].n) return;
  if (block_seen_n == BLOCK_RANGES) limit("tsoify export: an atomic block accesses more than 64 separate ranges");
  block_seen[block_seen_n].lo = a, block_seen[block_seen_n].n = n, block_seen_n++;
}

/* Mark entry i of u; inside the program's atomic block (`in_block`) not if
 * it holds bytes the block already accessed (block_seen above; what would
 * have to leave before it then waits too, unless marked for itself). */
static int mark(int u, uint32_t i, int in_block) {
  if (may_flush[u] >> i & 1) return 0;
  if (in_block) {
    uintptr_t lo;
    uint32_t size;
    rt_mm_entry_range(u, i, &lo, &size);
    if (block_touched(lo, size)) return 0;
  }
  may_flush[u] |= 1u << i;
  return 1;
}

/* The pending operation empties the caller's buffer or needs room in it. */
static int drains_own(void) { return pend_kind == PEND_NONE || pend_need != NEED_NONE; }

static void mark_flush_set(int t) {
  int drains = drains_own(), in_block = atomic_owner == t;
  for (int u = 0; u < RT_MAX_THREADS; u++) may_flush[u] = 0;
  for (int u = 0; u < NT; u++) {
    uint32_t n = (uint32_t)rt_mm_pending_unobserved(u);
    for (uint32_t i = 0; i < n; i++) {
      uintptr_t lo;
      uint32_t size;
      rt_mm_entry_range(u, i, &lo, &size);
      if ((u == t && drains) ||
          (pend_kind != PEND_NONE && rt_ranges_overlap(lo, size, (uintptr_t)pend_addr, pend_size)))
        mark(u, i, in_block);
    }
  }
  for (int grew = 1; grew;) {
    grew = 0;
    for (int u = 0; u < NT; u++) {
      uint32_t n = (uint32_t)rt_mm_pending_unobserved(u);
      for (uint32_t i = 0; i < n; i++) {
        if (!(may_flush[u] >> i & 1)) continue;
        for (uint32_t j = 0; j < i; j++)
          if (rt_mm_must_precede(u, j, i)) grew |= mark(u, j, in_block);
        uintptr_t lo;
        uint32_t size;
        rt_mm_entry_range(u, i, &lo, &size);
        for (int v = 0; v < NT; v++) {
          if (v == u) continue;
          uint32_t m = (uint32_t)rt_mm_pending_unobserved(v);
          for (uint32_t k = 0; k < m; k++) {
            uintptr_t lo2;
            uint32_t size2;
            rt_mm_entry_range(v, k, &lo2, &size2);
            if (rt_ranges_overlap(lo, size, lo2, size2)) grew |= mark(v, k, in_block);
          }
        }
      }
    }
  }
}

/* Entry idx of u left: the marks above it move down one. */
static void unmark_flushed(int u, uint32_t idx) {
  uint32_t below = may_flush[u] & ((1u << idx) - 1);
  may_flush[u] = below | ((may_flush[u] >> (idx + 1)) << idx);
}

/* What choosing the flush set read (rt.h RT_TOUCH): whether any buffer
 * holds the operation's bytes, and for each buffer with a marked entry,
 * all of it and whether any other holds what its marked entries hold.
 * (Declared once for all buffers, through RT_SHADOW_ANY: a thread created
 * later stores into those shadows too.) */
static void declare_flush_set(int t) {
  if (!RT_DECLARES) return;
  if (drains_own()) RT_TOUCH_BUFFER(t); /* all of its own, or that it is empty */
  if (pend_kind != PEND_NONE) RT_TOUCH(RT_SHADOW_ANY(pend_addr), pend_size, TSOIFY_FP_READ);
  for (int u = 0; u < NT; u++) {
    if (!may_flush[u]) continue;
    int n = rt_mm_pending(u); /* declares u's whole buffer */
    for (int k = 0; k < n; k++) {
      if (!(may_flush[u] >> k & 1)) continue;
      uintptr_t lo;
      uint32_t size;
      rt_mm_entry_range(u, (uint32_t)k, &lo, &size);
      RT_TOUCH(RT_SHADOW_ANY(lo), size, TSOIFY_FP_READ);
    }
  }
}

void rt_sched_point(void) {
  if (FLUSHERS) return; /* flusher threads do it */
  int t = rt_cur;
  mark_flush_set(t);
  declare_flush_set(t);
  enum { MAX = RT_MAX_THREADS * RT_EXPORT_MAX_BOUND };
  struct flush last;
  int flushed = 0;
  for (;;) {
    struct flush opt[MAX];
    uint32_t idx[MAX];
    int n = 0;
    for (int u = 0; u < NT; u++) {
      if (!may_flush[u]) continue;
      int k = rt_mm_flush_options(u, idx, MAX - n);
      for (int i = 0; i < k; i++) {
        if (!(may_flush[u] >> idx[i] & 1)) continue;
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
      if (ok) copy_flush(&opt[m++], &opt[i]);
    }
    int may_stop = !flushed || last.buf != t;
    if (!m) break; /* (a dead end after an own flush only repeats a shorter sequence) */
    uint32_t c = rt_choose((uint32_t)m + (uint32_t)may_stop, TSOIFY_CH_SCHEDULE);
    if (may_stop && c-- == 0) break;
    rt_mm_flush_entry(opt[c].buf, opt[c].idx);
    unmark_flushed(opt[c].buf, opt[c].idx);
    copy_flush(&last, &opt[c]), flushed = 1;
  }
  if (atomic_owner == t && (pend_kind == PEND_LOAD || pend_kind == PEND_WRITE)) block_access(pend_addr, pend_size);
  pend_kind = PEND_NONE, pend_need = NEED_NONE;
}

static int ring_mode(void);
static void ring_drain(int t);

/* Empty t's buffer: flush it, or with a ring wait for its flusher. */
static void own_drain(int t) {
  if (ring_mode()) ring_drain(t);
  else rt_mm_drain(t, 0);
}

/* A full fence of the caller (sync calls, thread exit): drain its buffer. */
static void drain_here(void) {
  rt_pending(PEND_NONE, 0, 0);
  rt_sched_point();
  own_drain(rt_cur);
}

static void fence_step(void) {
  if (ring_mode()) { /* no lock needed */
    ring_drain(current());
    return;
  }
  if (FAST_PATHS && (!initialised || !rt_mm_pending_unobserved(current()))) return; /* nothing to drain */
  op_begin();
  drain_here();
  op_end();
}

/* ---- flusher threads (-DTSOIFY_EXPORT_FLUSHERS) ----
 *
 * Flusher j of thread t repeatedly moves the j-th entry of t's buffer that
 * may leave now (TSO: the oldest; PSO: any whose address no older entry
 * holds and no store-store barrier holds back) to memory, one step per
 * entry. So every flush order is some interleaving: TSO needs one flusher
 * per thread, PSO as many as entries that may leave at once, at most the
 * bound K. The thread that creates t creates them right after t (main's:
 * at the start of main), so thread creation stays in program order, as
 * Nidhugg requires.
 *
 * Before it locks t's buffer a flusher looks at `flushable[t]`, the number
 * of t's entries that may leave, which t and the flushers publish with
 * atomic stores: with nothing for it to do it ends if t has finished (and
 * so drained), else it stops with __VERIFIER_assume(0). That schedule is
 * not an execution; the ones in which it looked later, or never, are, and
 * the look conflicts only with the steps that change `flushable[t]`. (A
 * flusher that locked first would be ordered against every step of t, and
 * the flushers of threads that never store would multiply the checker's
 * work.) */

static uint8_t finished[RT_MAX_THREADS];  /* t has ended (its buffer was drained); atomic */
static uint32_t flushable[RT_MAX_THREADS]; /* entries of t that may leave now; atomic */
#define ATOMIC_GET(v) __atomic_load_n(&(v), __ATOMIC_SEQ_CST)
#define ATOMIC_SET(v, x) __atomic_store_n(&(v), (x), __ATOMIC_SEQ_CST)

/* ---- TSO with flusher threads and fine locking: a ring per thread ----
 *
 * Under TSO a thread's buffer has one reader, its flusher, which takes the
 * oldest entry: a single-producer single-consumer ring. The
 * owner writes an entry, then bumps `ring_tail[t]`; the flusher writes the
 * entry at `ring_head[t]` to memory, then bumps the head. Both counters
 * are atomics that only one side writes, so the checker sees the owner and
 * its flusher conflict only where one reads what the other wrote, instead
 * of at every step (with a lock around each step the flusher was ordered
 * against each step of its thread, which multiplied Nidhugg's and GenMC's
 * work).
 *
 * The owner reads the head only when it must, keeping the last value it
 * saw (`known_head`, a lower bound: only the flusher moves the head):
 *   - a load that overlaps no entry in [known_head, tail) reads memory
 *     (the buffer can only have shrunk since). One that does takes t's
 *     buffer lock, which the flusher holds from its memory write to its
 *     head bump, reads the head, and takes the newest buffered bytes and
 *     the rest from memory. (Without the lock an entry written to memory
 *     but not yet counted, then overwritten by another thread, would be
 *     forwarded: mixed-own caught it.) So the flusher's lock conflicts
 *     only with such loads;
 *   - a store into a full buffer, a drain (fence, locked instruction, sync
 *     call, thread end) and freed memory with entries wait with `assume`
 *     for the flusher instead of flushing themselves. A wait is not an
 *     execution when it fails: the schedules in which the flusher ran
 *     first are. (Memory that dies waits for its entries to reach memory,
 *     where the native runtime drops them: only a racy read of dying
 *     memory could tell.) */
struct ring_slot {
  uintptr_t addr;
  uint32_t size;
  rt_val val;
};
static struct ring_slot ring[RT_MAX_THREADS][RT_EXPORT_MAX_BOUND];
static uint32_t ring_head[RT_MAX_THREADS];  /* entries t's flusher wrote to memory; atomic */
static uint32_t ring_tail[RT_MAX_THREADS];  /* entries t appended; atomic */
static uint32_t known_head[RT_MAX_THREADS]; /* t's last look at ring_head[t]; t only */

static int ring_mode(void) { return FINE && RT_MODEL == TSOIFY_MODEL_TSO; }

static uint32_t look_head(int t) { return known_head[t] = ATOMIC_GET(ring_head[t]); }

static const struct ring_slot *slot_at(int t, uint32_t k) { return &ring[t][k % RT_BOUND]; }

static int slot_overlaps(const struct ring_slot *e, uintptr_t a, uint64_t n) { return rt_ranges_overlap(e->addr, e->size, a, n); }

/* Bytes of [a, a+n) that entries [from, tail) of t hold, newest first,
 * into *v; returns a bit per byte covered. */
static uint32_t ring_view(int t, uint32_t from, uint32_t tail, uintptr_t a, uint32_t n, rt_val *v) {
  uint32_t covered = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t k = tail; k-- > from;) {
      const struct ring_slot *e = slot_at(t, k);
      if (slot_overlaps(e, a + i, 1)) {
        rt_val_set_byte(v, i, rt_val_byte(e->val, (uint32_t)(a + i - e->addr)));
        covered |= 1u << i;
        break;
      }
    }
  return covered;
}

static int ring_holds(int t, uint32_t from, uint32_t tail, uintptr_t a, uint64_t n) {
  for (uint32_t k = from; k < tail; k++)
    if (slot_overlaps(slot_at(t, k), a, n)) return 1;
  return 0;
}

static rt_val ring_load(int t, const void *addr, uint32_t n) {
  uintptr_t a = (uintptr_t)addr;
  uint32_t tail = ATOMIC_GET(ring_tail[t]);
  rt_val v;
  v.w[0] = v.w[1] = 0;
  if (!ring_view(t, known_head[t], tail, a, n, &v)) return rt_mem_read(addr, n);
  FLUSHER_BEGIN(t); /* t's buffer lock: no flush half done, [head, tail) is what memory lacks */
  v.w[0] = v.w[1] = 0;
  uint32_t covered = ring_view(t, look_head(t), tail, a, n, &v);
  if (covered != (1u << n) - 1) {
    rt_val m = rt_mem_read(addr, n);
    for (uint32_t i = 0; i < n; i++)
      if (!(covered >> i & 1)) rt_val_set_byte(&v, i, rt_val_byte(m, i));
  }
  FLUSHER_END(t);
  return v;
}

/* Wait until t's buffer is empty. */
static void ring_drain(int t) {
  uint32_t tail = ATOMIC_GET(ring_tail[t]);
  if (known_head[t] != tail) __VERIFIER_assume(look_head(t) == tail);
}

static void ring_store(int t, void *addr, uint32_t n, rt_val v) {
  uint32_t tail = ATOMIC_GET(ring_tail[t]);
  if (tail - known_head[t] >= RT_BOUND) __VERIFIER_assume(tail - look_head(t) < RT_BOUND); /* room */
  struct ring_slot *e = &ring[t][tail % RT_BOUND];
  e->addr = (uintptr_t)addr, e->size = n, e->val.w[0] = v.w[0], e->val.w[1] = v.w[1];
  ATOMIC_SET(ring_tail[t], tail + 1);
}

/* Memory [a, a+n) dies: wait until t's entries to it reached memory. */
static void ring_release(int t, const void *addr, uint64_t n) {
  uint32_t tail = ATOMIC_GET(ring_tail[t]);
  if (ring_holds(t, known_head[t], tail, (uintptr_t)addr, n)) __VERIFIER_assume(!ring_holds(t, look_head(t), tail, (uintptr_t)addr, n));
}

static void *ring_flusher(int t) {
  for (uint32_t h = 0;; h++) {
    if (ATOMIC_GET(ring_tail[t]) == h) {
      __VERIFIER_assume(ATOMIC_GET(finished[t]));
      return 0;
    }
    const struct ring_slot *e = slot_at(t, h);
    FLUSHER_BEGIN(t);
    rt_mem_write((void *)e->addr, e->size, e->val);
    ATOMIC_SET(ring_head[t], h + 1);
    FLUSHER_END(t);
  }
}

static int flushers_per_thread(void) { return RT_MODEL == TSOIFY_MODEL_PSO ? (int)RT_BOUND : 1; }

/* Inside a step of t, or of one of its flushers: publish what may leave. */
static void publish(int t) {
  if (!FLUSHERS) return;
  uint32_t idx[RT_EXPORT_MAX_BOUND];
  uint32_t n = (uint32_t)rt_mm_flush_options(t, idx, RT_EXPORT_MAX_BOUND); /* 0 when empty */
  if (ATOMIC_GET(flushable[t]) != n) ATOMIC_SET(flushable[t], n);
}

static void *flusher(void *p) {
  int t = (int)((intptr_t)p % RT_MAX_THREADS);
  uint32_t j = (uint32_t)((intptr_t)p / RT_MAX_THREADS);
  if (ring_mode()) return ring_flusher(t);
  for (;;) {
    if (ATOMIC_GET(flushable[t]) <= j) {
      __VERIFIER_assume(ATOMIC_GET(finished[t]));
      return 0;
    }
    FLUSHER_BEGIN(t);
    uint32_t idx[RT_EXPORT_MAX_BOUND];
    uint32_t n = (uint32_t)rt_mm_flush_options(t, idx, RT_EXPORT_MAX_BOUND);
    if (j < n) rt_mm_flush_entry(t, idx[j]);
    publish(t);
    FLUSHER_END(t);
  }
}

/* By the thread that creates t (outside a step). */
static void start_flushers(int t) {
  if (!FLUSHERS) return;
  for (intptr_t j = 0; j < flushers_per_thread(); j++) {
    pthread_t id;
    if (pthread_create(&id, 0, flusher, (void *)(j * RT_MAX_THREADS + t))) limit("tsoify export: could not start a flusher thread");
  }
}

/* With flushers a PSO store into a full buffer waits for one of them
 * instead of choosing an entry to evict (under TSO the eviction has no
 * choice, the oldest entry leaves). Inside a step of the caller. */
static int must_wait_for_room(int t, uint64_t size, uint32_t order) {
  if (!FLUSHERS || RT_MODEL != TSOIFY_MODEL_PSO || order == ORD_SEQ_CST /* drains */) return 0;
  uint64_t pieces = (size + RT_ENTRY_BYTES - 1) / RT_ENTRY_BYTES;
  return pieces <= RT_BOUND && rt_mm_pending(t) + pieces > RT_BOUND;
}

/* Thread t ends: thread exit flushes its buffer; then its flushers may end. */
static void thread_end(int t) {
  fence_step();
  if (!FLUSHERS && atomic_owner != t) return;
  op_begin();
  if (FLUSHERS) ATOMIC_SET(finished[t], 1);
  if (atomic_owner == t) atomic_owner = -1, atomic_depth = 0; /* ended inside its atomic block */
  op_end();
}

/* Where main starts and returns (the pass calls these in an export). Main
 * runs alone until it creates a thread, so the runtime sets up here. */
void __tsoify_main_start(void) {
  if (initialised) return;
  rt_mm_init();
  initialised = 1;
  register_self(0);
#if FINE
  for (int t = 0; t < RT_MAX_THREADS; t++) pthread_mutex_init(&buffer_lock[t], 0);
#endif
  start_flushers(0);
}

void __tsoify_main_end(void) {
  if (FLUSHERS) thread_end(0);
}

/* ---- the memory operations (api.c), one step each ---- */

void __tsoify_load(const void *addr, void *dst, uint64_t size, uint32_t order, uint32_t loc) {
  if (ring_mode()) {
    int t = current();
    for (uint64_t off = 0; off < size; off += RT_ENTRY_BYTES) { /* api.c's pieces */
      uint32_t n = rt_piece_len(size, off);
      rt_val_put((char *)dst + off, n, ring_load(t, (const char *)addr + off, n));
    }
    return;
  }
  op_begin();
  rt_impl_load(addr, dst, size, order, loc);
  op_end();
}

void __tsoify_store(void *addr, const void *src, uint64_t size, uint32_t order, uint32_t loc) {
  if (ring_mode()) {
    int t = current();
    if (order == ORD_SEQ_CST) ring_drain(t); /* seq_cst store = xchg: drain, then write memory (below) */
    for (uint64_t off = 0; off < size; off += RT_ENTRY_BYTES) {
      uint32_t n = rt_piece_len(size, off);
      rt_val v = rt_val_get((const char *)src + off, n);
      if (order == ORD_SEQ_CST) rt_mem_write((char *)addr + off, n, v);
      else ring_store(t, (char *)addr + off, n, v);
    }
    return;
  }
  op_begin();
  if (must_wait_for_room(rt_cur, size, order)) {
    op_end();
    __VERIFIER_assume(0); /* not an execution: in the ones that count, a flusher made room first */
  }
  if (!FLUSHERS && atomic_owner == rt_cur) { /* in the program's atomic block: flushes to its bytes come first */
    rt_pending(PEND_WRITE, addr, size);
    rt_sched_point();
  }
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
  if (ring_mode()) { /* locked: drain, then a compare-and-swap on memory (api.c; its drain finds nothing) */
    ring_drain(current());
    rt_impl_rmw(addr, val, size, op, order, loc);
    return;
  }
  op_begin();
  rt_impl_rmw(addr, val, size, op, order, loc);
  op_end();
}

uint32_t __tsoify_cmpxchg(void *addr, void *expected, const void *desired, uint64_t size, uint32_t succ, uint32_t fail,
                          uint32_t loc) {
  if (ring_mode()) {
    ring_drain(current());
    return rt_impl_cmpxchg(addr, expected, desired, size, succ, fail, loc);
  }
  op_begin();
  uint32_t ok = rt_impl_cmpxchg(addr, expected, desired, size, succ, fail, loc);
  op_end();
  return ok;
}

void __tsoify_fence(uint32_t order, uint32_t loc) {
  if (ring_mode()) { /* under TSO only mfence does anything */
    if (order == ORD_SEQ_CST) ring_drain(current());
    return;
  }
  op_begin();
  rt_impl_fence(order, loc);
  op_end();
}

void __tsoify_stack_release(void *addr, uint64_t size) {
  if (ring_mode()) {
    ring_release(current(), addr, size);
    return;
  }
  op_begin();
  rt_impl_stack_release(addr, size);
  op_end();
}

/* ---- threads: real pthreads, with an index and fence semantics ---- */

static void *thread_start(void *p) {
  int t = (int)(intptr_t)p;
  if (!FAST_PATHS && !FINE) STEP_BEGIN();
  register_self(t); /* only t writes its slots */
  void *(*fn)(void *) = starts[t].fn; /* written before pthread_create */
  void *arg = starts[t].arg;
  if (!FAST_PATHS && !FINE) STEP_END();
  void *ret = fn(arg);
  thread_end(t);
  return ret;
}

int __tsoify_pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
  fence_step(); /* the child sees everything stored before */
  if (!FAST_PATHS && !FINE) STEP_BEGIN();
  int t = __atomic_fetch_add(&nthreads, 1, __ATOMIC_SEQ_CST);
  if (!FAST_PATHS && !FINE) STEP_END();
  if (t >= RT_MAX_THREADS) limit("tsoify export: more threads than RT_MAX_THREADS (16)");
  starts[t].fn = fn; /* slot t is ours alone */
  starts[t].arg = arg;
  int r = pthread_create(out, attr, thread_start, (void *)(intptr_t)t);
  if (!r) start_flushers(t);
  return r;
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
  int t = rt_cur;
  op_end();
  thread_end(t);
  pthread_exit(ret);
}

pthread_t __tsoify_pthread_self(void) { return pthread_self(); }

/* The caller's index: its copy of each thread-local variable (pass/src/tls.rs). */
uint32_t __tsoify_thread_index(void) { return (uint32_t)current(); }

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
 * instruction would), then the checker's own atomic block; inside it
 * other buffers flush only at the block's first access to their bytes
 * (block_seen above), and its end drains. Nested blocks are one block. */
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
  block_seen_n = 0;
  op_end();
}

void __tsoify_atomic_end(void) {
  op_begin();
  int last = atomic_owner == rt_cur && --atomic_depth == 0;
  if (last) own_drain(rt_cur), atomic_owner = -1;
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
  if (ring_mode()) ring_release(current(), p, b->size);
  else {
    op_begin();
    rt_mm_drop(rt_cur, p, b->size);
    op_end();
  }
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
