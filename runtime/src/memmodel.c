/* memmodel.c - the memory: SC, x86-TSO and PSO store buffers.
 *
 * Program memory is the real memory at the real addresses; a store buffer
 * entry holds up to RT_ENTRY_BYTES bytes destined for one address range.
 * Buffers live in the runtime's own memory, never in the program's.
 *
 * This is the reference relaxed model: an entry leaves its buffer only at a
 * flush step that the scheduler offers as a choice (like a flusher thread per
 * buffer), or when its thread drains (fence, locked instruction, sync call,
 * exit) or evicts (bounded buffer full). It is exact by construction and is
 * the oracle that any cheaper flushing strategy is checked against.
 *
 *   TSO: one FIFO per thread: only the oldest entry can flush.
 *   PSO: one FIFO per thread and address: an entry can flush when no older
 *        entry of its thread overlaps it and no store-store barrier (release
 *        store or fence under PSO) separates it from an older entry.
 * Loads are byte-precise: each byte from the newest own entry covering it,
 * else memory. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"
#if RT_FINE
#include <pthread.h>
#endif

struct entry {
  uintptr_t addr;
  uint32_t size;
  uint32_t loc;
  uint32_t epoch; /* PSO: barrier generation the store was made in */
  uint32_t proc;  /* flush process that writes it */
  uint32_t sym;   /* the expression node of a value built from nondet values (sym.c), or 0 */
  rt_val val;     /* the bytes it writes */
};

#ifdef TSOIFY_EXPORT
#define BUFFER_CAPACITY RT_EXPORT_MAX_BOUND /* the export is always bounded */
static struct entry storage[RT_MAX_THREADS][BUFFER_CAPACITY];
#else
#define BUFFER_CAPACITY 4096u /* entries per thread, bounded or not */
#endif

struct buffer {
  struct entry *e; /* e[0] is the oldest; storage made once by rt_mm_init */
  uint32_t n;
  uint32_t epoch;
  uint32_t flushed; /* entries that left by a flush so far (room they made) */
  uint32_t since_drain; /* stores buffered since the thread's last drain */
};

static struct buffer buffers[RT_MAX_THREADS];

#ifndef TSOIFY_EXPORT
/* rt.h: which buffers hold entries and which are at the bound, kept at
 * every change of a count so the scheduler needs no call per thread. In
 * the data segment: the restore after each execution clears them with the
 * buffers. (Not in the export: an SC checker would see them as more
 * shared state.) */
uint64_t rt_mm_nonempty, rt_mm_at_bound;
static void count_changed(const struct buffer *b) {
  uint64_t bit = 1ull << (b - buffers);
  uint32_t k = RT_BOUND;
  rt_mm_nonempty = b->n ? rt_mm_nonempty | bit : rt_mm_nonempty & ~bit;
  rt_mm_at_bound = k && b->n >= k ? rt_mm_at_bound | bit : rt_mm_at_bound & ~bit;
}
#else
#define count_changed(b) ((void)0)
#endif

/* PSO flush processes: (thread, address) -> process id, numbered per thread
 * in the order the thread first stores to each address in an execution
 * (tsoify_channel.h gives the layout). The address lists live outside the
 * data segment (restoring them would cost a copy per execution); the
 * counts live inside it, so the worker's restore empties every list.
 * Lookups scan a thread's list from its newest address, where a loop that
 * fills an array finds it at once. */
static uintptr_t *pso_addrs; /* [RT_MAX_THREADS][TSOIFY_PSO_ADDRS_PER_THREAD] */
static uint32_t pso_n[RT_MAX_THREADS];
_Static_assert(RT_MAX_THREADS <= TSOIFY_PSO_THREAD_STRIDE, "PSO flush process ids interleave the threads");

