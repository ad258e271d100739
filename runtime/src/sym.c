/* sym.c - concolic tracking of wide __VERIFIER_nondet_* values.
 *
 * A wide nondet call (more than 8 bits) is a symbolic variable: its value
 * comes from the explorer's inputs[] (0 when absent), and the pass makes
 * every integer operation on a value that may depend on one call in here
 * to build an expression node for it (tsoify_channel.h, struct
 * tsoify_sym_node; node 0 = a concrete value). Branches and assumes on such
 * a value are recorded as path conditions, which the explorer negates with
 * an SMT solver to find values that take the other side
 * (driver/src/concolic.rs).
 *
 * Each branch on such a value is also a choice point of the explorer's
 * search (choice.c rt_branch_choice), in whatever thread it runs: the
 * explorer gives each feasible side its own inputs (see the top of
 * driver/src/concolic.rs for why that is exact). A branch whose thread
 * branched on the same expression before is none of these: its side is
 * known.
 *
 * Values in memory follow the memory model exactly. A store of a symbolic
 * value is announced just before it (__tsoify_sym_store); the store takes
 * the node along: into its store buffer entry, and into memory when it is
 * written there (at once, or at its flush). Memory has a table of
 * (address, size, node) for the bytes that hold a symbolic value, kept in
 * the order memory is written (a write with a node adds its range, any
 * other write clears it; bytes left of a value partly overwritten are
 * poisoned). A load sees the node of what it reads: its thread's newest
 * buffered entry over the bytes, else memory's table, as the load's bytes
 * come (memmodel.c). So a value stored by one thread and read by another,
 * after any interleaving and flush order, is followed.
 *
 * Whatever is not modelled (a symbolic value passed to a call, stored into
 * a local the runtime does not see, read back at another width or in part
 * from a buffer and in part from memory, read by the runtime itself, ...)
 * marks the execution TSOIFY_SYM_UNTRACKED with the reason: it can then only show a violation,
 * never rule one out. Each node carries its concrete value, and every use
 * checks it against the value the program computed: a mismatch (something
 * the tracking missed) is UNTRACKED too. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "rt.h"

/* set to 1 by the pass in a program it instrumented for tracking */
extern const uint32_t __tsoify_concolic __attribute__((weak));

int rt_sym_active(void) { return &__tsoify_concolic && __tsoify_concolic; }

/* why the pass reports a lost value (__tsoify_sym_lost) */
static const char *const lost_what[] = {
  "?",
  "is passed to a function that is not instrumented (a library function)",
  "is returned from a function (not followed there)",
  "selects a switch case",
  "is used in an address",
  "is stored into a local variable the runtime does not see",
  "is used by an instruction that is not modelled",
  "is wider than 64 bits",
  "is used in floating-point arithmetic or converted to a floating-point type other than float and double",
  "is an operand of an atomic read-modify-write",
};
#define N_LOST (sizeof lost_what / sizeof *lost_what)
#define LOST_WIDE 7 /* (the index of "is wider than 64 bits") */

#define POISON 0xffffffffu /* a shadow entry whose bytes are partly overwritten */
#define MAX_SHADOW (1u << 16)
struct shadow {
  uintptr_t addr;
  uint32_t size;
  uint32_t node;
};
/* the entries live outside the data segment (restored per execution: a
 * copy each time); their count lives inside it, so every execution starts
 * with none */
static struct shadow *shadow;
uint32_t rt_sym_n_shadow; /* (rt.h: memmodel.c looks at it before calling in) */
#define n_shadow rt_sym_n_shadow
static uint32_t last_var[RT_MAX_THREADS];
/* per node: a hash of its expression's structure (operations, widths,
 * constants, variables; not node ids), so that two nodes that spell the
 * same expression hash alike (outside the data segment, like the shadow:
 * written whenever a node is made) */
static uint64_t *hash_of;
/* the branches of this execution by (thread, hash_of their condition):
 * open addressing over path[] indexes + 1, and per path[] index the slot
 * that holds it (both outside the data segment: a slot is in use only
 * when the branch it names is of this execution and names it back, so
 * what earlier executions left reads as free, and twice MAX_PATH slots
 * never fill) */
#define BRANCH_SLOTS (2 * TSOIFY_MAX_PATH)
static uint32_t *branch_slot, *slot_of_branch;
static uint32_t ordinal[RT_MAX_THREADS];
/* the execution's last wide draw, for echo probes (choice.c) */
static uint64_t previous_draw;
static int drew_before;
uintptr_t rt_sym_claimed[RT_MAX_THREADS];
#define claimed rt_sym_claimed
/* per thread: the node its next store writes (announced by the pass just
 * before the store, taken by the store: rt_sym_take_store) */
static struct {
  uintptr_t addr;
  uint64_t size;
  uint32_t id;
} announced[RT_MAX_THREADS];
uint32_t rt_sym_stored; /* a store took a node along in this execution */
/* per thread: the node its claimed load saw (for __tsoify_sym_load) */
static uint32_t loaded[RT_MAX_THREADS];
/* per thread: it stored or loaded a value built from nondet values in this
 * execution, so other threads may depend on its values or it on theirs
 * (__tsoify_sym_assume) */
