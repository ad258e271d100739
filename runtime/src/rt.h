/* rt.h - internal interfaces of the tsoify runtime.
 *
 * Module map (one job each):
 *   choice.c   the single choice point, the event log, ending an execution
 *   threads.c  coroutine threads, the scheduler, pthread and sync calls
 *   memmodel.c store buffers: SC, x86-TSO and PSO memory
 *   api.c      the entry points the instrumentation calls (see ../ABI.md)
 *   libc.c     malloc/free, __VERIFIER_*, assert/abort/exit, outcomes
 *   await.c    await loops (block until a location read changes), --unroll
 *   sync.c     pthread_once, barriers, rwlocks, semaphores, thread-specific
 *              data, thread attributes
 *   server.c   process main: fork server, standalone run, info dump
 *   export.c   export mode only (-DTSOIFY_EXPORT, see ../ABI.md "Export
 *              mode"): replaces choice.c, threads.c, libc.c and server.c
 */
#ifndef TSOIFY_RT_H
#define TSOIFY_RT_H
#include <stddef.h>
#include <stdint.h>
#include "../include/tsoify_channel.h"

#ifdef TSOIFY_EXPORT
/* The export keeps its buffers in ordinary globals that an SC checker
 * models byte by byte: keep them small. */
#define RT_MAX_THREADS 16 /* = EXPORT_MAX_THREADS in pass/src/lib.rs (thread-locals) */
#define RT_EXPORT_MAX_BOUND 32 /* entries per buffer: the largest --buffer-size */
#else
#define RT_MAX_THREADS 64 /* = MAX_THREADS in pass/src/lib.rs (thread-locals) */
#endif
#define RT_ENTRY_BYTES 16 /* a buffer entry holds at most this many bytes */
/* An access wider than an entry is handled in pieces of at most
 * RT_ENTRY_BYTES: the length of the piece at offset off of size bytes. */
static inline uint32_t rt_piece_len(uint64_t size, uint64_t off) {
  return (uint32_t)(size - off < RT_ENTRY_BYTES ? size - off : RT_ENTRY_BYTES);
}
/* [a, a+n) and [b, b+m) share a byte. (No &&: the order of two different
 * objects may differ between a checker's replays of one execution, which
 * Nidhugg reports when a branch depends on it.) */
static inline int rt_ranges_overlap(uintptr_t a, uint64_t n, uintptr_t b, uint64_t m) { return (a < b + m) & (b < a + n); }
/* LLVM's AtomicOrdering numbers that the runtime tells apart (ABI.md) */
enum { ORD_RELEASE = 5, ORD_ACQ_REL = 6, ORD_SEQ_CST = 7 };
/* alternatives at one scheduling point: threads plus flushable entries */
#define RT_MAX_OPTIONS 1024

/* ---- the program's tables, emitted by the pass (weak: may be absent) ---- */
struct tsoify_loc {
  const char *file, *func, *what;
  uint32_t line, col, op, order; /* order: LLVM AtomicOrdering, 0 = not atomic */
};
struct tsoify_global {
  void *addr;
  uint64_t size;
  const char *name;
};

/* ---- sym.c (concolic tracking of wide nondet values; not in an export) ---- */
int rt_sym_active(void);
void rt_sym_init(void);
uint64_t rt_sym_nondet(uint32_t bits);
void rt_sym_end(void);
void rt_sym_mem_write(uintptr_t a, uint64_t n, uint32_t id);
uint32_t rt_sym_mem_node(uintptr_t a, uint64_t n, int *mixed);
void rt_sym_drop(uintptr_t a, uint64_t n);
uint32_t rt_sym_take_store(int t, uintptr_t a, uint64_t size);
void rt_sym_read(int t, uintptr_t a, uint64_t n, uint32_t id, int mixed);
void rt_sym_unseen(uint32_t id, int mixed);
void rt_sym_rmw(uintptr_t a, uint64_t n);
extern int rt_sym_on;             /* the program is instrumented for tracking */
extern uint32_t rt_sym_n_shadow; /* symbolic values in memory */
extern uint32_t rt_sym_stored;   /* a store took a node along (so buffers may hold some) */
extern uintptr_t rt_sym_claimed[];

