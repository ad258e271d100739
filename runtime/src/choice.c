/* choice.c - the one choice point, the event log, and ending an execution.
 *
 * All nondeterminism of an execution (thread schedule, buffer flushes,
 * nondet values) goes through rt_choose(), so an execution is a pure function
 * of the choice prefix the explorer wrote into the channel. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

struct tsoify_shm *rt_shm;
uint32_t rt_cur_loc;

/* standalone runs (no explorer) draw choices from this generator when
 * TSOIFY_SEED is set; otherwise they take alternative 0 everywhere. */
uint64_t rt_random_state;

static uint32_t standalone_pick(uint32_t n) {
  if (!rt_random_state) return 0;
  rt_random_state ^= rt_random_state << 13;
  rt_random_state ^= rt_random_state >> 7;
  rt_random_state ^= rt_random_state << 17;
  return (uint32_t)(rt_random_state % n);
}

/* ---- probe executions (shm->probe; verify's bug-first probes) ----
 *
 * Scheduling as in PCT (Burckhardt et al., "A randomized scheduler with
 * probabilistic guarantees of finding bugs"): every process (thread or
 * flush process) has a random priority drawn from the seed, the enabled
 * one with the highest runs, and now and then (a change point) the one
 * that runs is demoted below all others. A bug that needs a few ordering
 * constraints (a thread that runs after all others, a store that stays
 * buffered until another thread has read) has a fair chance in each probe
 * however long the execution, where uniform random choices almost never
 * serialize twenty threads. Value choices are uniform (standalone_pick). */
#define PROBE_MAX_DEMOTED 64
static uint32_t demoted[PROBE_MAX_DEMOTED]; /* in the order of demotion (per execution) */
static uint32_t n_demoted;

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* lower is better: not demoted, then demoted longest ago */
static uint32_t demotion(uint32_t p) {
  for (uint32_t i = n_demoted; i-- > 0;)
    if (demoted[i] == p) return i + 1;
  return 0;
}

/* Flush-first probes: in half the PCT probes (by a hash of the seed, not
 * alternating with the echo probes' seed bit), a flush process that is
 * not demoted runs before every thread. Such a probe behaves as under SC except where a
 * change point demoted a flush process: a store that stays buffered past
 * the reads of the others, the shape of most TSO and PSO bugs; and a bug
 * SC shows is found about as fast as under SC. With flushes drawn like
 * threads, each of fifty threads' stores must win its draw against the
 * next thread's load (SV-COMP pthread-lit/fkp2013-1 under TSO took 5,286
 * probes, 894 with these; tests/programs/probes/last-of-many.c 1,971
 * against SC's 112, now 112). */
static int flush_first(uint64_t seed) {
  return (mix(seed ^ 0x5ca1ab1e) & 1) == 0;
}

/* lower is better: not demoted (or demoted longest ago), then, in a
 * flush-first probe, a flush process before a thread */
static uint32_t probe_rank(uint32_t p, int flushes_lead) {
  return demotion(p) * 2 + (flushes_lead && p < TSOIFY_FLUSH_PROC);
}

static uint32_t probe_pick(uint32_t n, const uint32_t *procs) {
  uint64_t seed = rt_shm->probe;
  int flushes_lead = flush_first(seed);
  uint32_t best = 0;
  uint32_t best_d = probe_rank(procs[0], flushes_lead);
  uint64_t best_p = mix(seed << 16 ^ procs[0]);
  for (uint32_t i = 1; i < n; i++) {
    uint32_t d = probe_rank(procs[i], flushes_lead);
    uint64_t p = mix(seed << 16 ^ procs[i]);
    if (d < best_d || (d == best_d && p > best_p)) best = i, best_d = d, best_p = p;
  }
  /* a change point at one scheduling choice in 16, 64, 256 or 1024 (by seed) */
  if (n_demoted < PROBE_MAX_DEMOTED && standalone_pick(16u << (2 * (seed % 4))) == 0) demoted[n_demoted++] = procs[best];
  return best;
}

/* A wide nondet variable the search's inputs do not name is 0 in the
 * search (until a branch on it asks the solver for the other side). A
 * probe draws it instead, from values that often matter (0, 1, -1, 2,
 * INT_MAX) or at random: a bug that needs any nonzero value, seen only
 * in an interleaving the depth-first search reaches late, then has its
 * chance in a probe too (SV-COMP pthread-ext/32_pthread5_vs). */