static uint8_t shares_values[RT_MAX_THREADS];

int rt_sym_on;

void rt_sym_init(void) {
  if (!rt_sym_active()) return;
  rt_sym_on = 1;
  shadow = rt_scratch(MAX_SHADOW * sizeof *shadow);
  hash_of = rt_scratch(TSOIFY_MAX_SYM_NODES * sizeof *hash_of);
  branch_slot = rt_scratch((BRANCH_SLOTS + TSOIFY_MAX_PATH) * sizeof *branch_slot);
  slot_of_branch = branch_slot + BRANCH_SLOTS;
}

/* the execution proves nothing about other values; the first reason is kept */
static void vuntracked(const char *fmt, va_list ap) {
  struct tsoify_shm *s = rt_shm;
  if (!(s->sym_flags & TSOIFY_SYM_UNTRACKED)) vsnprintf(s->sym_reason, sizeof s->sym_reason, fmt, ap);
  s->sym_flags |= TSOIFY_SYM_UNTRACKED;
}

static void untracked(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vuntracked(fmt, ap);
  va_end(ap);
}

static uint64_t mask(uint32_t bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
static int64_t sx(uint64_t v, uint32_t bits) { return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits); }

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

static uint32_t node(uint32_t op, uint32_t bits, uint32_t pred, uint32_t a, uint32_t b, uint32_t c, uint64_t k, uint64_t val) {
  struct tsoify_shm *s = rt_shm;
  if (s->n_sym_nodes == 0) s->n_sym_nodes = 1;
  /* (a loop over a nondet count the solver made huge: the execution is
   * cut, and the answer cannot be SAFE) */
  if (s->n_sym_nodes >= TSOIFY_MAX_SYM_NODES)
    rt_end(TSOIFY_ST_INTERNAL, 0, "more than %u expressions over nondet values in one execution", TSOIFY_MAX_SYM_NODES);
  uint32_t id = s->n_sym_nodes++;
  struct tsoify_sym_node *n = &s->sym_nodes[id];
  n->op = (uint8_t)op, n->bits = (uint8_t)bits, n->pred = (uint8_t)pred, n->pad = 0;
  n->a = a, n->b = b, n->c = c;
  n->k = k;
  n->val = val & mask(bits);
  /* (c is a node only in a select; elsewhere a width) */
  uint64_t h = mix(mix(mix(op, bits), pred), k);
  h = mix(mix(h, hash_of[a]), hash_of[b]);
  hash_of[id] = mix(h, op == TSOIFY_SYM_SELECT ? hash_of[c] : c);
  return id;
}

/* Do nodes x and y spell the same expression? (Then they have the same
 * value in an execution, whatever its order.) Iterative, so a long chain
 * cannot overflow a thread's stack; past its work list it answers no,
 * which only costs a choice point. */
static int same_expression(uint32_t x, uint32_t y) {
  enum { MAX_PAIRS = 256 };
  uint32_t todo[MAX_PAIRS][2];
  uint32_t n = 0;
  const struct tsoify_sym_node *nodes = rt_shm->sym_nodes;
  todo[n][0] = x, todo[n][1] = y, n++;
  while (n) {
    n--;
    uint32_t p = todo[n][0], q = todo[n][1];
    if (p == q) continue;
    if (!p || !q || hash_of[p] != hash_of[q]) return 0;
    const struct tsoify_sym_node *a = &nodes[p], *b = &nodes[q];
    if (a->op != b->op || a->bits != b->bits || a->pred != b->pred || a->k != b->k) return 0;
    if (a->op == TSOIFY_SYM_VAR || a->op == TSOIFY_SYM_CONST) continue;
    int select = a->op == TSOIFY_SYM_SELECT;
    if (!select && a->c != b->c) return 0;
    if (n + 3 > MAX_PAIRS) return 0;
    todo[n][0] = a->a, todo[n][1] = b->a, n++;
    todo[n][0] = a->b, todo[n][1] = b->b, n++;
    if (select) todo[n][0] = a->c, todo[n][1] = b->c, n++;
  }
  return 1;
}

/* Is node `id` what the program holds (value v of `bits` bits)? */
static int in_step(uint32_t id, uint64_t v, uint32_t bits) {
  const struct tsoify_sym_node *n = &rt_shm->sym_nodes[id];
  if (id < rt_shm->n_sym_nodes && n->bits == bits && n->val == (v & mask(bits))) return 1;
  untracked("a value built from a nondet value is out of step with the program (the tracking missed an operation)");
  return 0;
}

/* an operand as a node: its own, or a constant */
static uint32_t operand(uint32_t id, uint64_t v, uint32_t bits) {
  if (id && in_step(id, v, bits)) return id;
  return node(TSOIFY_SYM_CONST, bits, 0, 0, 0, 0, v & mask(bits), v);
}

/* ---- the wide nondet call (libc.c) ---- */