/* ---- choice.c ---- */
extern struct tsoify_shm *rt_shm;
/* The model and bound: set per execution by verify, or fixed at export
 * (the pass's __tsoify_default_* constants). */
#ifdef TSOIFY_EXPORT
extern const uint32_t __tsoify_default_model, __tsoify_default_bound;
#define RT_MODEL __tsoify_default_model
#define RT_BOUND __tsoify_default_bound
#else
#define RT_MODEL (rt_shm->model)
#define RT_BOUND (rt_shm->bound)
#endif
/* location of the redirected call being made: instrumented code stores it
 * just before each call (ABI name __tsoify_cur_loc) */
#define rt_cur_loc __tsoify_cur_loc
extern uint32_t rt_cur_loc;
uint32_t rt_choose(uint32_t n, int kind);
uint64_t rt_probe_value(void); /* a probe's value for a wide nondet variable the search left open */
int rt_probe_echoes(void);      /* an echo probe gives this draw the previous draw's value */
/* a scheduling choice among processes (threads, flush processes) */
uint32_t rt_choose_proc(uint32_t n, const uint32_t *procs, uint64_t room_waiters); /* waiters: bit t, t waits for room */
/* a branch on a value built from wide nondet values (choice.c) */
void rt_branch_choice(uint32_t taken);
void rt_event(int kind, const void *addr, uint32_t size, uint64_t value, uint32_t loc, uint32_t aux,
              uint32_t aux2);
void rt_event_at(int kind, uint64_t addr, uint32_t size, uint64_t value, uint32_t loc, uint32_t aux,
                 uint32_t aux2);
_Noreturn void rt_end(int status, uint32_t loc, const char *fmt, ...);
uint64_t rt_value_of(const void *bytes, uint32_t size);

#ifdef TSOIFY_EXPORT
#define rt_event(...) ((void)0) /* no explorer to log for */
#define rt_event_at(...) ((void)0)
#endif

/* Footprint declarations (export with atomic-block steps only; ABI.md,
 * "verify on an export"). A checker sees a runtime step as one atomic
 * block and cannot tell what it touched, so it must order every two steps
 * of different threads. Each step therefore says what it reads and writes,
 * in two address spaces: program memory at its own addresses, and the
 * store buffers as shadow ranges above every user address:
 *   RT_SHADOW(u, a)  "u's buffer holds an entry for byte a" (bits 48-55:
 *                    u + 1; the whole buffer is [RT_SHADOW(u, 0),
 *                    RT_SHADOW(u + 1, 0)));
 *   RT_SHADOW_ANY(a) "some buffer holds an entry for byte a" (bits 48-55
 *                    zero), so a step can ask all buffers, even those of
 *                    threads not yet created, with one declaration.
 * A buffer entry's arrival and departure write both. rt_touch is an empty
 * function in the export, so other checkers ignore it; `verify --model sc`
 * replaces it by its own (the pass, export.rs) and turns each call into an
 * event with that footprint. */
#if defined(TSOIFY_EXPORT) && !defined(TSOIFY_EXPORT_MUTEX)
#define RT_DECLARES 1
#else
#define RT_DECLARES 0
#endif
#define RT_SHADOW_BIT (1ull << 63)
#define RT_SHADOW(u, a) (RT_SHADOW_BIT | (uint64_t)((u) + 1) << 48 | (uint64_t)(a))
#define RT_SHADOW_ANY(a) (RT_SHADOW_BIT | (uint64_t)(a))
#define RT_SHADOW_SPAN (1ull << 48) /* the length of one buffer's shadow */
#if RT_DECLARES
void rt_touch(uint64_t lo, uint64_t n, int how); /* how: TSOIFY_FP_READ or TSOIFY_FP_WRITE */
#define RT_TOUCH(lo, n, how) rt_touch((uint64_t)(lo), (uint64_t)(n), (how))
#else
#define RT_TOUCH(lo, n, how) ((void)0)
#endif
/* an entry of u for [a, a+n) arrives or leaves */
#define RT_TOUCH_ENTRY(u, a, n)                        \
  do {                                                 \
    RT_TOUCH(RT_SHADOW(u, a), n, TSOIFY_FP_WRITE);     \
    RT_TOUCH(RT_SHADOW_ANY(a), n, TSOIFY_FP_WRITE);    \
  } while (0)