uint64_t rt_probe_value(void) {
  static const uint64_t picks[] = {0, 1, ~0ull, 2, 0x7fffffff};
  uint32_t k = standalone_pick(6);
  return k < 5 ? picks[k] : mix(rt_random_state);
}

/* Echo probes: half of the PCT probes (seed bit 2) give a wide nondet
 * draw the value the execution's previous draw returned (every time with
 * seed bit 3, else three times in four), whatever the search's inputs
 * say. A bug that needs several inputs equal (SV-COMP pthread-nondet/
 * nondet-loop-bound-variant-1: every thread's k equal to main's n) is met
 * by the search only after it has flipped each of those comparisons, in
 * every combination before the one that matters; an echo probe makes all
 * of them equal at once, one probe in a few. */
int rt_probe_echoes(void) {
  uint32_t probe = rt_shm->probe;
  if (!probe || probe & TSOIFY_PROBE_ROTATE || !(probe >> 2 & 1)) return 0;
  return probe >> 3 & 1 || standalone_pick(4) != 0;
}

/* Rotation probes (TSOIFY_PROBE_ROTATE): the opposite of PCT's few
 * priority changes, a switch every few steps. Bugs such as GenMC's and
 * SV-COMP's fib_bench and triangular need the most alternation there is:
 * two threads taking turns at every update while an observer (main, or a
 * thread main created last) waits until they are done; PCT almost never
 * switches that often, and a depth-first search meets that schedule after
 * all the ones with fewer switches. So: flushes first (every store reaches
 * memory at once), main's first `setup` steps (creating the threads), then
 * the threads but `held` and main in turns of `quantum` steps (an update
 * is a load or two and a store), each turn going to the next thread after
 * the last one's, then `held`, then the rest of main (whose end ends the
 * execution). */
static uint32_t rotation_main_steps; /* main's steps so far (per execution) */
static uint32_t rotation_last;       /* the thread the current turn is */
static uint32_t rotation_left;       /* steps left in the current turn */
static int rotation_started;

static uint32_t rotation_pick(uint32_t n, const uint32_t *procs) {
  uint32_t probe = rt_shm->probe;
  uint32_t held = probe >> 16 & 0xff, setup = probe >> 8 & 0xff, quantum = probe >> 24 & 0xf;
  if (!rotation_started) rotation_started = 1, rotation_last = probe & 0xff;
  for (uint32_t i = 0; i < n; i++)
    if (procs[i] >= TSOIFY_FLUSH_PROC) return i;
  uint32_t turn = n, same = n, held_at = n, main_at = n;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t t = procs[i];
    if (t == 0) main_at = i;
    if (t == held) held_at = i;
    if (t == 0 || t == held) continue;
    if (t == rotation_last) same = i;
    /* the next thread after the current turn's, cyclically */
    if (turn == n || (t - rotation_last - 1) % RT_MAX_THREADS < (procs[turn] - rotation_last - 1) % RT_MAX_THREADS) turn = i;
  }
  if (main_at < n && rotation_main_steps < setup) {
    turn = main_at;
  } else if (same < n && rotation_left > 0) {
    turn = same, rotation_left--;
  } else if (turn < n) {
    rotation_last = procs[turn], rotation_left = quantum > 1 ? quantum - 1 : 0;
  } else {
    turn = held_at < n ? held_at : main_at < n ? main_at : 0;
  }
  if (procs[turn] == 0) rotation_main_steps++;
  return turn;
}

/* ---- sleep sets and the guide (see tsoify_channel.h) ---- */

/* Per execution (the data segment is restored between executions). */
static int sleep_active;   /* the sleepers apply from the end of the prefix on */
static uint8_t awake[TSOIFY_MAX_SLEEPERS];
static uint32_t guide_pos;
static int guide_off;

/* A read and a flush of the reader's own buffer commute (tsoify_channel.h). */
static int own_read_and_flush(const struct tsoify_footprint *r, const struct tsoify_footprint *f) {
  return (r->access & (TSOIFY_FP_READ | TSOIFY_FP_WRITE)) == TSOIFY_FP_READ && (f->access & TSOIFY_FP_FLUSH) && r->owner == f->owner;
}

