/* await.c - loops that only wait: block the thread until what it read changes,
 * and the per-entry loop bound (--unroll).
 *
 * The pass marks a loop as an await candidate when one iteration cannot
 * change the thread's local state unseen: the loop is innermost, the values
 * its header carries from one iteration to the next (phis) are integers or
 * pointers, which each latch compares with what the iteration began with
 * (__tsoify_await_carried: an iteration that changed one is spoiled), and its
 * body has no exceptional control flow. Before each instruction of the body
 * that changes local state unseen (a store to a private local, an alloca, a
 * call the runtime cannot follow: an undefined function it does not model,
 * an indirect call, inline asm) the pass calls
 * __tsoify_await_spoil(): an iteration that runs one is spoiled, an iteration
 * on another path (the `continue` of a spin loop whose other path writes a
 * private array) is not. Loads, fences, atomic RMWs and compare-exchanges are
 * seen by the runtime. The pass calls __tsoify_await_begin() at the top of
 * every iteration and __tsoify_loop_back() on every back edge.
 *
 * The runtime then checks each iteration dynamically. It records every value
 * the iteration read (address, size, bytes) and whether it did anything else
 * that another iteration would repeat with a different result: a store
 * (buffered or not), a sync call, a nondet value, a free. At the back edge of
 * an iteration that did nothing else, it compares the thread's current view
 * of each location read (its own newest buffered store, else memory) with the
 * recorded bytes:
 *   - if one differs, the next iteration may go another way: it runs now;
 *   - if none differs, the next iteration would read the same values, compute
 *     the same locals and take the same branch back: it is a no-op, and so is
 *     every later one until some location read changes. The thread blocks
 *     (W_AWAIT) and is enabled again once its view of a recorded location
 *     differs from what it read.
 *
 * Why this loses no behaviour (safety properties only): an iteration with
 * the same reads as the one before it leaves every thread's state, every
 * buffer and memory as they were (its fences drain nothing, the buffer being
 * empty of its own stores since the last iteration; an RMW or CAS that wrote
 * the value it read changed nothing). So an execution that runs such an
 * iteration is equivalent to one in which the thread waits instead, and the
 * iterations that can differ are exactly those after a change of a location
 * read, which blocking lets run. Under TSO and PSO a thread reads its own
 * buffer before memory, so the view is computed the same way; stores still in
 * another thread's buffer are invisible to it until a flush writes memory,
 * and a flush is a step of its own (or, without reduction, a step the
 * scheduler offers because an awaiting thread could observe it).
 *
 * If every live thread waits this way and no flush is left that one of them
 * could observe, no thread can ever make progress: the execution ends as
 * LIVELOCK (the program would spin forever there). Iterations that change
 * local state (a counter) are never blocked; --unroll bounds those.
 *
 * That is --await-wake (shm await_mode TSOIFY_AWAIT_WAKE). By default
 * (TSOIFY_AWAIT_STOP, GenMC's spin-assume) an iteration that did nothing
 * but read and goes round again stops its thread for the rest of the
 * execution, whether or not what it read has changed meanwhile: no
 * execution needs it. Take any execution of the program and delete every
 * such failing iteration from it: what is left is an execution too (the
 * deleted steps changed no state, as above; a fence in one drained stores
 * the flush steps can drain at the same points), with the same outcome
 * and the same violations, in which each await loop runs once, right
 * where it succeeds (an iteration whose RMW or compare-exchange wrote a
 * new value is no such step, since others may read what it wrote: it
 * blocks as with --await-wake, where the view it changed makes it run
 * again). The search reaches that one: the reads of the one
 * iteration race with the writes that let it succeed, and reversing the
 * races puts the writes first. So a failing iteration only has to be
 * seen, not repeated. An iteration that also took nondet values stops
 * too (a retry loop, `while (1) { i = idx; if (nondet()) break; }`): the
 * deleted iteration's draws are free choices, and the one that succeeds
 * draws, at the same choice, the values explored beside the failing ones.
 * How the execution ends says what it was:
 *   - a violation, or main's end (the process ends while the thread spins):
 *     real, as it stands;
 *   - nothing left to run, and a stopped thread's view of what it read
 *     has changed since, or its iteration took nondet values: it would
 *     run the iteration again (and might draw its way out), and the
 *     executions in which it does are explored elsewhere, so this one is
 *     discarded like a failed assume (ASSUME);
 *   - nothing left to run, no stopped thread's view changed: LIVELOCK, as
 *     with blocking.
 * On GenMC's saver tests this takes spin-2cas-const from over 680,000
 * executions (unfinished) to 167 under SC; --await-wake is the reference it
 * is tested against, and --no-await the one both are. */
#include <stdlib.h>
#include <string.h>
#include "rt.h"

#define AWAIT_READS 8

struct await_read {
  uintptr_t addr;
  uint32_t size;
  uint8_t bytes[RT_ENTRY_BYTES];
};

struct await_rec {
  uint64_t gen; /* the running iteration (the thread's count of iterations begun) */
  int active;  /* an iteration of an await candidate is running */
  int spoiled; /* it did more than read */
  int wrote;   /* an RMW or compare-exchange of it changed a value */
  int drew;    /* it took nondet values (TSOIFY_AWAIT_STOP only) */
  uint32_t n;
  uint32_t loc; /* the loop, while blocked */
  struct await_read r[AWAIT_READS];
};

/* outside the data segment (restored between executions): make_thread resets
 * each record it hands out */
static struct await_rec *recs;

void rt_await_init(void) {
  recs = rt_scratch(RT_MAX_THREADS * sizeof *recs);
}

void rt_await_reset(int t) { recs[t].active = 0, recs[t].n = 0, recs[t].gen = 0; }