/* the step depends on everything in u's buffer (its order, its count) */
#define RT_TOUCH_BUFFER(u) RT_TOUCH(RT_SHADOW(u, 0), RT_SHADOW_SPAN, TSOIFY_FP_READ)

/* ---- api.c ---- */
/* memcpy/memset move their 8-byte pieces through these, so each piece is
 * one operation: the ABI entry points natively, export.c's atomic wrappers
 * in export mode */
void rt_piece_load(const void *addr, void *dst, uint64_t size, uint32_t order, uint32_t loc);
void rt_piece_store(void *addr, const void *src, uint64_t size, uint32_t order, uint32_t loc);
#ifndef TSOIFY_EXPORT
#define rt_piece_load __tsoify_load
#define rt_piece_store __tsoify_store
#endif

/* ---- threads.c ---- */
#if defined(TSOIFY_EXPORT_MUTEX) && defined(TSOIFY_EXPORT_FLUSHERS)
/* export with fine locking (export.c): threads run runtime code at the
 * same time, so the caller's index is found per call, and the runtime's
 * own accesses to program memory are atomic instructions (memmodel.c) */
#define RT_FINE 1
int rt_x_self(void);
#define rt_cur (rt_x_self())
#else
#define RT_FINE 0
extern int rt_cur;          /* running thread id */
#endif
extern int rt_in_runtime;   /* >0 while runtime code runs for the program */
void rt_threads_init(void); /* before the fork loop: stacks etc. */
/* Run one execution to its end (rt_end jumps back here). */
void rt_run_execution(int (*user_main)(int, char **, char **), int argc, char **argv, char **envp);
/* End the current execution: back to rt_run_execution's caller, or exit the
 * process in a standalone run. */
_Noreturn void rt_leave_execution(void);
void rt_sched_point(void);  /* the current thread is about to do a visible operation */
/* A new thread running fn(arg), after the caller's scheduling point and
 * drain; returns its index (pthread_create's work, threads.c) */
int rt_spawn(void *(*fn)(void *), void *arg);
/* A sync call's scheduling point: not enabled until ready(obj, arg) holds;
 * the buffer is drained after it (threads.c). */
void rt_wait_until(int (*ready)(const void *obj, uint64_t arg), const void *obj, uint64_t arg);
/* ---- sync.c ---- */
void rt_run_key_destructors(int t);  /* thread t ends: its thread-specific values' destructors */
/* The current thread is about to end the whole process (main returning,
 * exit(), abort()): a scheduling point, so other threads can run first;
 * with wait_for_others, not before they cannot (threads.c). */
void rt_end_point(int wait_for_others);
/* What the current thread is about to do at its scheduling point, so the
 * scheduler offers only the buffer flushes that operation could observe. */
/* PEND_ANY: entering an atomic block, inside which no other buffer flushes:
 * every flush may matter to what the block will read. PEND_END: the step
 * that ends the process (rt_end_point), which observes no flush. */
enum { PEND_NONE = 0, PEND_LOAD, PEND_WRITE, PEND_DRAIN, PEND_AWAIT, PEND_ANY, PEND_END };
void rt_pending(int kind, const void *addr, uint64_t size);
/* What the pending operation needs of the thread's own buffer. Under
 * partial order reduction the thread is not enabled until it holds, so the
 * entries leave by flush steps of their own processes (each step is then one
 * process's); without reduction the operation drains or evicts inline. */