static int fp_dependent(const struct tsoify_footprint *a, const struct tsoify_footprint *b) {
  if (a->proc == b->proc) return 1;
  if ((a->access & TSOIFY_FP_FLUSH) && (b->access & TSOIFY_FP_AFTER_FLUSHES) && a->owner == b->owner) return 1;
  if ((b->access & TSOIFY_FP_FLUSH) && (a->access & TSOIFY_FP_AFTER_FLUSHES) && a->owner == b->owner) return 1;
  if ((a->access & TSOIFY_FP_SYNC) && (b->access & TSOIFY_FP_SYNC)) return a->lo == b->lo;
  if ((a->access | b->access) & TSOIFY_FP_SYNC) return 0;
  unsigned mem = TSOIFY_FP_READ | TSOIFY_FP_WRITE;
  if (!((a->access | b->access) & TSOIFY_FP_WRITE) || !(a->access & mem) || !(b->access & mem)) return 0;
  if (own_read_and_flush(a, b) || own_read_and_flush(b, a)) return 0;
  return a->lo < b->hi && b->lo < a->hi;
}

/* An executed event wakes every sleeper whose next step depends on it. */
static void wake_sleepers(const struct tsoify_footprint *f) {
  struct tsoify_shm *s = rt_shm;
  for (uint32_t i = 0; i < s->n_sleepers; i++) {
    if (awake[i]) continue;
    const struct tsoify_sleeper *z = &s->sleepers[i];
    for (uint32_t k = 0; k < z->n; k++)
      if (fp_dependent(&s->sleep_fps[z->first + k], f)) {
        awake[i] = 1;
        break;
      }
  }
}

static int asleep(uint32_t proc) {
  struct tsoify_shm *s = rt_shm;
  if (!sleep_active) return 0;
  for (uint32_t i = 0; i < s->n_sleepers; i++)
    if (!awake[i] && s->sleepers[i].proc == proc) return 1;
  return 0;
}

/* Record who is asleep at new choice k, for the explorer. */
static void report_sleepers(struct tsoify_choice *c) {
  struct tsoify_shm *s = rt_shm;
  c->sleep_first = s->n_sleep_procs;
  c->sleep_n = 0;
  if (!sleep_active || (s->flags & TSOIFY_FL_SLEEP_TRUNC)) return;
  for (uint32_t i = 0; i < s->n_sleepers; i++) {
    if (awake[i]) continue;
    if (s->n_sleep_procs >= TSOIFY_MAX_SLEEP_PROCS) {
      s->flags |= TSOIFY_FL_SLEEP_TRUNC;
      c->sleep_n = 0;
      return;
    }
    s->sleep_procs[s->n_sleep_procs++] = s->sleepers[i].proc;
    c->sleep_n++;
  }
}

/* The guide's next entry, if it is of the wanted kind (else the guide is
 * abandoned: the explorer learns so from the flag). */
static int guide_next(int want_proc, uint32_t *out) {
  struct tsoify_shm *s = rt_shm;
  if (guide_off || guide_pos >= s->guide_len) return 0;
  uint32_t g = s->guide[guide_pos];
  if (((g & TSOIFY_GUIDE_PROC) != 0) != want_proc) {
    guide_off = 1;
    s->flags |= TSOIFY_FL_GUIDE_BROKEN;
    return 0;
  }
  guide_pos++;
  *out = g & ~TSOIFY_GUIDE_PROC;
  return 1;
}

static void guide_broken(void) {
  guide_off = 1;
  rt_shm->flags |= TSOIFY_FL_GUIDE_BROKEN;
}

/* The choice at trail index k: replayed from the prefix, or taken by `pick`
 * for a new one. */
static struct tsoify_choice *record(uint32_t n, int kind) {
  struct tsoify_shm *s = rt_shm;
  uint32_t k = s->trail_len;
  if (k >= TSOIFY_MAX_CHOICES) rt_end(TSOIFY_ST_INTERNAL, 0, "more than %u choice points in one execution", TSOIFY_MAX_CHOICES);
  struct tsoify_choice *c = &s->choices[k];
  c->count = n;
  c->kind = (uint16_t)kind;
  c->thread = (uint16_t)rt_cur;
  c->event = s->n_events;
  s->trail_len = k + 1;
  return c;
}

static uint32_t replayed(struct tsoify_choice *c, uint32_t k, uint32_t n) {
  struct tsoify_shm *s = rt_shm;
  uint32_t v = c->chosen;
  if (v >= n)
    rt_end(TSOIFY_ST_INTERNAL, 0,
           "replay diverged at choice %u (%u of %u): the program is not deterministic under a fixed schedule", k, v, n);
  if (k + 1 == s->prefix_len) sleep_active = 1;
  return v;
}

