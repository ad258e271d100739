/* api.c - the functions the instrumented program calls (runtime/ABI.md).
 *
 * Orderings are LLVM's AtomicOrdering numbers: 0 not atomic, 1 unordered,
 * 2 monotonic (relaxed), 4 acquire, 5 release, 6 acq_rel, 7 seq_cst. What
 * they mean per model is in ABI.md ("Orderings"). */
#include <string.h>
#include "rt.h"

/* LLVMAtomicRMWBinOp numbering */
enum { RMW_XCHG, RMW_ADD, RMW_SUB, RMW_AND, RMW_NAND, RMW_OR, RMW_XOR, RMW_MAX, RMW_MIN, RMW_UMAX, RMW_UMIN,
       RMW_FADD, RMW_FSUB, RMW_FMAX, RMW_FMIN, RMW_UINC_WRAP, RMW_UDEC_WRAP };

/* Every load is a scheduling point, even one its own buffer can answer: the
 * own entry may have reached memory and been overwritten by another thread
 * before the load (litmus test n6). */
static void load_chunk(const char *addr, uint32_t size, char *dst, uint32_t loc) {
  rt_pending(PEND_LOAD, addr, size);
  rt_sched_point();
  rt_mm_load(rt_cur, addr, size, dst, loc);
}

void __tsoify_load(const void *addr, void *dst, uint64_t size, uint32_t order, uint32_t loc) {
  (void)order; /* on x86 every load is a plain load */
  for (uint64_t off = 0; off < size; off += RT_ENTRY_BYTES) {
    uint32_t n = rt_piece_len(size, off);
    load_chunk((const char *)addr + off, n, (char *)dst + off, loc);
  }
}

/* A scheduling point before a store that writes memory at once or may
 * need room in its bounded buffer (it runs when there is room). */
static void store_sched(void *addr, uint64_t size, uint32_t order) {
  rt_pending(PEND_WRITE, addr, size);
  int room = rt_mm_model() != TSOIFY_MODEL_SC && order != ORD_SEQ_CST;
  if (rt_mm_model() != TSOIFY_MODEL_SC) rt_pending_need(room ? NEED_ROOM : NEED_EMPTY);
  rt_sched_point();
}

void __tsoify_store(void *addr, const void *src, uint64_t size, uint32_t order, uint32_t loc) {
  if (rt_mm_store_needs_sched(rt_cur, order)) store_sched(addr, size, order);
  if (size <= RT_ENTRY_BYTES) {
    rt_mm_store(rt_cur, addr, (uint32_t)size, src, order, loc);
    return;
  }
  for (uint64_t off = 0; off < size; off += RT_ENTRY_BYTES) {
    uint32_t n = rt_piece_len(size, off);
    if (off && rt_mm_store_needs_sched(rt_cur, order)) store_sched((char *)addr + off, n, order);
    rt_mm_store(rt_cur, (char *)addr + off, n, (const char *)src + off, order, loc);
  }
}

void __tsoify_fence(uint32_t order, uint32_t loc) {
  int model = rt_mm_model();
  if (model != TSOIFY_MODEL_SC && order == ORD_SEQ_CST && rt_drain_point_needed(rt_cur)) { /* mfence */
    rt_sched_point();
    uint32_t n = (uint32_t)rt_mm_pending(rt_cur);
    rt_mm_drain(rt_cur, loc);
    rt_event(TSOIFY_EV_FENCE, 0, 0, 0, loc, n, 0);
    return;
  }
  if (model == TSOIFY_MODEL_PSO && (order == ORD_RELEASE || order == ORD_ACQ_REL))
    rt_mm_barrier(rt_cur); /* store-store barrier */
  /* nothing else to do here, but C11 fences synchronise (the race check) */
  rt_event(TSOIFY_EV_C11_FENCE, 0, 0, 0, loc, order, 0);
}

/* A locked instruction: scheduling point, drain, then act on memory. */
static void locked_prologue(void *addr, uint64_t size, uint32_t loc) {
  rt_pending(PEND_WRITE, addr, size);
  rt_pending_need(NEED_EMPTY);
  rt_sched_point();
  rt_mm_drain(rt_cur, loc);
#ifndef TSOIFY_EXPORT
  rt_heap_access(addr, size, 1, loc);
#endif
}

/* Operands and results are rt_val (rt.h), converted to the operation's
 * type in registers: no byte copies through memory. */