enum { NEED_NONE = 0, NEED_EMPTY, NEED_ROOM };
void rt_pending_need(int need);
int rt_pending_conflicts(int t, int u); /* does t's pending op observe u's buffer? */
int rt_atomic_depth(void);
/* __VERIFIER_assume(0): the path is infeasible. Under reduction the thread
 * blocks for good and the others run on (their steps show the races the
 * explorer needs); the execution then ends as ASSUME, whatever happens. */
_Noreturn void rt_block_forever(void);
/* --unroll stopped the current thread: it blocks for good and the others run
 * on (a violation they reach is real); the execution then ends as UNROLL. */
_Noreturn void rt_cut_thread(void);
/* Block the current thread in an await loop until rt_await_changed(). */
void rt_await_block(void);
/* Stop it for the rest of the execution (a failing await iteration). */
_Noreturn void rt_await_stop(void);
/* The running iteration changed a value by an RMW or compare-exchange. */
void rt_await_wrote(void);

/* ---- memmodel.c ---- */
/* A value of up to RT_ENTRY_BYTES bytes: byte i is bits 8*(i%8) up of
 * w[i/8], the bytes past its size are 0. The runtime carries values in
 * these and reads and writes the program's memory and value slots at the
 * access's own width (rt_val_get/put), never byte by byte: some checkers
 * (GenMC) reject a location read at another width than it was written.
 * (Assign them field by field: a struct copy through a pointer is an
 * llvm.memcpy, which checkers run natively.) */
typedef struct {
  uint64_t w[2];
} rt_val;
rt_val rt_val_get(const void *p, uint32_t n);   /* n bytes at p; 1, 2, 4, 8, 16 as one or two accesses */
void rt_val_put(void *p, uint32_t n, rt_val v); /* likewise */
static inline int rt_val_eq(rt_val a, rt_val b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1]; }
static inline uint8_t rt_val_byte(rt_val v, uint32_t i) { return (uint8_t)(v.w[i >> 3] >> (8 * (i & 7))); }
static inline void rt_val_set_byte(rt_val *v, uint32_t i, uint8_t b) {
  uint32_t s = 8 * (i & 7);
  v->w[i >> 3] = (v->w[i >> 3] & ~((uint64_t)0xff << s)) | (uint64_t)b << s;
}
void rt_mm_init(void); /* before the first execution: buffer storage */
/* The runtime's own accesses to program memory, each one indivisible:
 * natively and in the one-step-per-operation exports by construction (one
 * thread runs runtime code at a time); with RT_FINE as atomic instructions
 * of the access's width, so that checkers see an access per address (and
 * no data race). rt_mem_cas: if memory holds `expected`, write `desired`
 * and return 1; else set `expected` to what memory holds and return 0. */
#ifdef TSOIFY_EXPORT_ONE_WIDTH
/* The GenMC export: GenMC follows each location at one width, so an access
 * the runtime has to split (unaligned, or not 1, 2, 4, 8 or 16 bytes)
 * calls this undefined function instead, and GenMC stops with an error
 * that names the reason rather than answer wrongly. */