static uint32_t flush_proc_for(int t, uintptr_t addr) {
#ifdef TSOIFY_EXPORT
  (void)t, (void)addr;
  return 0; /* process ids are for the explorer's reduction only */
#else
  if (RT_MODEL != TSOIFY_MODEL_PSO) return TSOIFY_FLUSH_PROC + (uint32_t)t;
  uintptr_t *mine = pso_addrs + (size_t)t * TSOIFY_PSO_ADDRS_PER_THREAD;
  uint32_t k = pso_n[t];
  while (k > 0 && mine[k - 1] != addr) k--;
  if (k == 0) { /* a new address: the next number */
    if (pso_n[t] == TSOIFY_PSO_ADDRS_PER_THREAD)
      rt_end(TSOIFY_ST_INTERNAL, 0, "thread %d buffered more than %u addresses under PSO", t, TSOIFY_PSO_ADDRS_PER_THREAD);
    mine[pso_n[t]++] = addr;
    k = pso_n[t];
  }
  /* mine[k - 1] == addr */
  return TSOIFY_PSO_FLUSH_PROC + (k - 1) * TSOIFY_PSO_THREAD_STRIDE + (uint32_t)t;
#endif
}

uint32_t rt_mm_flush_proc(int t, uint32_t idx) { return buffers[t].e[idx].proc; }

void rt_mm_entry_range(int t, uint32_t idx, uintptr_t *addr, uint32_t *size) {
  *addr = buffers[t].e[idx].addr;
  *size = buffers[t].e[idx].size;
}

int rt_mm_model(void) { return (int)RT_MODEL; }

void rt_mm_init(void) {
#ifdef TSOIFY_EXPORT
  for (int t = 0; t < RT_MAX_THREADS; t++) buffers[t].e = storage[t];
#else
  size_t bytes = (size_t)RT_MAX_THREADS * BUFFER_CAPACITY * sizeof(struct entry);
  struct entry *pool = rt_scratch(bytes);
  for (int t = 0; t < RT_MAX_THREADS; t++) buffers[t].e = pool + (size_t)t * BUFFER_CAPACITY;
  pso_addrs = rt_scratch((size_t)RT_MAX_THREADS * TSOIFY_PSO_ADDRS_PER_THREAD * sizeof *pso_addrs);
#endif
}

int rt_mm_pending(int t) {
  RT_TOUCH_BUFFER(t);
  return (int)buffers[t].n;
}

/* The same without a footprint (rt.h RT_TOUCH): for the export's look at
 * its own buffer outside a step, where only others' flushes can empty it,
 * and an empty buffer is what a drain would leave anyway. */
int rt_mm_pending_unobserved(int t) { return (int)buffers[t].n; }

/* Whether t has buffered a store since its last drain: a function of t's
 * own run, unlike rt_mm_pending, which other processes (the flushes)
 * change. */
int rt_mm_buffered_since_drain(int t) { return buffers[t].since_drain != 0; }

/* A drain that is not a sync call (thread exit, mfence) is a scheduling
 * point when the buffer holds stores: others may act before they reach
 * memory. Under reduction also when it held some since the last drain and
 * flush steps have emptied it since: whether the flushes came first is up
 * to other processes, and a step must not end here in some orders and run
 * on in others (the explorer moves a step as a whole: a load before the
 * exit that came as one step with it followed the exit's flushes, and
 * optimal DPOR lost store buffering's 0/0 outcome when the flushes were
 * tried first). */
int rt_drain_point_needed(int t) {
#ifdef TSOIFY_EXPORT
  return rt_mm_pending(t);
#else
  return rt_mm_pending(t) || (rt_shm->por && rt_mm_buffered_since_drain(t));
#endif
}

/* Unaligned accesses of one width (the program's accesses may be
 * unaligned; clang makes these single loads and stores, align 1). */
typedef uint16_t u16_any __attribute__((aligned(1), may_alias));
typedef uint32_t u32_any __attribute__((aligned(1), may_alias));
typedef uint64_t u64_any __attribute__((aligned(1), may_alias));

rt_val rt_val_get(const void *p, uint32_t n) {
  rt_val v;
  v.w[0] = v.w[1] = 0;
  switch (n) {
  case 1: v.w[0] = *(const uint8_t *)p; break;
  case 2: v.w[0] = *(const u16_any *)p; break;
  case 4: v.w[0] = *(const u32_any *)p; break;
  case 8: v.w[0] = *(const u64_any *)p; break;
  case 16: v.w[0] = ((const u64_any *)p)[0], v.w[1] = ((const u64_any *)p)[1]; break;
  default:
    RT_SPLIT_ACCESS();
    for (uint32_t i = 0; i < n; i++) rt_val_set_byte(&v, i, ((const uint8_t *)p)[i]);
  }
  return v;
}