uint32_t rt_choose(uint32_t n, int kind) {
  if (n <= 1) return 0;
  struct tsoify_shm *s = rt_shm;
  uint32_t k = s->trail_len;
  struct tsoify_choice *c = record(n, kind);
  if (k < s->prefix_len) return replayed(c, k, n);
  if (s->prefix_len == 0) sleep_active = 1;
  report_sleepers(c);
  uint32_t v = 0;
  if (guide_next(0, &v)) {
    if (v >= n) guide_broken(), v = 0;
  } else if (!s->guide_len && !s->n_sleepers) {
    v = standalone_pick(n);
  }
  c->chosen = v;
  return v;
}

/* A branch (or assume) on a value built from wide nondet values (sym.c):
 * a choice the explorer sees, with alternative 1 = the side taken, 0 = the
 * other. The inputs decide the side, not the choice: the explorer gives
 * each side its own inputs (driver/src/concolic.rs), so a replayed prefix
 * must take the side it took before, and a guided step takes the side its
 * inputs give (a guide entry for the choice is consumed; when it names the
 * other side the guide is left, and the explorer is told). */
void rt_branch_choice(uint32_t taken) {
  struct tsoify_shm *s = rt_shm;
  uint32_t k = s->trail_len;
  struct tsoify_choice *c = record(2, TSOIFY_CH_BRANCH);
  if (k < s->prefix_len) {
    if (c->chosen != taken)
      rt_end(TSOIFY_ST_INTERNAL, 0,
             "replay diverged at choice %u: the nondet values for side %u of a branch took side %u", k, c->chosen, taken);
    if (k + 1 == s->prefix_len) sleep_active = 1;
    return;
  }
  if (s->prefix_len == 0) sleep_active = 1;
  report_sleepers(c);
  uint32_t v;
  if (!guide_off && guide_pos < s->guide_len && (!guide_next(0, &v) || v != taken)) {
    guide_broken();
    s->sym_flags |= TSOIFY_SYM_GUIDE_LEFT;
  }
  c->chosen = taken;
}

/* A scheduling choice among processes. Recorded even with one option, so
 * that every step of an execution (one process running from one scheduling
 * point to the next) starts at a choice the explorer can see. */
uint32_t rt_choose_proc(uint32_t n, const uint32_t *procs, uint64_t room_waiters) {
  struct tsoify_shm *s = rt_shm;
  uint32_t base = s->n_options;
  uint32_t extra = room_waiters ? 2 : 0; /* the waiters' mask follows the options (TSOIFY_CH_ROOM_WAIT) */
  if (base + n + extra > TSOIFY_MAX_OPTIONS) rt_end(TSOIFY_ST_INTERNAL, 0, "more than %u scheduling options in one execution", TSOIFY_MAX_OPTIONS);
  memcpy(&s->option_procs[base], procs, n * sizeof *procs);
  if (extra) s->option_procs[base + n] = (uint32_t)room_waiters, s->option_procs[base + n + 1] = (uint32_t)(room_waiters >> 32);
  s->n_options = base + n + extra;
  uint32_t k = s->trail_len;
  struct tsoify_choice *c = record(n, TSOIFY_CH_SCHEDULE | (room_waiters ? TSOIFY_CH_ROOM_WAIT : 0u));
  c->options = base;
  if (k < s->prefix_len) return replayed(c, k, n);
  if (s->prefix_len == 0) sleep_active = 1;
  report_sleepers(c);
  uint32_t want, v = n;
  if (guide_next(1, &want)) {
    /* a guided step is taken even if its process looks asleep: the
     * explorer checked that it is not redundant */
    for (uint32_t i = 0; i < n && v == n; i++)
      if (procs[i] == want) v = i;
    if (v == n) guide_broken();
  } else if (n > 1 && !s->guide_len && !s->n_sleepers) {
    v = s->probe & TSOIFY_PROBE_ROTATE ? rotation_pick(n, procs) : s->probe ? probe_pick(n, procs) : standalone_pick(n);
  }
  for (uint32_t i = 0; i < n && v == n; i++)
    if (!asleep(procs[i])) v = i;
  if (v == n) {
    s->trail_len = k; /* no step starts here: the choice is not part of the trail */
    s->flags |= TSOIFY_FL_RAN_OUT;
    rt_end(TSOIFY_ST_SLEEP_BLOCKED, 0, 0);
  }
  c->chosen = v;
  return v;
}

