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
#ifndef TSOIFY_EXPORT
#include <sys/mman.h>
#endif
#include "rt.h"

struct entry {
  uintptr_t addr;
  uint32_t size;
  uint32_t loc;
  uint32_t epoch; /* PSO: barrier generation the store was made in */
  uint16_t proc;  /* flush process that writes it */
  uint8_t bytes[RT_ENTRY_BYTES];
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
};

static struct buffer buffers[RT_MAX_THREADS];

/* PSO flush processes: (thread, address) -> process id, numbered per thread
 * in the order the thread first stores to each address in an execution.
 * The address lists live outside the data segment (restoring them would
 * cost a copy per execution); the counts live inside it, so the worker's
 * restore empties every list. */
static uintptr_t *pso_addrs; /* [RT_MAX_THREADS][TSOIFY_PSO_PROCS_PER_THREAD] */
static uint32_t pso_n[RT_MAX_THREADS];

static uint16_t flush_proc_for(int t, uintptr_t addr) {
#ifdef TSOIFY_EXPORT
  (void)t, (void)addr;
  return 0; /* process ids are for the explorer's reduction only */
#else
  if (RT_MODEL != TSOIFY_MODEL_PSO) return (uint16_t)(TSOIFY_FLUSH_PROC + (unsigned)t);
  uintptr_t *mine = pso_addrs + (size_t)t * TSOIFY_PSO_PROCS_PER_THREAD;
  uint32_t base = TSOIFY_PSO_FLUSH_PROC + (uint32_t)t * TSOIFY_PSO_PROCS_PER_THREAD;
  for (uint32_t i = 0; i < pso_n[t]; i++)
    if (mine[i] == addr) return (uint16_t)(base + i);
  if (pso_n[t] == TSOIFY_PSO_PROCS_PER_THREAD)
    rt_end(TSOIFY_ST_INTERNAL, 0, "thread %d buffered more than %u addresses under PSO", t, TSOIFY_PSO_PROCS_PER_THREAD);
  mine[pso_n[t]] = addr;
  return (uint16_t)(base + pso_n[t]++);
#endif
}

uint16_t rt_mm_flush_proc(int t, uint32_t idx) { return buffers[t].e[idx].proc; }

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
  struct entry *pool = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pool == MAP_FAILED) abort();
  for (int t = 0; t < RT_MAX_THREADS; t++) buffers[t].e = pool + (size_t)t * BUFFER_CAPACITY;
  pso_addrs = mmap(0, (size_t)RT_MAX_THREADS * TSOIFY_PSO_PROCS_PER_THREAD * sizeof *pso_addrs, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pso_addrs == MAP_FAILED) abort();
#endif
}

int rt_mm_pending(int t) { return (int)buffers[t].n; }

static int overlaps(const struct entry *e, uintptr_t a, uint64_t n) { return e->addr < a + n && a < e->addr + e->size; }

/* Each byte from the newest own entry covering it, else memory; returns
 * TSOIFY_SRC_* bits saying where the bytes came from. */
static uint32_t view(int t, const void *addr, uint32_t size, void *out) {
  struct buffer *b = &buffers[t];
  uintptr_t a = (uintptr_t)addr;
  uint8_t *o = out;
  uint32_t src = 0;
  for (uint32_t i = 0; i < size; i++) {
    const struct entry *hit = 0;
    for (uint32_t k = b->n; k-- > 0;)
      if (overlaps(&b->e[k], a + i, 1)) {
        hit = &b->e[k];
        break;
      }
    if (hit) {
      o[i] = hit->bytes[a + i - hit->addr];
      src |= TSOIFY_SRC_OWN_BUFFER;
    } else {
      o[i] = ((const volatile uint8_t *)addr)[i];
      src |= TSOIFY_SRC_MEMORY;
    }
  }
  return src;
}

void rt_mm_peek(int t, const void *addr, uint32_t size, void *out) { view(t, addr, size, out); }

void rt_mm_load(int t, const void *addr, uint32_t size, void *out, uint32_t loc) {
  uint32_t src = view(t, addr, size, out);
  rt_event(TSOIFY_EV_LOAD, addr, size, rt_value_of(out, size), loc, src, 0);
  rt_await_read(t, addr, size, out);
}

static void write_memory(uintptr_t a, const uint8_t *bytes, uint32_t n) {
  volatile uint8_t *m = (volatile uint8_t *)a;
  for (uint32_t i = 0; i < n; i++) m[i] = bytes[i];
}

static void remove_entry(struct buffer *b, uint32_t idx) {
  memmove(&b->e[idx], &b->e[idx + 1], (b->n - idx - 1) * sizeof *b->e);
  b->n--;
}