void tsoify_genmc_cannot_check_an_unaligned_or_odd_sized_access(void);
#define RT_SPLIT_ACCESS() tsoify_genmc_cannot_check_an_unaligned_or_odd_sized_access()
#else
#define RT_SPLIT_ACCESS() ((void)0)
#endif
rt_val rt_mem_read(const void *addr, uint32_t n);
void rt_mem_write(void *addr, uint32_t n, rt_val v);
int rt_mem_cas(void *addr, rt_val *expected, rt_val desired, uint32_t n);
void rt_mm_load(int t, const void *addr, uint32_t size, void *out, uint32_t loc);
/* what a load by t would read now (own newest entry, else memory); no event */
void rt_mm_peek(int t, const void *addr, uint32_t size, void *out);
int rt_mm_store_needs_sched(int t, uint32_t order);
void rt_mm_store(int t, void *addr, uint32_t size, const void *in, uint32_t order, uint32_t loc);
void rt_mm_drain(int t, uint32_t loc);      /* flush the whole buffer of t */
int rt_mm_pending(int t);                   /* entries buffered by t */
int rt_mm_pending_unobserved(int t);        /* the same, with no footprint (memmodel.c) */
int rt_mm_buffered_since_drain(int t);      /* t buffered a store since its last drain */
int rt_drain_point_needed(int t);           /* a drain by t is a scheduling point */
int rt_mm_must_precede(int t, uint32_t j, uint32_t i); /* t's entry j must reach memory before entry i */
int rt_mm_full(int t);                      /* t's buffer is at the bound */
#ifndef TSOIFY_EXPORT
/* bit t: t's buffer holds entries (rt_mm_pending), is at the bound
 * (rt_mm_full); for the scheduler, which looks at every thread at every
 * step (memmodel.c keeps them) */
extern uint64_t rt_mm_nonempty, rt_mm_at_bound;
#endif
void rt_mm_barrier(int t);                  /* PSO store-store barrier */
void rt_mm_drop(int t, const void *addr, uint64_t size); /* free / frame end */
/* flush steps offered to the scheduler (reference model): writes the
 * indices of t's flushable entries; ends the execution (UNKNOWN) if they
 * do not fit in `max`, rather than drop any */
int rt_mm_flush_options(int t, uint32_t *entry_idx, int max);
/* the flush process that writes entry idx of t's buffer */
uint32_t rt_mm_flush_proc(int t, uint32_t idx);
void rt_mm_flush_entry(int t, uint32_t idx);
void rt_mm_entry_range(int t, uint32_t idx, uintptr_t *addr, uint32_t *size); /* bytes entry idx of t writes */
int rt_mm_model(void);
int rt_mm_buffer_overlaps(int u, const void *addr, uint64_t size);
int rt_mm_buffers_overlap(int t, int u);

/* ---- await.c ---- */
void rt_await_init(void);
/* thread-specific data (sync.c): set up once; a thread's values cleared as it starts */
void rt_keys_init(void);
void rt_keys_thread_start(int t);
/* libc.c's scratch, set up once */
void rt_libc_init(void);
void rt_await_reset(int t); /* a thread starts */
/* t read `size` bytes at addr (a load, or the old value of an RMW/CAS) */
void rt_await_read(int t, const void *addr, uint32_t size, const void *bytes);
void rt_await_event(int kind);      /* the current thread logs an event of this kind */
void rt_await_spoil(void);          /* the current thread changed state no event shows (malloc) */
int rt_await_changed(int t);        /* t's view of a location its iteration read differs */
int rt_await_observes(int t, int u); /* could a flush of u's buffer change that view? */
uint32_t rt_await_loc(int t);       /* the loop t waits in */
int rt_await_drew(int t);           /* t's last await iteration took nondet values */

/* ---- server.c ---- */
/* Zeroed memory outside the data segment, which the worker restores after
 * every execution: for tables the runtime resets itself or never needs
 * reset. Made once at start-up; the program exits (70) without it. */
void *rt_scratch(size_t bytes);

/* ---- libc.c ---- */
void rt_heap_init(void);
void rt_heap_scrub(void); /* zero what the last execution allocated */
/* An access of [addr, addr + size) by the current thread (write: 1, a
 * flush: 2): inside the heap, ends the execution (TSOIFY_ST_FREED) when it
 * touches a freed block, unless the explorer's property does not count it. */
extern char *rt_heap_lo, *rt_heap_hi;
void rt_heap_check(const void *addr, uint64_t size, int write, uint32_t loc);
static inline void rt_heap_access(const void *addr, uint64_t size, int write, uint32_t loc) {
  if ((const char *)addr >= rt_heap_lo && (const char *)addr < rt_heap_hi && !rt_shm->freed_ok) rt_heap_check(addr, size, write, loc);
}
void rt_outcome_reset(void);

#endif