uint64_t rt_value_of(const void *bytes, uint32_t size) {
  uint64_t v = 0;
  memcpy(&v, bytes, size < 8 ? size : 8);
  return v;
}

/* The footprint of an event (see tsoify_channel.h): the one definition of
 * what each operation touches. */
static void footprint(struct tsoify_footprint *f, int kind, uint64_t addr, uint32_t size, uint64_t value, uint32_t aux) {
  memset(f, 0, sizeof *f);
  f->proc = (uint32_t)rt_cur;
  f->lo = addr;
  f->hi = addr + (size ? size : 1);
  switch (kind) {
  case TSOIFY_EV_LOAD:
  case TSOIFY_EV_AWAIT: f->access = TSOIFY_FP_READ; break;
  case TSOIFY_EV_STORE: f->access = aux == 0 ? TSOIFY_FP_WRITE : 0; break; /* buffered: unseen until flushed */
  case TSOIFY_EV_FLUSH: f->access = TSOIFY_FP_WRITE | TSOIFY_FP_FLUSH, f->proc = aux; break;
  case TSOIFY_EV_RMW: f->access = TSOIFY_FP_READ | TSOIFY_FP_WRITE; break;
  /* A compare-exchange writes for the reduction even when it failed. A
   * failed one changes nothing, but whether it fails depends on the value
   * it reads, and a process's next event must not change kind with the
   * state (the model DPOR's sleep sets and wakeup trees rest on): taken as
   * a read, a sleeping compare-exchange stayed asleep through another
   * thread's failed one and optimal DPOR lost an interleaving of a CAS ring
   * (tests/programs/reduction/casrot-miss.c, SAFE where the assertion fails). */
  case TSOIFY_EV_CMPXCHG: f->access = TSOIFY_FP_READ | TSOIFY_FP_WRITE; break;
  case TSOIFY_EV_FREE: f->access = TSOIFY_FP_WRITE, f->hi = addr + (value ? value : 1); break;
  case TSOIFY_EV_LOCK: f->access = TSOIFY_FP_SYNC | (aux & TSOIFY_LOCK_FAILED ? TSOIFY_FP_TRY : 0); break;
  case TSOIFY_EV_COND_WAIT:
  case TSOIFY_EV_COND_SIGNAL: f->access = TSOIFY_FP_SYNC; break;
  case TSOIFY_EV_UNLOCK: {
    uint32_t kind_of = aux & 0xff;
    int overtakable = kind_of == TSOIFY_OBJ_KIND_BARRIER || kind_of == TSOIFY_OBJ_KIND_SEMAPHORE;
    f->access = TSOIFY_FP_SYNC | (overtakable ? 0 : TSOIFY_FP_RELEASE);
    break;
  }
  /* a declared block (aux 1: an export's runtime step) touches what its
   * TOUCH events say, and nothing at its ends */
  case TSOIFY_EV_ATOMIC_BEGIN: f->access = aux ? 0 : TSOIFY_FP_SYNC, f->lo = TSOIFY_OBJ_ATOMIC_BLOCK; break;
  case TSOIFY_EV_ATOMIC_END:
    f->access = aux ? 0 : TSOIFY_FP_SYNC | TSOIFY_FP_RELEASE, f->lo = TSOIFY_OBJ_ATOMIC_BLOCK;
    break;
  case TSOIFY_EV_TOUCH: f->access = (uint8_t)(aux & (TSOIFY_FP_READ | TSOIFY_FP_WRITE)), f->hi = addr + value; break;
  case TSOIFY_EV_SPAWN: f->access = TSOIFY_FP_SYNC, f->lo = TSOIFY_OBJ_THREAD_TABLE; break;
  default: break;
  }
  if (f->access & TSOIFY_FP_SYNC) f->hi = f->lo + 1;
  f->owner = (uint16_t)rt_cur; /* a flush is logged as its owner's event */
  /* Thread events that wait for the thread's flushes so far: those that
   * drain its buffer, and a store that evicted, waited for room, or fits
   * in a bounded buffer only because entries have left (aux 2, 3, 4; a
   * store that would fit even had none left, aux 1, does not wait: a
   * bound the program never reaches orders nothing). */
  switch (kind) {
  case TSOIFY_EV_FENCE: case TSOIFY_EV_RMW: case TSOIFY_EV_CMPXCHG: case TSOIFY_EV_SPAWN: case TSOIFY_EV_JOIN:
  case TSOIFY_EV_EXIT: case TSOIFY_EV_LOCK: case TSOIFY_EV_UNLOCK: case TSOIFY_EV_ATOMIC_BEGIN:
  case TSOIFY_EV_ATOMIC_END: case TSOIFY_EV_COND_WAIT: case TSOIFY_EV_COND_SIGNAL:
    f->access |= TSOIFY_FP_AFTER_FLUSHES;
    break;
  case TSOIFY_EV_STORE:
    if (aux != 1) f->access |= TSOIFY_FP_AFTER_FLUSHES; /* (aux 4: the first m, see driver/src/dpor/wakeup.rs, room_in_reversal) */
    break;
  default: break;
  }
}