uint64_t rt_sym_nondet(uint32_t bits) {
  struct tsoify_shm *s = rt_shm;
  int t = rt_cur;
  if (last_var[t]) untracked("a nondet value was returned where the instrumentation did not take it (a call through a pointer?)");
  uint32_t ord = ordinal[t]++;
  uint64_t v = 0;
  int pinned = 0;
  for (uint32_t i = 0; i < s->n_inputs && i < TSOIFY_MAX_INPUTS; i++)
    if (s->inputs[i].thread == (uint32_t)t && s->inputs[i].ordinal == ord) v = s->inputs[i].value, pinned = 1;
  if (!pinned && s->probe) v = rt_probe_value();
  if (drew_before && rt_probe_echoes()) v = previous_draw;
  v &= mask(bits);
  previous_draw = v, drew_before = 1;
  s->sym_flags |= TSOIFY_SYM_USED;
  last_var[t] = node(TSOIFY_SYM_VAR, bits, 0, 0, 0, 0, (uint64_t)(uint32_t)t << 32 | ord, v);
  return v;
}

uint32_t __tsoify_sym_result(uint64_t v, uint32_t bits) {
  int t = rt_cur;
  uint32_t id = last_var[t];
  last_var[t] = 0;
  if (id && !in_step(id, v, bits)) return 0;
  return id;
}

/* ---- calls: argument and result ids travel through per-thread slots ---- */

#define MAX_ARGS 16
static const void *call_target[RT_MAX_THREADS]; /* set between a call's arguments and its callee's entry */
static uint32_t call_args[RT_MAX_THREADS][MAX_ARGS];
static const void *ret_from[RT_MAX_THREADS];
static uint32_t ret_id[RT_MAX_THREADS];

static void clear_call(int t) {
  call_target[t] = 0;
  memset(call_args[t], 0, sizeof call_args[t]);
}

static int call_args_pending(int t) {
  for (int k = 0; k < MAX_ARGS; k++)
    if (call_args[t][k]) return 1;
  return 0;
}

/* before a call with a tracked argument (the callee: its address) */
void __tsoify_sym_call(const void *callee) {
  int t = rt_cur;
  clear_call(t);
  call_target[t] = callee;
}

void __tsoify_sym_arg(uint32_t k, uint32_t id, uint64_t v, uint32_t bits) {
  if (!id || !in_step(id, v, bits)) return;
  if (k >= MAX_ARGS) {
    untracked("a value built from a nondet value is argument %u of a call (at most %u are followed)", k + 1, MAX_ARGS);
    return;
  }
  call_args[rt_cur][k] = id;
}

/* after such a call: arguments no callee took went to code the pass did not see */
void __tsoify_sym_called(void) {
  int t = rt_cur;
  if (call_args_pending(t)) untracked("a value built from a nondet value is passed to a function that is not instrumented (a library function, called through a pointer?)");
  clear_call(t);
}

/* at the entry of a program function: the id of integer parameter k */
uint32_t __tsoify_sym_param(const void *self, uint32_t k, uint64_t v, uint32_t bits) {
  int t = rt_cur;
  if (call_target[t] != self || k >= MAX_ARGS) return 0;
  uint32_t id = call_args[t][k];
  if (id && !in_step(id, v, bits)) return 0;
  return id;
}

void __tsoify_sym_entered(const void *self) {
  int t = rt_cur;
  if (call_target[t] == self) clear_call(t);
}

/* before a return of a tracked value */
void __tsoify_sym_return(const void *self, uint32_t id, uint64_t v, uint32_t bits) {
  if (!id || !in_step(id, v, bits)) return;
  int t = rt_cur;
  if (ret_id[t]) untracked("a value built from a nondet value was returned to code that is not instrumented");
  ret_from[t] = self;
  ret_id[t] = id;
}

/* after a call of a function returning an integer: the id of its result */
uint32_t __tsoify_sym_retval(const void *callee, uint64_t v, uint32_t bits) {
  int t = rt_cur;
  uint32_t id = ret_id[t];
  const void *from = ret_from[t];
  ret_id[t] = 0, ret_from[t] = 0;
  if (!id) return 0;
  if (from != callee) {
    untracked("a value built from a nondet value was returned to code that is not instrumented");
    return 0;
  }
  return in_step(id, v, bits) ? id : 0;
}

/* the end of an execution: a nondet value no instrumented call took */
void rt_sym_end(void) {
  if (!rt_sym_active()) return;
  for (int t = 0; t < RT_MAX_THREADS; t++) {
    if (last_var[t]) untracked("a nondet value was returned where the instrumentation did not take it (a call through a pointer?)");
    if (ret_id[t]) untracked("a value built from a nondet value was returned to code that is not instrumented");
    if (call_args_pending(t)) untracked("a value built from a nondet value is passed to a function that is not instrumented");
    if (announced[t].id) untracked("a value built from a nondet value was to be stored by a store the runtime did not see");
  }
}

/* ---- operations (the pass calls these only where an operand may be symbolic) ---- */

void __tsoify_sym_pin(uint32_t id, uint64_t v, uint32_t bits); /* (below, with the branches) */

/* Does node id hold a floating-point value (a converted integer, or a
 * select of such)? Its bits are then no expression the solver reads. */