void rt_val_put(void *p, uint32_t n, rt_val v) {
  switch (n) {
  case 1: *(uint8_t *)p = (uint8_t)v.w[0]; break;
  case 2: *(u16_any *)p = (uint16_t)v.w[0]; break;
  case 4: *(u32_any *)p = (uint32_t)v.w[0]; break;
  case 8: *(u64_any *)p = v.w[0]; break;
  case 16: ((u64_any *)p)[0] = v.w[0], ((u64_any *)p)[1] = v.w[1]; break;
  default:
    RT_SPLIT_ACCESS();
    for (uint32_t i = 0; i < n; i++) ((uint8_t *)p)[i] = rt_val_byte(v, i);
  }
}

static int overlaps(const struct entry *e, uintptr_t a, uint64_t n) { return rt_ranges_overlap(e->addr, e->size, a, n); }

/* Each byte from the newest own entry covering it, else memory; *src gets
 * TSOIFY_SRC_* bits saying where the bytes came from. The bytes that come
 * from memory are read in one access of the load's width. */
static rt_val view(int t, const void *addr, uint32_t size, uint32_t *src) {
  struct buffer *b = &buffers[t];
  uintptr_t a = (uintptr_t)addr;
  RT_TOUCH(RT_SHADOW(t, a), size, TSOIFY_FP_READ); /* which own entries cover it */
  if (!b->n) { /* the common case */
    *src = TSOIFY_SRC_MEMORY;
    return rt_mem_read(addr, size);
  }
  rt_val v;
  v.w[0] = v.w[1] = 0;
  uint32_t from_memory = 0; /* bit i: byte i comes from memory */
  for (uint32_t i = 0; i < size; i++) {
    const struct entry *hit = 0;
    for (uint32_t k = b->n; k-- > 0;)
      if (overlaps(&b->e[k], a + i, 1)) {
        hit = &b->e[k];
        break;
      }
    if (hit) rt_val_set_byte(&v, i, rt_val_byte(hit->val, (uint32_t)(a + i - hit->addr)));
    else from_memory |= 1u << i;
  }
  *src = (from_memory ? TSOIFY_SRC_MEMORY : 0) | (from_memory != (1u << size) - 1 ? TSOIFY_SRC_OWN_BUFFER : 0);
  if (from_memory) {
    rt_val m = rt_mem_read(addr, size);
    for (uint32_t i = 0; i < size; i++)
      if (from_memory >> i & 1) rt_val_set_byte(&v, i, rt_val_byte(m, i));
  }
  return v;
}

#ifndef TSOIFY_EXPORT
/* The expression node (sym.c) of what thread t reads at [a, a+size), as
 * view() takes the bytes: the newest own entry over them when it holds
 * exactly these bytes, else memory's. *mixed when symbolic bytes come in
 * another shape (partly from entries, partly from memory, or at another
 * width or offset). */
static uint32_t sym_seen(int t, uintptr_t a, uint32_t size, int *mixed) {
  const struct buffer *b = &buffers[t];
  int partial = 0;
  for (uint32_t k = b->n; k-- > 0;) {
    const struct entry *e = &b->e[k];
    if (!overlaps(e, a, size)) continue;
    if (!partial && e->addr == a && e->size == size) return e->sym;
    partial = 1;
    if (e->sym) {
      *mixed = 1;
      return 0;
    }
  }
  uint32_t m = rt_sym_mem_node(a, size, mixed);
  if (partial && m) *mixed = 1;
  return partial ? 0 : m;
}
#endif

void rt_mm_peek(int t, const void *addr, uint32_t size, void *out) {
  uint32_t src;
#ifndef TSOIFY_EXPORT
  if (rt_sym_stored) {
    int mixed = 0;
    uint32_t id = sym_seen(t, (uintptr_t)addr, size, &mixed);
    rt_sym_unseen(id, mixed);
  }
#endif
  rt_val_put(out, size, view(t, addr, size, &src));
}