void rt_event(int kind, const void *addr, uint32_t size, uint64_t value, uint32_t loc, uint32_t aux,
              uint32_t aux2) {
  rt_event_at(kind, (uint64_t)(uintptr_t)addr, size, value, loc, aux, aux2);
}

/* rt_event at an address that need not be a pointer of the program (a
 * pseudo-location above every program address, also in a 32-bit program) */
void rt_event_at(int kind, uint64_t addr, uint32_t size, uint64_t value, uint32_t loc, uint32_t aux,
                 uint32_t aux2) {
  struct tsoify_shm *s = rt_shm;
  struct tsoify_footprint f;
  footprint(&f, kind, addr, size, value, aux);
  /* (a branch on nondet values writes only its pseudo-location: an await
   * iteration that branched on one changed nothing, see sym.c) */
  if (kind != TSOIFY_EV_TOUCH || addr < TSOIFY_SYM_LOC_BASE) rt_await_event(kind);
  if (sleep_active && s->n_sleepers) wake_sleepers(&f);
  if (!s->log_events) return;
  if (s->n_events >= TSOIFY_MAX_EVENTS) {
    s->flags |= TSOIFY_FL_EVENTS_TRUNC;
    return;
  }
  struct tsoify_event *e = &s->events[s->n_events++];
  e->thread = (uint16_t)rt_cur;
  e->kind = (uint8_t)kind;
  e->size = (uint8_t)(size > 255 ? 255 : size);
  e->loc = loc;
  e->addr = addr;
  e->value = value;
  e->aux = aux;
  e->aux2 = aux2;
  e->fp = f;
}

_Noreturn void rt_end(int status, uint32_t loc, const char *fmt, ...) {
  struct tsoify_shm *s = rt_shm;
  rt_sym_end();
  /* after a failed assume the path is infeasible: nothing on it counts,
   * except a violation at an event of a thread, which the explorer keeps
   * when it does not depend on any failed assume (the execution without
   * the failed steps reaches it: explore/mod.rs, dpor/mod.rs beside_failed_assumes) */
  int at_an_event = status == TSOIFY_ST_ASSERT || status == TSOIFY_ST_REACH_ERROR || status == TSOIFY_ST_ABORT || status == TSOIFY_ST_FREED;
  /* (a normal end is complete when main was already at its end then:
   * the process could have ended before the failed step) */
  int ended_first = status == TSOIFY_ST_DONE && (s->flags & TSOIFY_FL_END_BEFORE_ASSUME);
  if ((s->flags & TSOIFY_FL_ASSUME_FAILED) && !at_an_event && status != TSOIFY_ST_INTERNAL &&
      status != TSOIFY_ST_SLEEP_BLOCKED && !ended_first)
    status = TSOIFY_ST_ASSUME, fmt = 0;
  /* a thread was cut: an ending without a violation is not the program's */
  if ((s->flags & TSOIFY_FL_UNROLL_CUT) && (status == TSOIFY_ST_DONE || status == TSOIFY_ST_DEADLOCK || status == TSOIFY_ST_LIVELOCK))
    status = TSOIFY_ST_UNROLL, fmt = 0;
  s->status = (uint32_t)status;
  s->status_loc = loc;
  s->status_thread = (uint32_t)rt_cur;
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
  }
  if (status != TSOIFY_ST_DONE && status != TSOIFY_ST_ASSUME && status != TSOIFY_ST_SLEEP_BLOCKED)
    rt_event(TSOIFY_EV_ERROR, 0, 0, (uint64_t)status, loc, 0, 0);
  extern void rt_standalone_report(void);
  rt_standalone_report();
  rt_leave_execution();
}