static int float_valued(uint32_t id, int depth) {
  const struct tsoify_sym_node *n = &rt_shm->sym_nodes[id];
  if (n->op == TSOIFY_SYM_ITOFP) return 1;
  if (n->op != TSOIFY_SYM_SELECT || depth > 32) return 0;
  return float_valued(n->b, depth + 1) || float_valued(n->c, depth + 1);
}

/* Fix node id's value on this path: pin it (one branch per bit), or for a
 * floating-point value the integers it holds. 0 when it cannot. */
static int pin_value(uint32_t id, int depth) {
  if (!id) return 1;
  if (id >= rt_shm->n_sym_nodes || depth > 32) return 0;
  const struct tsoify_sym_node *n = &rt_shm->sym_nodes[id];
  if (n->op == TSOIFY_SYM_CONST) return 1;
  if (n->op == TSOIFY_SYM_ITOFP) return pin_value(n->a, depth + 1);
  if (n->op == TSOIFY_SYM_SELECT && float_valued(id, 0)) {
    uint32_t cond = n->a, chosen = rt_shm->sym_nodes[cond].val & 1 ? n->b : n->c;
    return pin_value(cond, depth + 1) && pin_value(chosen, depth + 1);
  }
  __tsoify_sym_pin(id, n->val, n->bits);
  return 1;
}

/* Pin node id where the tracking cannot follow it (see __tsoify_sym_lost),
 * keeping the first such place (the printf-style `fmt`) for the explorer
 * (TSOIFY_SYM_PINNED). Where it may not or cannot be pinned, the execution
 * is untracked for that reason instead. 1 when pinned. */
static int pin_or_untrack(uint32_t id, int may_pin, const char *fmt, ...) {
  struct tsoify_shm *s = rt_shm;
  int pinned = may_pin && pin_value(id, 0);
  va_list ap;
  va_start(ap, fmt);
  if (!pinned) {
    vuntracked(fmt, ap);
  } else if (!(s->sym_flags & (TSOIFY_SYM_UNTRACKED | TSOIFY_SYM_PINNED))) {
    int n = vsnprintf(s->sym_reason, sizeof s->sym_reason, fmt, ap);
    if (n >= 0 && (size_t)n < sizeof s->sym_reason)
      snprintf(s->sym_reason + n, sizeof s->sym_reason - (size_t)n, "; each of its feasible values is searched on a path of its own");
    s->sym_flags |= TSOIFY_SYM_PINNED;
  }
  va_end(ap);
  return pinned;
}

uint32_t __tsoify_sym_binop(uint32_t op, uint32_t bits, uint32_t ia, uint64_t a, uint32_t ib, uint64_t b) {
  if (!ia && !ib) return 0;
  uint64_t m = mask(bits);
  a &= m, b &= m;
  uint64_t v;
  switch (op) {
  case TSOIFY_SYM_ADD: v = a + b; break;
  case TSOIFY_SYM_SUB: v = a - b; break;
  case TSOIFY_SYM_MUL: v = a * b; break;
  case TSOIFY_SYM_AND: v = a & b; break;
  case TSOIFY_SYM_OR: v = a | b; break;
  case TSOIFY_SYM_XOR: v = a ^ b; break;
  case TSOIFY_SYM_SHL:
  case TSOIFY_SYM_LSHR:
  case TSOIFY_SYM_ASHR:
    /* (a nondet-derived amount is pinned: one path per feasible amount) */
    if (ib && pin_or_untrack(ib, 1, "a value built from a nondet value is a shift amount")) ib = 0;
    if (ib || b >= bits) {
      untracked("a shift by a nondet-derived or too large amount");
      return 0;
    }
    v = op == TSOIFY_SYM_SHL ? a << b : op == TSOIFY_SYM_LSHR ? a >> b : (uint64_t)(sx(a, bits) >> b);
    break;
  case TSOIFY_SYM_UDIV:
  case TSOIFY_SYM_UREM:
  case TSOIFY_SYM_SDIV:
  case TSOIFY_SYM_SREM: {
    int is_signed = op == TSOIFY_SYM_SDIV || op == TSOIFY_SYM_SREM;
    /* a nondet-derived divisor is pinned (one path per feasible divisor;
     * 0 traps natively before this) */
    if (ib && pin_or_untrack(ib, 1, "a value built from a nondet value is a divisor")) ib = 0;
    if (ib || b == 0 || (is_signed && b == m)) {
      untracked("a division by a nondet-derived value");
      return 0;
    }
    if (op == TSOIFY_SYM_UDIV) v = a / b;
    else if (op == TSOIFY_SYM_UREM) v = a % b;
    else if (op == TSOIFY_SYM_SDIV) v = (uint64_t)(sx(a, bits) / sx(b, bits));
    else v = (uint64_t)(sx(a, bits) % sx(b, bits));
    break;
  }
  default:
    untracked("an unknown operation (%u)", op);
    return 0;
  }
  uint32_t na = operand(ia, a, bits), nb = operand(ib, b, bits);
  return node(op, bits, 0, na, nb, 0, 0, v);
}