void rt_mm_flush_entry(int t, uint32_t idx) {
  struct buffer *b = &buffers[t];
  struct entry *e = &b->e[idx];
  write_memory(e->addr, e->bytes, e->size);
  rt_event(TSOIFY_EV_FLUSH, (void *)e->addr, e->size, rt_value_of(e->bytes, e->size), e->loc, e->proc,
           (uint32_t)t | e->epoch << 8);
  remove_entry(b, idx);
}

static int pso_flushable(const struct buffer *b, uint32_t i) {
  for (uint32_t j = 0; j < i; j++)
    if (overlaps(&b->e[j], b->e[i].addr, b->e[i].size) || b->e[j].epoch < b->e[i].epoch) return 0;
  return 1;
}

int rt_mm_flush_options(int t, uint32_t *idx, int max) {
  struct buffer *b = &buffers[t];
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
  while (b->n) rt_mm_flush_entry(t, 0); /* oldest first: valid under TSO and PSO */
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
  return k && buffers[t].n >= k;
}

int rt_mm_store_needs_sched(int t, uint32_t order) {
  if (RT_MODEL == TSOIFY_MODEL_SC) return 1;
  if (order == 7 /* seq_cst: locked exchange on x86 */) return 1;
  uint32_t k = RT_BOUND;
  return k && buffers[t].n >= k;
}

static void append(struct buffer *b, uintptr_t a, uint32_t size, const uint8_t *in, uint32_t loc) {
  if (b->n == BUFFER_CAPACITY)
    rt_end(TSOIFY_ST_INTERNAL, loc, "more than %u stores buffered by one thread; use --buffer-size to bound them", BUFFER_CAPACITY);
  struct entry *e = &b->e[b->n++];
  e->addr = a;
  e->size = size;
  e->loc = loc;
  e->epoch = b->epoch;
  e->proc = flush_proc_for((int)(b - buffers), a);
  memcpy(e->bytes, in, size);
}

void rt_mm_store(int t, void *addr, uint32_t size, const void *in, uint32_t order, uint32_t loc) {
  uint32_t waited = order & RT_ORDER_WAITED;
  order &= ~RT_ORDER_WAITED;
  uintptr_t a = (uintptr_t)addr;
  const uint8_t *src = in;
  int model = RT_MODEL;
  if (model == TSOIFY_MODEL_SC) {
    write_memory(a, src, size);
    rt_event(TSOIFY_EV_STORE, addr, size, rt_value_of(in, size), loc, 0, 0);
    return;
  }
  struct buffer *b = &buffers[t];
  if (order == 7) { /* seq_cst store = xchg: drain, then write memory */
    rt_mm_drain(t, loc);
    write_memory(a, src, size);
    rt_event(TSOIFY_EV_STORE, addr, size, rt_value_of(in, size), loc, 0, 0);
    return;
  }
  if (model == TSOIFY_MODEL_PSO && (order == 5 || order == 6)) rt_mm_barrier(t); /* release store */
  /* one entry (and one event) per RT_ENTRY_BYTES piece, so every entry's
   * flush can be matched with the store that made it */
  for (uint32_t off = 0; off < size; off += RT_ENTRY_BYTES) {
    uint32_t n = size - off < RT_ENTRY_BYTES ? size - off : RT_ENTRY_BYTES;
    uint32_t k = RT_BOUND;
    uint32_t evicted = 0;
    if (k && b->n >= k) { /* full: the oldest entry (TSO) or a chosen one (PSO) leaves first */
      uint32_t idx[RT_MAX_OPTIONS];
      int m = rt_mm_flush_options(t, idx, RT_MAX_OPTIONS);
      uint32_t c = rt_choose((uint32_t)m, TSOIFY_CH_EVICT);
      rt_mm_flush_entry(t, idx[c]);
      evicted = 1;
    }
    append(b, a + off, n, src + off, loc);
    rt_event(TSOIFY_EV_STORE, (void *)(a + off), n, rt_value_of(src + off, n), loc, evicted ? 2 : waited && !off ? 3 : 1, b->e[b->n - 1].proc);
  }
}

/* Memory that dies (free, end of a stack frame) takes the owner's pending
 * stores to it along: they are dropped, never written (the memory may be
 * reused at once). Other entries keep their places. */
void rt_mm_drop(int t, const void *addr, uint64_t size) {
  struct buffer *b = &buffers[t];
  for (uint32_t k = 0; k < b->n;)
    if (overlaps(&b->e[k], (uintptr_t)addr, size)) remove_entry(b, k);
    else k++;
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