void rt_mm_load(int t, const void *addr, uint32_t size, void *out, uint32_t loc) {
  uint32_t src;
#ifndef TSOIFY_EXPORT
  rt_heap_access(addr, size, 0, loc);
  if (rt_sym_stored | rt_sym_claimed[t]) {
    int mixed = 0;
    uint32_t id = rt_sym_stored ? sym_seen(t, (uintptr_t)addr, size, &mixed) : 0;
    rt_sym_read(t, (uintptr_t)addr, size, id, mixed);
  }
#endif
  rt_val v = view(t, addr, size, &src);
  rt_val_put(out, size, v);
  rt_event(TSOIFY_EV_LOAD, addr, size, v.w[0], loc, src, 0);
  rt_await_read(t, addr, size, out);
}

/* A store's bytes reach memory (at once, or at their flush), with the
 * expression node of their value (sym.c; 0 for a concrete one). */
static void write_memory(uintptr_t a, rt_val v, uint32_t n, uint32_t sym) {
  rt_mem_write((void *)a, n, v);
#ifndef TSOIFY_EXPORT
  if (sym | rt_sym_n_shadow) rt_sym_mem_write(a, n, sym);
#else
  (void)sym;
#endif
}

#if RT_FINE
/* An access of natural width and alignment is one atomic instruction.
 * Any other (unaligned, or 3, 5, ... bytes) goes through the aligned
 * 8-byte words it touches: an atomic load of each word, or a
 * compare-and-swap loop that changes just its bytes. One touching two
 * words holds `span_lock`, so two such accesses never interleave (an
 * access within one word cannot tell whether it came between the two
 * words of another: it commutes with the one it misses). */
#define RT_SEQ __ATOMIC_SEQ_CST
#define WIDTH_CASES(X) X(1, uint8_t) X(2, uint16_t) X(4, uint32_t) X(8, uint64_t)
static pthread_mutex_t span_lock = PTHREAD_MUTEX_INITIALIZER;

static int spans(uintptr_t a, uint32_t n) { return (a >> 3) != ((a + n - 1) >> 3); }

static rt_val word_bytes(uintptr_t a, uint32_t n) {
  rt_val v;
  v.w[0] = v.w[1] = 0;
  for (uintptr_t w = a & ~(uintptr_t)7; w < a + n; w += 8) {
    uint64_t x = __atomic_load_n((const uint64_t *)w, RT_SEQ);
    for (uint32_t k = 0; k < 8; k++)
      if (w + k >= a && w + k < a + n) rt_val_set_byte(&v, (uint32_t)(w + k - a), (uint8_t)(x >> (8 * k)));
  }
  return v;
}

static void word_store(uintptr_t a, rt_val v, uint32_t n) {
  for (uintptr_t w = a & ~(uintptr_t)7; w < a + n; w += 8) {
    uint64_t old = __atomic_load_n((const uint64_t *)w, RT_SEQ), new;
    do {
      new = old;
      for (uint32_t k = 0; k < 8; k++)
        if (w + k >= a && w + k < a + n)
          new = (new & ~((uint64_t)0xff << (8 * k))) | (uint64_t)rt_val_byte(v, (uint32_t)(w + k - a)) << (8 * k);
    } while (!__atomic_compare_exchange_n((uint64_t *)w, &old, new, 0, RT_SEQ, RT_SEQ));
  }
}

rt_val rt_mem_read(const void *addr, uint32_t n) {
  rt_val v;
  v.w[0] = v.w[1] = 0;
#define READ(W, T)                                        \
  if (n == W && !((uintptr_t)addr % W)) {                 \
    v.w[0] = __atomic_load_n((const T *)addr, RT_SEQ);    \
    return v;                                             \
  }
  WIDTH_CASES(READ)
#undef READ
  RT_SPLIT_ACCESS();
  int locked = spans((uintptr_t)addr, n);
  if (locked) pthread_mutex_lock(&span_lock);
  v = word_bytes((uintptr_t)addr, n);
  if (locked) pthread_mutex_unlock(&span_lock);
  return v;
}