uint32_t __tsoify_sym_icmp(uint32_t pred, uint32_t bits, uint32_t ia, uint64_t a, uint32_t ib, uint64_t b) {
  if (!ia && !ib) return 0;
  uint64_t m = mask(bits);
  a &= m, b &= m;
  int64_t sa = sx(a, bits), sb = sx(b, bits);
  int r;
  switch (pred) {
  case 32: r = a == b; break;
  case 33: r = a != b; break;
  case 34: r = a > b; break;
  case 35: r = a >= b; break;
  case 36: r = a < b; break;
  case 37: r = a <= b; break;
  case 38: r = sa > sb; break;
  case 39: r = sa >= sb; break;
  case 40: r = sa < sb; break;
  case 41: r = sa <= sb; break;
  default:
    untracked("an unknown comparison (%u)", pred);
    return 0;
  }
  uint32_t na = operand(ia, a, bits), nb = operand(ib, b, bits);
  return node(TSOIFY_SYM_ICMP, 1, pred, na, nb, bits, 0, (uint64_t)r);
}

uint32_t __tsoify_sym_cast(uint32_t op, uint32_t to, uint32_t from, uint32_t id, uint64_t v) {
  if (!id || !in_step(id, v, from)) return 0;
  v &= mask(from);
  uint64_t r = op == TSOIFY_SYM_SEXT ? (uint64_t)sx(v, from) : v;
  if (op != TSOIFY_SYM_ZEXT && op != TSOIFY_SYM_SEXT && op != TSOIFY_SYM_TRUNC) {
    untracked("an unknown conversion (%u)", op);
    return 0;
  }
  return node(op, to, 0, id, 0, 0, 0, r);
}

uint32_t __tsoify_sym_select(uint32_t bits, uint32_t ic, uint64_t c, uint32_t ia, uint64_t a, uint32_t ib, uint64_t b) {
  if (!ic) return c & 1 ? (ia && in_step(ia, a, bits) ? ia : 0) : (ib && in_step(ib, b, bits) ? ib : 0);
  if (!in_step(ic, c, 1)) return 0;
  uint32_t na = operand(ia, a, bits), nb = operand(ib, b, bits);
  return node(TSOIFY_SYM_SELECT, bits, 0, ic, na, nb, 0, c & 1 ? a : b);
}

/* ---- floats: exact conversions of integers, and their comparisons ---- */

/* `(float or double)` of integer node `id` (value v, `from` bits), whose
 * result has bits f: a node that keeps the integer, when every value of
 * the integer converts exactly (at most 24 bits to a float, 53 to a
 * double). */
uint32_t __tsoify_sym_itofp(uint32_t is_signed, uint32_t to, uint32_t from, uint32_t id, uint64_t v, uint64_t f) {
  if (!id || !in_step(id, v, from)) return 0;
  uint32_t exact = to == 64 ? 53 : to == 32 ? 24 : 0;
  if (from > exact) {
    /* (pinned: the float is then one number per path) */
    pin_or_untrack(id, 1, "a value built from a nondet value is converted from %u bits to a %u-bit float, where not every value converts exactly", from, to);
    return 0;
  }
  return node(TSOIFY_SYM_ITOFP, to, is_signed != 0, id, 0, from, 0, f);
}

static double float_value(uint64_t v, uint32_t bits) {
  if (bits == 32) {
    uint32_t u = (uint32_t)v;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
  }
  double x;
  memcpy(&x, &v, sizeof x);
  return x;
}

/* LLVMRealPredicate */
enum { F_FALSE, F_OEQ, F_OGT, F_OGE, F_OLT, F_OLE, F_ONE, F_ORD, F_UNO, F_UEQ, F_UGT, F_UGE, F_ULT, F_ULE, F_UNE, F_TRUE };
/* LLVMIntPredicate, signed */
enum { I_EQ = 32, I_NE = 33, I_SGT = 38, I_SGE = 39, I_SLT = 40, I_SLE = 41 };

/* The integer comparison a float comparison of two numbers (no NaN) is:
 * 0 for one that does not depend on them (FALSE, ORD, UNO, TRUE). */
static uint32_t int_pred(uint32_t pred) {
  switch (pred) {
  case F_OEQ: case F_UEQ: return I_EQ;
  case F_ONE: case F_UNE: return I_NE;
  case F_OGT: case F_UGT: return I_SGT;
  case F_OGE: case F_UGE: return I_SGE;
  case F_OLT: case F_ULT: return I_SLT;
  case F_OLE: case F_ULE: return I_SLE;
  default: return 0;
  }
}

/* floor and ceil of c, |c| < 2^62 (without libm: the runtime links none) */
static double floor_of(double c) {
  double t = (double)(int64_t)c;
  return t > c ? t - 1 : t;
}
static double ceil_of(double c) {
  double t = (double)(int64_t)c;
  return t < c ? t + 1 : t;
}

static uint32_t swapped(uint32_t p) { return p == I_SGT ? I_SLT : p == I_SLT ? I_SGT : p == I_SGE ? I_SLE : p == I_SLE ? I_SGE : p; }

/* The integer under a converted float operand, as a 64-bit node (signed
 * compare holds for both kinds: at most 53 bits), with its range; 0 when
 * the float is not such a conversion. */