/* The top of an iteration of await candidate `loc`: returns the iteration's
 * generation, which the back edge hands back. A nested loop's or a callee's
 * iteration begins a new generation, so the outer back edge then knows the
 * record is not its own and does not block. */
uint64_t __tsoify_await_begin(uint32_t loc) {
  struct await_rec *a = &recs[rt_cur];
  a->active = 1;
  a->spoiled = 0;
  a->wrote = 0;
  a->drew = 0;
  a->n = 0;
  a->loc = loc;
  return ++a->gen;
}

/* A latch of a candidate whose header carries values (phis) from one
 * iteration to the next: `changed` says whether this iteration changed one.
 * Such an iteration is not a no-op, so it does not block. */
void __tsoify_await_carried(uint32_t changed, uint64_t gen) {
  struct await_rec *a = &recs[rt_cur];
  if (changed && gen && gen == a->gen) a->spoiled = 1;
}

/* Before an instruction of a candidate that changes local state the runtime
 * does not see (a store to a private local, an alloca, a call it cannot
 * follow): the running iteration, whichever loop's it is, is no no-op. */
void __tsoify_await_spoil(void) { rt_await_spoil(); }

void rt_await_spoil(void) {
  if (recs) recs[rt_cur].spoiled = 1;
}

/* An RMW or compare-exchange of the running iteration wrote a value other
 * than the one it read: others may read that value, so the iteration is no
 * no-op that could be deleted; under TSOIFY_AWAIT_STOP it does not stop its
 * thread, it blocks as with --await-wake (where the view it changed makes
 * it run again). */
void rt_await_wrote(void) {
  if (recs) recs[rt_cur].wrote = 1;
}

void rt_await_read(int t, const void *addr, uint32_t size, const void *bytes) {
  struct await_rec *a = &recs[t];
  if (!a->active) return;
  if (a->n == AWAIT_READS || size > RT_ENTRY_BYTES) {
    a->spoiled = 1;
    return;
  }
  struct await_read *r = &a->r[a->n++];
  r->addr = (uintptr_t)addr;
  r->size = size;
  memcpy(r->bytes, bytes, size);
}

void rt_await_event(int kind) {
  struct await_rec *a = &recs[rt_cur];
  if (!a->active) return;
  switch (kind) {
  case TSOIFY_EV_LOAD: case TSOIFY_EV_FLUSH: case TSOIFY_EV_FENCE: case TSOIFY_EV_RMW: case TSOIFY_EV_CMPXCHG:
  case TSOIFY_EV_AWAIT: case TSOIFY_EV_C11_FENCE:
    return; /* reads (their values are recorded), or the thread's flushes */
  case TSOIFY_EV_ATOMIC_BEGIN: case TSOIFY_EV_ATOMIC_END:
    return; /* a block entered and left in one iteration leaves no trace */
  case TSOIFY_EV_NONDET:
    /* A failing iteration that took nondet values stops too: its values'
     * other choices, explored beside it, are what a later iteration with
     * the same reads could draw (a value kept in a loop-carried local
     * spoils it at the latch). Blocking (--await-wake) would wait for a
     * change of view that other draws do not need: spoiled there. */
    if (rt_shm->await_mode == TSOIFY_AWAIT_STOP) {
      a->drew = 1;
      return;
    }
    /* fall through */
  default:
    a->spoiled = 1;
  }
}

int rt_await_changed(int t) {
  const struct await_rec *a = &recs[t];
  uint8_t now[RT_ENTRY_BYTES];
  for (uint32_t i = 0; i < a->n; i++) {
    rt_mm_peek(t, (const void *)a->r[i].addr, a->r[i].size, now);
    if (memcmp(now, a->r[i].bytes, a->r[i].size)) return 1;
  }
  return 0;
}

int rt_await_observes(int t, int u) {
  const struct await_rec *a = &recs[t];
  if (t == u) return 0; /* t reads its own newest entry whether or not older ones flush */
  for (uint32_t i = 0; i < a->n; i++)
    if (rt_mm_buffer_overlaps(u, (const void *)a->r[i].addr, a->r[i].size)) return 1;
  return 0;
}

uint32_t rt_await_loc(int t) { return recs[t].loc; }

int rt_await_drew(int t) { return recs[t].drew; }

/* The back edge of a loop: `iteration` counts the back edges taken since the
 * loop was entered, `taken` says whether this one is taken now (the pass
 * calls before a conditional branch), `gen` is what __tsoify_await_begin
 * returned at the top of this iteration (0: not an await candidate). */
void __tsoify_loop_back(uint32_t loc, uint64_t iteration, uint32_t taken, uint64_t gen) {
  if (!taken) return;
  uint32_t bound = rt_shm->unroll;
  if (bound && iteration > bound) {
    rt_cur_loc = loc;
    rt_cut_thread();
  }
  struct await_rec *a = &recs[rt_cur];
  if (!gen || gen != a->gen || !a->active || rt_shm->await_mode == TSOIFY_AWAIT_NONE) return;
  a->active = 0;
  if (a->spoiled) return;
  if (rt_shm->await_mode == TSOIFY_AWAIT_STOP && !a->wrote) rt_await_stop();
  if (rt_await_changed(rt_cur)) return;
  rt_await_block();
  /* woken: the locations read are what the next step depends on */
  uint8_t now[RT_ENTRY_BYTES];
  for (uint32_t i = 0; i < a->n; i++) {
    rt_mm_peek(rt_cur, (const void *)a->r[i].addr, a->r[i].size, now);
    rt_event(TSOIFY_EV_AWAIT, (const void *)a->r[i].addr, a->r[i].size, rt_value_of(now, a->r[i].size), loc, 0, 0);
  }
}