void rt_mem_write(void *addr, uint32_t n, rt_val v) {
#define WRITE(W, T)                                       \
  if (n == W && !((uintptr_t)addr % W)) {                 \
    __atomic_store_n((T *)addr, (T)v.w[0], RT_SEQ);       \
    return;                                               \
  }
  WIDTH_CASES(WRITE)
#undef WRITE
  RT_SPLIT_ACCESS();
  int locked = spans((uintptr_t)addr, n);
  if (locked) pthread_mutex_lock(&span_lock);
  word_store((uintptr_t)addr, v, n);
  if (locked) pthread_mutex_unlock(&span_lock);
}

int rt_mem_cas(void *addr, rt_val *expected, rt_val desired, uint32_t n) {
#define CAS(W, T)                                                                    \
  if (n == W && !((uintptr_t)addr % W)) {                                            \
    T e = (T)expected->w[0];                                                         \
    int ok = __atomic_compare_exchange_n((T *)addr, &e, (T)desired.w[0], 0, RT_SEQ, RT_SEQ); \
    expected->w[0] = e;                                                              \
    return ok;                                                                       \
  }
  WIDTH_CASES(CAS)
#undef CAS
  rt_end(TSOIFY_ST_INTERNAL, 0, "tsoify export: an atomic read-modify-write of %u bytes at %p (only aligned 1, 2, 4 and 8 bytes)", n, addr);
}
#else
rt_val rt_mem_read(const void *addr, uint32_t n) {
  RT_TOUCH(addr, n, TSOIFY_FP_READ);
  return rt_val_get(addr, n);
}

void rt_mem_write(void *addr, uint32_t n, rt_val v) {
  RT_TOUCH(addr, n, TSOIFY_FP_WRITE);
  rt_val_put(addr, n, v);
}

int rt_mem_cas(void *addr, rt_val *expected, rt_val desired, uint32_t n) {
  RT_TOUCH(addr, n, TSOIFY_FP_READ | TSOIFY_FP_WRITE);
  rt_val old = rt_val_get(addr, n);
  int ok = old.w[0] == expected->w[0] && old.w[1] == expected->w[1];
  if (ok) rt_val_put(addr, n, desired);
  else expected->w[0] = old.w[0], expected->w[1] = old.w[1];
  return ok;
}
#endif

static void remove_entry(struct buffer *b, uint32_t idx) {
  RT_TOUCH_ENTRY(b - buffers, b->e[idx].addr, b->e[idx].size);
#ifdef TSOIFY_EXPORT
  /* field by field: a struct copy would be llvm.memmove, and a byte
   * copy would read the value at another width than it was written */
  for (uint32_t k = idx; k + 1 < b->n; k++) {
    struct entry *d = &b->e[k];
    const struct entry *s = &b->e[k + 1];
    d->addr = s->addr, d->size = s->size, d->loc = s->loc, d->epoch = s->epoch, d->proc = s->proc, d->sym = s->sym;
    d->val.w[0] = s->val.w[0], d->val.w[1] = s->val.w[1];
  }
#else
  memmove(&b->e[idx], &b->e[idx + 1], (b->n - idx - 1) * sizeof *b->e);
#endif
  b->n--;
  count_changed(b);
}

void rt_mm_flush_entry(int t, uint32_t idx) {
  struct buffer *b = &buffers[t];
  struct entry *e = &b->e[idx];
#ifndef TSOIFY_EXPORT
  /* a store issued before a free may reach memory after it: on the
   * hardware it lands in freed memory (the flush, not the store, races
   * with the free for the reduction: a buffered store touches nothing) */
  rt_heap_access((void *)e->addr, e->size, 2, e->loc);
#endif
  write_memory(e->addr, e->val, e->size, e->sym);
  rt_event(TSOIFY_EV_FLUSH, (void *)e->addr, e->size, e->val.w[0], e->loc, e->proc,
           (uint32_t)t | e->epoch << 8);
  remove_entry(b, idx);
  b->flushed++;
}