static uint32_t converted(uint32_t id, uint64_t v, uint32_t bits, double *lo, double *hi) {
  if (!in_step(id, v, bits)) return 0;
  const struct tsoify_sym_node *n = &rt_shm->sym_nodes[id];
  if (n->op != TSOIFY_SYM_ITOFP) {
    untracked("a floating-point value built from a nondet value other than by converting an integer is compared");
    return 0;
  }
  uint32_t from = n->c, x = n->a;
  uint64_t xv = rt_shm->sym_nodes[x].val;
  int is_signed = n->pred;
  *lo = is_signed ? -(double)(1ull << (from - 1)) : 0;
  *hi = is_signed ? (double)((1ull << (from - 1)) - 1) : (double)((1ull << from) - 1);
  uint64_t wide = is_signed ? (uint64_t)sx(xv, from) : xv;
  return node(is_signed ? TSOIFY_SYM_SEXT : TSOIFY_SYM_ZEXT, 64, 0, x, 0, 0, 0, wide);
}

/* `fcmp pred a, b` on floats of `bits` (their bits a, b; nodes ia, ib):
 * where a side is an exact conversion of an integer, the same comparison of
 * the integer, which the solver can reason about. Against a number c, an
 * integer x is < c when x < ceil(c), <= c when x <= floor(c), == c when c
 * is whole and x is c; outside x's range the answer is the same for every
 * x (concrete). */
uint32_t __tsoify_sym_fcmp(uint32_t pred, uint32_t bits, uint32_t ia, uint64_t a, uint32_t ib, uint64_t b) {
  if (!ia && !ib) return 0;
  double fa = float_value(a, bits), fb = float_value(b, bits);
  int uno = fa != fa || fb != fb;
  int r;
  switch (pred) {
  case F_FALSE: r = 0; break;
  case F_OEQ: r = !uno && fa == fb; break;
  case F_OGT: r = !uno && fa > fb; break;
  case F_OGE: r = !uno && fa >= fb; break;
  case F_OLT: r = !uno && fa < fb; break;
  case F_OLE: r = !uno && fa <= fb; break;
  case F_ONE: r = !uno && fa != fb; break;
  case F_ORD: r = !uno; break;
  case F_UNO: r = uno; break;
  case F_UEQ: r = uno || fa == fb; break;
  case F_UGT: r = uno || fa > fb; break;
  case F_UGE: r = uno || fa >= fb; break;
  case F_ULT: r = uno || fa < fb; break;
  case F_ULE: r = uno || fa <= fb; break;
  case F_UNE: r = uno || fa != fb; break;
  default: r = 1; break;
  }
  uint32_t ip = int_pred(pred);
  if (!ip || uno) return 0; /* (a converted integer is never NaN: a NaN side decides alone) */
  double lo, hi, lo2, hi2;
  if (ia && ib) {
    uint32_t x = converted(ia, a, bits, &lo, &hi), y = converted(ib, b, bits, &lo2, &hi2);
    if (!x || !y) return 0;
    return node(TSOIFY_SYM_ICMP, 1, ip, x, y, 64, 0, (uint64_t)r);
  }
  /* one side symbolic: put it on the left */
  uint32_t x = converted(ia ? ia : ib, ia ? a : b, bits, &lo, &hi);
  if (!x) return 0;
  double c = ia ? fb : fa;
  if (!ia) ip = swapped(ip);
  if (c < lo - 1 || c > hi + 1) return 0; /* every x is on the same side (infinities too) */
  double k;
  switch (ip) {
  case I_EQ:
  case I_NE:
    if (c != floor_of(c) || c < lo || c > hi) return 0;
    k = c;
    break;
  case I_SLT: /* x < c: x < ceil(c) */
  case I_SGE: /* x >= c: x >= ceil(c) */
    k = ceil_of(c);
    if (k > hi || k <= lo) return 0;
    break;
  default: /* x <= c, x > c: against floor(c) */
    k = floor_of(c);
    if (k >= hi || k < lo) return 0;
    break;
  }
  int64_t kv = (int64_t)k;
  uint32_t kn = node(TSOIFY_SYM_CONST, 64, 0, 0, 0, 0, (uint64_t)kv, (uint64_t)kv);
  return node(TSOIFY_SYM_ICMP, 1, ip, x, kn, 64, 0, (uint64_t)r);
}

/* Has thread t branched on the expression of node `id` before in this
 * execution? If not, *slot is where its branch goes in the table. */
static int branched_before(int t, uint32_t id, uint32_t *slot) {
  const struct tsoify_shm *s = rt_shm;
  uint64_t h = hash_of[id];
  uint32_t i = (uint32_t)(mix(h, (uint64_t)t) % BRANCH_SLOTS);
  for (;; i = (i + 1) % BRANCH_SLOTS) {
    uint32_t at = branch_slot[i];
    if (!at || at > s->n_path || slot_of_branch[at - 1] != i) break; /* free */
    const struct tsoify_path_cond *p = &s->path[at - 1];
    if (p->thread == (uint32_t)t && hash_of[p->node] == h && same_expression(p->node, id)) return 1;
  }
  *slot = i;
  return 0;
}