#define RMW_INT_CASE(T)                                                                                     \
  {                                                                                                         \
    T o = (T)old.w[0], v = (T)val.w[0], r;                                                                  \
    switch (op) {                                                                                           \
    case RMW_XCHG: r = v; break;                                                                            \
    case RMW_ADD: r = (T)(o + v); break;                                                                    \
    case RMW_SUB: r = (T)(o - v); break;                                                                    \
    case RMW_AND: r = o & v; break;                                                                         \
    case RMW_NAND: r = (T) ~(o & v); break;                                                                 \
    case RMW_OR: r = o | v; break;                                                                          \
    case RMW_XOR: r = o ^ v; break;                                                                         \
    case RMW_MAX: r = (T)((S)o > (S)v ? o : v); break;                                                      \
    case RMW_MIN: r = (T)((S)o < (S)v ? o : v); break;                                                      \
    case RMW_UMAX: r = o > v ? o : v; break;                                                                \
    case RMW_UMIN: r = o < v ? o : v; break;                                                                \
    case RMW_UINC_WRAP: r = o >= v ? 0 : (T)(o + 1); break;                                                 \
    case RMW_UDEC_WRAP: r = (o == 0 || o > v) ? v : (T)(o - 1); break;                                      \
    default: rt_end(TSOIFY_ST_INTERNAL, loc, "atomicrmw operation %u on a %u-byte integer", op, size); \
    }                                                                                                       \
    res.w[0] = (uint64_t)r;                                                                                 \
  }

/* U: the unsigned integer of the float's width, to reinterpret its bits */
#define RMW_FLOAT_CASE(F, U)                                                                    \
  {                                                                                             \
    union {                                                                                     \
      U u;                                                                                      \
      F f;                                                                                      \
    } o, v, r;                                                                                  \
    o.u = (U)old.w[0], v.u = (U)val.w[0];                                                       \
    switch (op) {                                                                               \
    case RMW_XCHG: r.f = v.f; break;                                                            \
    case RMW_FADD: r.f = o.f + v.f; break;                                                      \
    case RMW_FSUB: r.f = o.f - v.f; break;                                                      \
    case RMW_FMAX: r.f = o.f > v.f ? o.f : v.f; break;                                          \
    case RMW_FMIN: r.f = o.f < v.f ? o.f : v.f; break;                                          \
    default: rt_end(TSOIFY_ST_INTERNAL, loc, "atomicrmw operation %u on a float", op); \
    }                                                                                           \
    res.w[0] = r.u;                                                                             \
  }

static rt_val rmw_compute(uint32_t op, uint32_t size, rt_val old, rt_val val, uint32_t loc) {
  int is_float = op >= RMW_FADD && op <= RMW_FMIN;
  rt_val res;
  res.w[0] = res.w[1] = 0;
  if (is_float && size == 4) RMW_FLOAT_CASE(float, uint32_t)
  else if (is_float && size == 8) RMW_FLOAT_CASE(double, uint64_t)
  else if (size == 1) { typedef int8_t S; RMW_INT_CASE(uint8_t) }
  else if (size == 2) { typedef int16_t S; RMW_INT_CASE(uint16_t) }
  else if (size == 4) { typedef int32_t S; RMW_INT_CASE(uint32_t) }
  else if (size == 8) { typedef int64_t S; RMW_INT_CASE(uint64_t) }
#ifdef __SIZEOF_INT128__
  else if (size == 16) {
    typedef __int128 S;
    unsigned __int128 o = (unsigned __int128)old.w[1] << 64 | old.w[0], v = (unsigned __int128)val.w[1] << 64 | val.w[0];
#define RMW_WIDE(T)                                                                                          \
    {                                                                                                        \
      T r;                                                                                                   \
      switch (op) {                                                                                          \
      case RMW_XCHG: r = v; break;                                                                           \
      case RMW_ADD: r = o + v; break;                                                                        \
      case RMW_SUB: r = o - v; break;                                                                        \
      case RMW_AND: r = o & v; break;                                                                        \
      case RMW_NAND: r = ~(o & v); break;                                                                    \
      case RMW_OR: r = o | v; break;                                                                         \
      case RMW_XOR: r = o ^ v; break;                                                                        \
      case RMW_MAX: r = (S)o > (S)v ? o : v; break;                                                          \
      case RMW_MIN: r = (S)o < (S)v ? o : v; break;                                                          \
      case RMW_UMAX: r = o > v ? o : v; break;                                                               \
      case RMW_UMIN: r = o < v ? o : v; break;                                                               \
      case RMW_UINC_WRAP: r = o >= v ? 0 : o + 1; break;                                                     \
      case RMW_UDEC_WRAP: r = (o == 0 || o > v) ? v : o - 1; break;                                          \
      default: rt_end(TSOIFY_ST_INTERNAL, loc, "atomicrmw operation %u on a %u-byte integer", op, size); \
      }                                                                                                      \
      res.w[0] = (uint64_t)r, res.w[1] = (uint64_t)(r >> 64);                                                \
    }
    RMW_WIDE(unsigned __int128)
#undef RMW_WIDE
  }
#endif
  /* a 32-bit build has no __int128; i386 has no 16-byte atomics either
   * (clang makes them library calls), so none reaches here */
  else rt_end(TSOIFY_ST_INTERNAL, loc, "atomicrmw on %u bytes", size);
  return res;
}