/* PSO: older entry j holds back entry i (same bytes, or a barrier between) */
static int pso_holds_back(const struct buffer *b, uint32_t j, uint32_t i) {
  return overlaps(&b->e[j], b->e[i].addr, b->e[i].size) || b->e[j].epoch < b->e[i].epoch;
}

static int pso_flushable(const struct buffer *b, uint32_t i) {
  for (uint32_t j = 0; j < i; j++)
    if (pso_holds_back(b, j, i)) return 0;
  return 1;
}

int rt_mm_must_precede(int t, uint32_t j, uint32_t i) {
  if (j >= i) return 0;
  return RT_MODEL == TSOIFY_MODEL_TSO || pso_holds_back(&buffers[t], j, i);
}

int rt_mm_flush_options(int t, uint32_t *idx, int max) {
  struct buffer *b = &buffers[t];
  RT_TOUCH_BUFFER(t);
  if (!b->n) return 0;
  if (max <= 0) rt_end(TSOIFY_ST_INTERNAL, 0, "more than %d alternatives at one scheduling point", RT_MAX_OPTIONS);
  if (RT_MODEL == TSOIFY_MODEL_TSO) {
    idx[0] = 0;
    return 1;
  }
  int n = 0;
  for (uint32_t i = 0; i < b->n; i++)
    if (pso_flushable(b, i)) {
      if (n == max) rt_end(TSOIFY_ST_INTERNAL, 0, "more than %d alternatives at one scheduling point", RT_MAX_OPTIONS);
      idx[n++] = i;
    }
  return n;
}

void rt_mm_drain(int t, uint32_t loc) {
  (void)loc;
  struct buffer *b = &buffers[t];
  RT_TOUCH_BUFFER(t);
  while (b->n) rt_mm_flush_entry(t, 0); /* oldest first: valid under TSO and PSO */
  b->since_drain = 0;
}

void rt_mm_barrier(int t) {
  if (RT_MODEL == TSOIFY_MODEL_PSO) buffers[t].epoch++;
}

/* A store is a scheduling point when it touches memory at once: under SC,
 * for locked (seq_cst) stores, and when a bounded buffer must evict first.
 * A plain buffered store is invisible to other threads until a flush step,
 * so running it without a scheduling point loses no behaviour. */
int rt_mm_full(int t) {
  uint32_t k = RT_BOUND;
  if (k) RT_TOUCH_BUFFER(t);
  return k && buffers[t].n >= k;
}

/* Under reduction, a store whose room in a bounded buffer depends on
 * flushes (the thread has buffered at least K stores, so in some order of
 * the flushes the buffer is full when it comes) starts a step of its own:
 * otherwise the step before it would end there in some executions and not
 * in others, and the explorer would move the operations before the store
 * only together with it (they need no flush; the store does). */
#ifndef TSOIFY_EXPORT /* the export has no reduction: only a full buffer stops a store */
static int may_need_room(int t) {
  uint32_t k = RT_BOUND;
  if (k) RT_TOUCH_BUFFER(t);
  return k && buffers[t].n + buffers[t].flushed >= k;
}
#endif

int rt_mm_store_needs_sched(int t, uint32_t order) {
  if (RT_MODEL == TSOIFY_MODEL_SC) return 1;
  if (order == ORD_SEQ_CST /* locked exchange on x86 */) return 1;
#ifdef TSOIFY_EXPORT
  return rt_mm_full(t);
#else
  return rt_shm->por ? may_need_room(t) : rt_mm_full(t);
#endif
}

static void append(struct buffer *b, uintptr_t a, uint32_t size, rt_val v, uint32_t loc, uint32_t sym) {
  if (b->n == BUFFER_CAPACITY)
    rt_end(TSOIFY_ST_INTERNAL, loc, "more than %u stores buffered by one thread; use --buffer-size to bound them", BUFFER_CAPACITY);
  RT_TOUCH_ENTRY(b - buffers, a, size);
  struct entry *e = &b->e[b->n++];
  count_changed(b);
  b->since_drain++;
  e->addr = a;
  e->size = size;
  e->loc = loc;
  e->epoch = b->epoch;
  e->proc = flush_proc_for((int)(b - buffers), a);
  e->sym = sym;
  e->val.w[0] = v.w[0], e->val.w[1] = v.w[1];
}