/* A conditional branch or an assume on `cond` (its node `id`, `bits` wide):
 * a path condition, a choice of the search, and a TOUCH event that touches
 * nothing (it places the choice among its thread's events; two branches
 * of different threads on one variable need not be ordered both ways, see
 * driver/src/concolic.rs).
 *
 * Unless its thread branched on the same expression before: then its side
 * follows from that branch in every order of the execution (the same
 * values, the same thread before it), so it adds no condition, no choice
 * and no event. A loop that compares a nondet value with the same
 * constants again and again (SV-COMP pthread-finding-k-matches: 500
 * times per thread) then costs one choice per constant. */
static void branch(uint32_t id, uint64_t cond, uint32_t bits, int one_sided) {
  struct tsoify_shm *s = rt_shm;
  uint32_t slot;
  if (branched_before(rt_cur, id, &slot)) return;
  if (s->n_path >= TSOIFY_MAX_PATH)
    rt_end(TSOIFY_ST_INTERNAL, 0, "more than %u branches on nondet values in one execution (a loop over a nondet count? --unroll bounds it)", TSOIFY_MAX_PATH);
  uint32_t at = s->n_path++;
  struct tsoify_path_cond *p = &s->path[at];
  p->node = id;
  p->taken = ((cond & mask(bits)) != 0) | (one_sided ? TSOIFY_PATH_ONE_SIDED : 0);
  p->thread = (uint32_t)rt_cur;
  p->event = s->n_events;
  slot_of_branch[at] = slot;
  branch_slot[slot] = at + 1;
  rt_branch_choice(p->taken & 1);
  rt_event_at(TSOIFY_EV_TOUCH, TSOIFY_SYM_LOC_BASE, 0, 1, rt_cur_loc, 0, 0);
}

void __tsoify_sym_branch(uint32_t id, uint64_t cond, uint32_t bits) {
  if (!id || !in_step(id, cond, bits)) return;
  branch(id, cond, bits, 0);
}

/* An assume on `cond`: a branch whose other side stops its thread for
 * good (libc.c __tsoify_assume). When it passes in a thread that has not
 * stored or loaded a value built from nondet values yet, that other side
 * shows nothing the search misses without it: the stopped thread does
 * nothing more, the other threads cannot depend on its values (none left
 * it) nor it on theirs (none came in), so their conditions do not involve
 * its values, and every order and every value of theirs is reached with
 * values of its own that pass the assume, it going on after them. So the
 * explorer is told not to take that side (TSOIFY_PATH_ONE_SIDED), where it
 * failed the assume again after every other choice before it (equal-inputs.c
 * under TSO: 192 executions, 170 discarded; 64 now). A pinned value left
 * the thread only as values its path condition fixes. A value stored or
 * loaded is shared: assume-given.c fails in the writer when the reader's
 * assume on the value it read fails. */
void __tsoify_sym_assume(uint32_t id, uint64_t cond, uint32_t bits) {
  if (!id || !in_step(id, cond, bits)) return;
  int passes = (cond & mask(bits)) != 0;
  branch(id, cond, bits, passes && !shares_values[rt_cur] && !(rt_shm->sym_flags & TSOIFY_SYM_UNTRACKED));
}

/* A value used where only its concrete value counts (an address, an array
 * index): one branch per bit, highest first, on `(v >> j) & 1`. Those
 * conditions are the same expressions in every execution, so the search
 * flips them like any branch and reaches every feasible value exactly
 * once (a binary tree over the bits; the solver rules out the sides no
 * value takes, so a value bounded to 0..9 costs 10 executions). A branch
 * on `v == current value` would not do: its expression would differ in the
 * execution that takes its other side. */
void __tsoify_sym_pin(uint32_t id, uint64_t v, uint32_t bits) {
  if (!id || !in_step(id, v, bits)) return;
  v &= mask(bits);
  uint32_t one = node(TSOIFY_SYM_CONST, bits, 0, 0, 0, 0, 1, 1);
  for (uint32_t j = bits; j-- > 0;) {
    uint64_t shifted = v >> j;
    uint32_t amount = node(TSOIFY_SYM_CONST, bits, 0, 0, 0, 0, j, j);
    uint32_t s = node(TSOIFY_SYM_LSHR, bits, 0, id, amount, 0, 0, shifted);
    uint32_t bit = node(TSOIFY_SYM_AND, bits, 0, s, one, 0, 0, shifted & 1);
    __tsoify_sym_branch(bit, shifted & 1, bits);
  }
}

/* A value the pass cannot follow symbolically (a library call's argument,
 * floating-point arithmetic, an atomic operand, a local the runtime does
 * not see, ...): it is pinned before that use, like an address, so the use
 * sees one value per path and is exact; the search then takes each
 * feasible value on a path of its own, which ends only for a bounded
 * value (`n` checked to be at most 8 before `1.0 / n`). The reason is kept
 * (TSOIFY_SYM_PINNED) to explain a search that does not end. A value
 * wider than 64 bits is untracked. */
void __tsoify_sym_lost(uint32_t id, uint32_t why, uint32_t line) {
  if (!id) return;
  pin_or_untrack(id, why != LOST_WIDE, "line %u: a value built from a nondet value %s", line, lost_what[why < N_LOST ? why : 0]);
}