/* `val` holds the operand; on return it holds the old value. */
void __tsoify_rmw(void *addr, void *val, uint64_t size, uint32_t op, uint32_t order, uint32_t loc) {
  (void)order; /* every RMW is locked on x86 */
  if (size > 16) rt_end(TSOIFY_ST_INTERNAL, loc, "atomicrmw on %u bytes", (unsigned)size);
  uint32_t n = (uint32_t)size;
  locked_prologue(addr, size, loc);
#ifndef TSOIFY_EXPORT
  if (rt_sym_n_shadow) rt_sym_rmw((uintptr_t)addr, n);
#endif
  /* read, compute, and write if memory still holds what was read (it
   * always does unless runtime steps of other threads run meanwhile, as
   * in an export with fine locking) */
  rt_val operand = rt_val_get(val, n);
  rt_val old = rt_mem_read(addr, n), res;
  do res = rmw_compute(op, n, old, operand, loc);
  while (!rt_mem_cas(addr, &old, res, n));
  rt_val_put(val, n, old);
  rt_await_read(rt_cur, addr, n, val);
#ifndef TSOIFY_EXPORT
  if (!rt_val_eq(old, res)) rt_await_wrote();
#endif
  rt_event(TSOIFY_EV_RMW, addr, n, old.w[0], loc, op, (uint32_t)res.w[0]);
}

/* `expected` holds the compared value; on return it holds the old value.
 * Returns 1 when the exchange happened. Weak cmpxchg never fails spuriously
 * here: x86 has no spurious failure. */
uint32_t __tsoify_cmpxchg(void *addr, void *expected, const void *desired, uint64_t size, uint32_t succ,
                          uint32_t fail, uint32_t loc) {
  (void)succ, (void)fail;
  if (size > 16) rt_end(TSOIFY_ST_INTERNAL, loc, "cmpxchg on %u bytes", (unsigned)size);
  uint32_t n = (uint32_t)size;
  locked_prologue(addr, size, loc);
#ifndef TSOIFY_EXPORT
  if (rt_sym_n_shadow) rt_sym_rmw((uintptr_t)addr, n);
#endif
  rt_val old = rt_val_get(expected, n); /* after the CAS: what memory held */
  rt_val want = rt_val_get(desired, n);
  uint32_t ok = (uint32_t)rt_mem_cas(addr, &old, want, n);
  rt_val_put(expected, n, old);
  rt_await_read(rt_cur, addr, n, expected);
#ifndef TSOIFY_EXPORT
  if (ok && !rt_val_eq(old, want)) rt_await_wrote();
#endif
  rt_event(TSOIFY_EV_CMPXCHG, addr, n, old.w[0], loc, ok, 0);
  return ok;
}

/* memcpy/memmove/memset on memory that may be shared: 8-byte pieces through
 * the model, in address order (memmove of overlapping ranges goes through a
 * temporary copy, so it is correct in either direction). */
void __tsoify_memcpy(void *dst, const void *src, uint64_t n, uint32_t loc) {
  uint8_t tmp[4096];
  char *d = dst;
  const char *s = src;
  while (n) {
    uint64_t chunk = n < sizeof tmp ? n : sizeof tmp;
    for (uint64_t off = 0; off < chunk; off += 8) rt_piece_load(s + off, tmp + off, chunk - off < 8 ? chunk - off : 8, 0, loc);
    for (uint64_t off = 0; off < chunk; off += 8) rt_piece_store(d + off, tmp + off, chunk - off < 8 ? chunk - off : 8, 0, loc);
    d += chunk, s += chunk, n -= chunk;
  }
}

void __tsoify_memset(void *dst, uint32_t val, uint64_t n, uint32_t loc) {
  rt_val pattern;
  pattern.w[0] = pattern.w[1] = 0x0101010101010101ull * (uint8_t)val;
  for (uint64_t off = 0; off < n; off += 8) {
    uint32_t k = n - off < 8 ? (uint32_t)(n - off) : 8;
    uint64_t piece; /* written at the width the store reads */
    rt_val_put(&piece, k, pattern);
    rt_piece_store((char *)dst + off, &piece, k, 0, loc);
  }
}

/* End of a stack frame whose local `addr` escaped: drop the thread's pending
 * stores to it. */
void __tsoify_stack_release(void *addr, uint64_t size) { rt_mm_drop(rt_cur, addr, size); }