/* size <= RT_ENTRY_BYTES (api.c splits larger stores): one entry, and one
 * event, per store, so every entry's flush matches the store that made it */
void rt_mm_store(int t, void *addr, uint32_t size, const void *in, uint32_t order, uint32_t loc) {
  uintptr_t a = (uintptr_t)addr;
  rt_val v = rt_val_get(in, size);
  int model = RT_MODEL;
  uint32_t sym = 0;
#ifndef TSOIFY_EXPORT
  rt_heap_access(addr, size, 1, loc);
  if (rt_sym_on) sym = rt_sym_take_store(t, a, size);
#endif
  if (model == TSOIFY_MODEL_SC) {
    write_memory(a, v, size, sym);
    rt_event(TSOIFY_EV_STORE, addr, size, v.w[0], loc, 0, 0);
    return;
  }
  struct buffer *b = &buffers[t];
  if (order == ORD_SEQ_CST) { /* seq_cst store = xchg: drain, then write memory */
    rt_mm_drain(t, loc);
    write_memory(a, v, size, sym);
    rt_event(TSOIFY_EV_STORE, addr, size, v.w[0], loc, 0, 0);
    return;
  }
  if (model == TSOIFY_MODEL_PSO && (order == 5 || order == 6)) rt_mm_barrier(t); /* release store */
  uint32_t evicted = 0;
  if (rt_mm_full(t)) { /* full: the oldest entry (TSO) or a chosen one (PSO) leaves first */
    uint32_t idx[RT_MAX_OPTIONS];
    int m = rt_mm_flush_options(t, idx, RT_MAX_OPTIONS);
    uint32_t c = rt_choose((uint32_t)m, TSOIFY_CH_EVICT);
    rt_mm_flush_entry(t, idx[c]);
    evicted = 1;
  }
  append(b, a, size, v, loc, sym);
  /* With a bound, a store that fits only because earlier flushes made room
   * (whether it waited for them or not) happens after the first m of them,
   * m = what it needed (aux 4 | m << 8); one that would fit had none of the
   * thread's entries left yet does not depend on them (aux 1). */
  uint32_t needed = RT_BOUND && b->n + b->flushed > RT_BOUND ? b->n + b->flushed - RT_BOUND : 0;
  uint32_t how = evicted ? 2 : needed ? 4 | needed << 8 : 1;
  rt_event(TSOIFY_EV_STORE, addr, size, v.w[0], loc, how, b->e[b->n - 1].proc);
}

/* Memory that dies (free, end of a stack frame) takes the owner's pending
 * stores to it along: they are dropped, never written (the memory may be
 * reused at once). Other entries keep their places. */
void rt_mm_drop(int t, const void *addr, uint64_t size) {
  struct buffer *b = &buffers[t];
#ifndef TSOIFY_EXPORT
  if (rt_sym_n_shadow) rt_sym_drop((uintptr_t)addr, size);
#endif
  RT_TOUCH(RT_SHADOW(t, addr), size, TSOIFY_FP_READ);
  for (uint32_t k = 0; k < b->n;)
    if (overlaps(&b->e[k], (uintptr_t)addr, size)) {
#ifndef TSOIFY_EXPORT
      /* the explorer matches flushes with their stores, FIFO per process */
      const struct entry *e = &b->e[k];
      rt_event(TSOIFY_EV_DROP, (void *)e->addr, e->size, e->val.w[0], e->loc, e->proc, (uint32_t)t);
#endif
      remove_entry(b, k);
    } else {
      k++;
    }
}

int rt_mm_buffer_overlaps(int u, const void *addr, uint64_t size) {
  const struct buffer *b = &buffers[u];
  for (uint32_t k = 0; k < b->n; k++)
    if (overlaps(&b->e[k], (uintptr_t)addr, size)) return 1;
  return 0;
}

int rt_mm_buffers_overlap(int t, int u) {
  const struct buffer *b = &buffers[t];
  for (uint32_t k = 0; k < b->n; k++)
    if (rt_mm_buffer_overlaps(u, (void *)b->e[k].addr, b->e[k].size)) return 1;
  return 0;
}