/* ---- memory ---- */

static int overlaps(const struct shadow *e, uintptr_t a, uint64_t n) { return rt_ranges_overlap(e->addr, e->size, a, n); }

static int any_overlap(uintptr_t a, uint64_t n) {
  for (uint32_t i = 0; i < n_shadow; i++)
    if (overlaps(&shadow[i], a, n)) return 1;
  return 0;
}

/* Memory [a, a+n) is written, with node `id` (0: concrete bytes), in the
 * order memory is written: a store at once (SC, a locked store), a flush,
 * a read-modify-write. */
void rt_sym_mem_write(uintptr_t a, uint64_t n, uint32_t id) {
  for (uint32_t i = 0; i < n_shadow;) {
    struct shadow *e = &shadow[i];
    if (!overlaps(e, a, n)) {
      i++;
      continue;
    }
    if (a <= e->addr && e->addr + e->size <= a + n) {
      *e = shadow[--n_shadow]; /* overwritten whole */
      continue;
    }
    e->node = POISON; /* some bytes left of a symbolic value */
    i++;
  }
  if (!id) return;
  if (n_shadow >= MAX_SHADOW) {
    untracked("more than %u values built from nondet values in memory at once", MAX_SHADOW);
    return;
  }
  shadow[n_shadow++] = (struct shadow){a, (uint32_t)n, id};
}

/* memory that dies (free, the end of a frame) */
void rt_sym_drop(uintptr_t a, uint64_t n) {
  for (uint32_t i = 0; i < n_shadow;)
    if (overlaps(&shadow[i], a, n)) shadow[i] = shadow[--n_shadow];
    else i++;
}

/* The node memory holds at exactly [a, a+n), 0 for concrete bytes; *mixed
 * when symbolic bytes there are of another shape (another width or offset,
 * or partly overwritten). */
uint32_t rt_sym_mem_node(uintptr_t a, uint64_t n, int *mixed) {
  for (uint32_t i = 0; i < n_shadow; i++) {
    const struct shadow *e = &shadow[i];
    if (!overlaps(e, a, n)) continue;
    if (e->addr == a && e->size == n && e->node != POISON) return e->node;
    *mixed = 1;
    return 0;
  }
  return 0;
}

void __tsoify_sym_store(void *p, uint64_t size, uint32_t id, uint64_t v, uint32_t bits) {
  if (!id || !in_step(id, v, bits)) return;
  int t = rt_cur;
  if (announced[t].id) untracked("a value built from a nondet value was to be stored by a store the runtime did not see");
  announced[t].addr = (uintptr_t)p, announced[t].size = size, announced[t].id = id;
  shares_values[t] = 1;
}

/* The node a store of [a, a+size) by thread t takes along (memmodel.c). */
uint32_t rt_sym_take_store(int t, uintptr_t a, uint64_t size) {
  uint32_t id = announced[t].id;
  if (!id) return 0;
  announced[t].id = 0;
  if (announced[t].addr != a || announced[t].size != size) {
    untracked("a value built from a nondet value was stored in pieces or by a store the runtime did not see");
    return 0;
  }
  rt_sym_stored = 1;
  return id;
}

/* An instrumented integer load of [p, p+size) is next (its read hands the
 * node it sees to __tsoify_sym_load). */
void __tsoify_sym_claim(const void *p) {
  claimed[rt_cur] = (uintptr_t)p;
  loaded[rt_cur] = 0;
}

/* Every read of program memory by thread t (rt_mm_load), with the node it
 * sees (memmodel.c): the load the pass claimed takes it; any other must
 * not see symbolic bytes. */
void rt_sym_read(int t, uintptr_t a, uint64_t n, uint32_t id, int mixed) {
  uintptr_t c = claimed[t];
  claimed[t] = 0;
  if (c == a && c) {
    if (mixed) untracked("a value built from a nondet value is read back at another width or offset, or partly from a store buffer");
    loaded[t] = id;
    if (id || mixed) shares_values[t] = 1;
    return;
  }
  if (id || mixed) untracked("a value built from a nondet value is read by the runtime (a library function, or a load of a type that is not followed)");
}

/* A read the runtime makes for itself (rt_mm_peek) that saw node id. */
void rt_sym_unseen(uint32_t id, int mixed) {
  if (id || mixed) untracked("a value built from a nondet value is read by an atomic operation or the runtime");
}

/* An atomic read-modify-write of memory [a, a+n) (its thread's buffer is
 * drained): symbolic bytes there are not followed; it writes concrete
 * bytes. */
void rt_sym_rmw(uintptr_t a, uint64_t n) {
  if (!n_shadow) return;
  if (any_overlap(a, n)) untracked("a value built from a nondet value is read by an atomic operation or the runtime");
  rt_sym_mem_write(a, n, 0);
}

uint32_t __tsoify_sym_load(const void *p, uint64_t size, uint64_t v, uint32_t bits) {
  (void)p, (void)size;
  int t = rt_cur;
  uint32_t id = loaded[t];
  loaded[t] = 0;
  if (!id || !in_step(id, v, bits)) return 0;
  return id;
}
