/* threads.c - program threads as coroutines on one OS thread, the
 * scheduler, and the pthread/sync calls the pass redirects here.
 *
 * Exactly one program thread runs at a time. A thread runs until it reaches a
 * scheduling point (a visible memory operation or a sync call); there the
 * scheduler asks rt_choose() which thread continues, or (in the relaxed
 * models) which store-buffer entry reaches memory first. Blocking calls
 * (join, mutex lock, cond wait) are modelled as "not enabled until ...". */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "context.h"
#include "rt.h"

#define STACK_BYTES (256u * 1024u)

enum { T_UNUSED = 0, T_RUNNABLE, T_FINISHED };
enum { W_NONE = 0, W_JOIN, W_MUTEX, W_COND, W_FOREVER, W_AWAIT, W_END, W_UNTIL, W_AWAIT_STOP };

struct rt_thread {
  struct rt_context ctx;
  char *stack;
  int state;
  int wait;          /* what the thread waits for at its scheduling point */
  void *wait_obj;    /* joined thread id (as pointer), mutex or cond */
  void *(*fn)(void *);
  void *arg;
  void *retval;
  pthread_mutex_t *cond_mutex; /* mutex to re-acquire after a cond wait */
  int pend;          /* PEND_*: the operation waiting at the scheduling point */
  int need;          /* NEED_*: what it needs of its own buffer first */
  int fresh;         /* started, no scheduling point reached yet */
  uint32_t spurious; /* spurious wakeups so far (bounded by rt_shm->spurious) */
  const void *pend_addr;
  uint64_t pend_size;
  int (*until)(const void *obj, uint64_t arg); /* W_UNTIL: enabled when it holds */
  uint64_t until_arg;
};

/* Thread records live outside the program's data segment (which the worker
 * restores between executions); make_thread() resets what an execution uses. */
static struct rt_thread *threads;
static int nthreads;
static uint64_t runnable; /* bit t: threads[t].state == T_RUNNABLE (for the scheduler's scans) */
static int atomic_owner = -1, atomic_depth; /* __VERIFIER_atomic_begin/end */
static struct rt_context server_ctx;
int rt_cur;
int rt_in_runtime;

/* Our view of a pthread mutex lives in the program's mutex object: the first
 * int holds owner+1 (0 = free), so PTHREAD_MUTEX_INITIALIZER (all zero) and
 * pthread_mutex_init both mean "free". */
static int *mutex_word(pthread_mutex_t *m) { return (int *)(void *)m; }

void rt_threads_init(void) {
  /* Stacks are made once, before the first execution, and reused. */
  threads = rt_scratch(RT_MAX_THREADS * sizeof *threads);
  for (int i = 0; i < RT_MAX_THREADS; i++) threads[i].stack = rt_scratch(STACK_BYTES);
}

int rt_atomic_depth(void) { return atomic_depth; }

static int could_run(int t);

/* t waits in an await loop: blocked (--await-wake) or stopped (await.c) */
static int in_await(int t) { return threads[t].state == T_RUNNABLE && (threads[t].wait == W_AWAIT || threads[t].wait == W_AWAIT_STOP); }

static int enabled(int t) {
  struct rt_thread *th = &threads[t];
  if (th->state != T_RUNNABLE) return 0;
  if (atomic_owner >= 0 && atomic_owner != t) return 0;
  if (th->need == NEED_EMPTY && rt_mm_nonempty >> t & 1 && rt_shm->por) return 0;
  if (th->need == NEED_ROOM && rt_mm_at_bound >> t & 1 && rt_shm->por) return 0;
  if (th->wait == W_NONE) return 1; /* the common case, without a call */
  if (th->wait == W_END) {
    for (int u = 0; u < nthreads && atomic_owner != t; u++)
      if (u != t && could_run(u)) return 0;
    return 1;
  }
  return could_run(t);
}

/* t waits for nothing that has not happened (its own buffer aside, which
 * flush steps can always empty) */
static int could_run(int t) {
  struct rt_thread *th = &threads[t];
  if (th->state != T_RUNNABLE) return 0;
  switch (th->wait) {
  case W_JOIN: return threads[(intptr_t)th->wait_obj].state == T_FINISHED;
  case W_MUTEX: return *mutex_word(th->wait_obj) == 0;
  case W_COND: return 0; /* made W_MUTEX by a signal */
  case W_FOREVER: return 0;
  case W_AWAIT: return rt_await_changed(t);
  case W_AWAIT_STOP: return 0;
  case W_END: return 0;
  case W_UNTIL: return th->until(th->wait_obj, th->until_arg);
  default: return 1;
  }
}

static void switch_to(int t) {
  int prev = rt_cur;
  if (t == prev) return;
  /* the location of the call this thread is in: the others overwrite it
   * while it waits, and its events after the wait name that call */
  uint32_t loc = rt_cur_loc;
  rt_cur = t;
  rt_context_switch(&threads[prev].ctx, &threads[t].ctx);
  rt_cur_loc = loc;
}

/* A scheduling point's options are in the order of preference where the explorer leaves
 * the choice open (alternative 0, the first one awake): flushes first, then
 * threads. Flushing early makes each new execution start with SC behaviour
 * (every load reads the newest store), and the reduction reaches the
 * delayed flushes by reversing races, as it reaches every other order. A
 * bug that needs no relaxed behaviour is then found about as soon as
 * under SC: on GenMC's fib_bench under TSO, after 91,072 executions
 * instead of 362,999 when threads came first (SC: 42,796).
 *
 * The scheduler proper. `self_ok` is 0 when the current thread has finished. */
static void schedule(int self_ok) {
  struct tsoify_shm *s = rt_shm;
  for (;;) {
    if (++s->steps > s->max_steps)
      rt_end(TSOIFY_ST_STEP_LIMIT, rt_cur_loc, "more than %u scheduling steps in one execution (a loop that does not end?)", s->max_steps);
    /* the enabled threads, then the options: flushes first (see above) */
    int ready[RT_MAX_THREADS];
    int threads_enabled = 0;
    for (uint64_t live = runnable; live; live &= live - 1) {
      int t = __builtin_ctzll(live);
      if ((t != rt_cur || self_ok) && enabled(t)) ready[threads_enabled++] = t;
    }
    int opt_thread[RT_MAX_OPTIONS];
    uint32_t opt_entry[RT_MAX_OPTIONS];
    uint32_t procs[RT_MAX_OPTIONS]; /* each option's process, for the explorer */
    int n = 0;
    /* Reference relaxed model: any flushable buffer entry may reach memory
     * now (threads with buffered stores, lowest first). Inside an atomic
     * block only the block's own thread may flush. */
    uint64_t flushable = rt_mm_nonempty;
    if (atomic_owner >= 0) flushable &= 1ull << atomic_owner;
    for (; flushable; flushable &= flushable - 1) {
      int t = __builtin_ctzll(flushable);
      /* Without reduction by the explorer, offer a flush only when an
       * operation about to run could observe it; under POR offer every
       * flush and let the explorer prune the ones that commute. */
      int observed = s->por;
      for (int k = 0; k < threads_enabled && !observed; k++)
        observed = rt_pending_conflicts(ready[k], t);
      /* a thread blocked in an await loop observes what could wake it */
      for (int w = 0; w < nthreads && !observed; w++)
        observed = in_await(w) && rt_await_observes(w, t);
      if (!observed) continue;
      uint32_t idx[RT_MAX_OPTIONS];
      int k = rt_mm_flush_options(t, idx, RT_MAX_OPTIONS - threads_enabled - n);
      for (int i = 0; i < k; i++) opt_thread[n] = t, opt_entry[n] = idx[i], procs[n] = rt_mm_flush_proc(t, idx[i]), n++;
    }
    for (int k = 0; k < threads_enabled; k++) opt_thread[n] = ready[k], opt_entry[n] = UINT32_MAX, procs[n] = (uint32_t)ready[k], n++;
    /* nothing can run: rt_end turns this into ASSUME or UNROLL when a
     * thread was stopped by a failed assume or by --unroll */
    if (n == 0) {
      s->flags |= TSOIFY_FL_RAN_OUT;
      /* a thread stopped in a failing await iteration whose view has
       * changed since, or that took nondet values (others could take it
       * out), would run it again: not an end the program reaches
       * (await.c); the executions where it runs later are explored */
      for (int t = 0; t < nthreads; t++)
        if (threads[t].state == T_RUNNABLE && threads[t].wait == W_AWAIT_STOP && (rt_await_changed(t) || rt_await_drew(t))) {
          rt_cur = t;
          rt_end(TSOIFY_ST_ASSUME, rt_await_loc(t), 0);
        }
      for (int t = 0; t < nthreads; t++)
        if (in_await(t)) {
          rt_cur = t; /* the report names the spinning thread */
          rt_end(TSOIFY_ST_LIVELOCK, rt_await_loc(t), "livelock: thread %d waits in a loop for a change no thread can make", t);
        }
      int live = 0;
      for (int t = 0; t < nthreads; t++) live += threads[t].state == T_RUNNABLE;
      rt_end(TSOIFY_ST_DEADLOCK, rt_cur_loc, "deadlock: %d thread%s blocked, none can run", live, live == 1 ? "" : "s");
    }
    /* the threads that wait here for room in their full buffers */
    uint64_t room_waiters = 0;
    for (uint64_t full = s->por ? rt_mm_at_bound & runnable : 0; full; full &= full - 1) {
      int t = __builtin_ctzll(full);
      if (threads[t].need == NEED_ROOM) room_waiters |= 1ull << t;
    }
    uint32_t c = rt_choose_proc((uint32_t)n, procs, room_waiters);
    if (opt_entry[c] != UINT32_MAX) {
      int saved = rt_cur;
      rt_cur = opt_thread[c]; /* the flush is logged as the owner's event */
      rt_mm_flush_entry(opt_thread[c], opt_entry[c]);
      rt_cur = saved;
      continue;
    }
    switch_to(opt_thread[c]);
    return;
  }
}

void rt_pending(int kind, const void *addr, uint64_t size) {
  threads[rt_cur].pend = kind;
  threads[rt_cur].pend_addr = addr;
  threads[rt_cur].pend_size = size;
}

/* Could thread t's pending operation observe an entry of u's buffer? A load
 * observes entries overlapping what it reads; a locked write also orders
 * itself after t's own drained entries; a drain orders t's entries against
 * u's. A flush nobody can observe commutes with the next step, so it need
 * not be offered now (it will be, as soon as an operation could see it). */
int rt_pending_conflicts(int t, int u) {
  struct rt_thread *th = &threads[t];
  /* A thread's own flush matters to its own load only when that load reads
   * an address it has buffered (someone may overwrite it in memory first);
   * its own drains and locked writes flush in order by themselves. */
  if (t == u) return th->pend == PEND_LOAD && rt_mm_buffer_overlaps(u, th->pend_addr, th->pend_size);
  switch (th->pend) {
  case PEND_LOAD: return rt_mm_buffer_overlaps(u, th->pend_addr, th->pend_size);
  case PEND_WRITE: return rt_mm_buffer_overlaps(u, th->pend_addr, th->pend_size) || rt_mm_buffers_overlap(t, u);
  case PEND_DRAIN: return rt_mm_buffers_overlap(t, u);
  case PEND_AWAIT: return rt_await_observes(t, u);
  case PEND_ANY: return 1;
  default: return 0;
  }
}

void rt_pending_need(int need) { threads[rt_cur].need = need; }

void rt_sched_point(void) {
  struct rt_thread *th = &threads[rt_cur];
  if (th->pend == PEND_NONE) th->pend = PEND_DRAIN, th->need = NEED_EMPTY; /* sync calls */
  /* Under reduction, a thread's first step runs from its start through its
   * first visible operation: it was just chosen, and every flush was on
   * offer at that choice, so a choice here would only split the step into
   * an empty half and the rest. Only when how far the step goes depends on
   * the thread's own state alone (explored steps must be the same steps in
   * every execution that reorders others around them): its buffer is still
   * empty (a buffered store since would be a new flush option here) and the
   * operation does not wait for a thread or a mutex. Not without reduction,
   * where flushes are offered only where a pending operation could see them. */
  int skip = th->fresh && rt_shm->por && !rt_mm_pending(rt_cur) && th->wait == W_NONE &&
             (atomic_owner < 0 || atomic_owner == rt_cur);
  th->fresh = 0;
  if (!skip) schedule(1);
  th->pend = PEND_NONE;
  th->need = NEED_NONE;
}

/* The step that ends the process is a step like any other: the other
 * threads may run before it (a thread created just before main returns may
 * still see main's last store). Ending early only cuts what the others
 * would do next: it reaches no state, and no error, that letting them run
 * first does not. So with `wait_for_others` (main's return, exit()) the
 * step waits until no other thread can run (blocked, waiting in an await
 * loop, or finished): an execution is never cut while another could go on,
 * and the cut executions, one per prefix of the others' runs, are not
 * explored. abort() does not wait: under the default property it is itself
 * the violation. The step touches nothing, so no flush is offered for it
 * without reduction (a store that reaches memory after the end is seen by
 * no one); the explorer takes it as dependent with every other process
 * (driver/src/dpor/conservative.rs, other_threads_before_the_end). */
void rt_end_point(int wait_for_others) {
  rt_pending(PEND_END, 0, 0);
  if (wait_for_others) threads[rt_cur].wait = W_END;
  rt_sched_point();
  threads[rt_cur].wait = W_NONE;
}

/* The current thread never runs again; the others go on. */
static _Noreturn void stop_current(void) {
  threads[rt_cur].wait = W_FOREVER;
  rt_sched_point();
  abort(); /* unreachable: the thread is never enabled again */
}

_Noreturn void rt_block_forever(void) {
  /* main waits at its end for the others to run first (rt_end_point): in C
   * the process may end now instead, before this step, in an execution
   * that is complete and feasible (GenMC's hw-queue returns from main while
   * its threads dequeue, each blocking in an assume when it finds nothing:
   * every execution was discarded, and SAFE rested on none) */
  if (!(rt_shm->flags & TSOIFY_FL_ASSUME_FAILED) && rt_cur != 0 && threads[0].state == T_RUNNABLE && threads[0].wait == W_END)
    rt_shm->flags |= TSOIFY_FL_END_BEFORE_ASSUME;
  rt_shm->flags |= TSOIFY_FL_ASSUME_FAILED;
  rt_event(TSOIFY_EV_ASSUME_FAILED, 0, 0, 0, rt_cur_loc, 0, 0);
  /* inside an atomic block (an assume in a __VERIFIER_atomic_ function):
   * let the others run on, so their races with the block are seen */
  if (atomic_owner == rt_cur) atomic_owner = -1, atomic_depth = 0;
  /* the others run on, with or without reduction: a violation they reach
   * that does not depend on this assume is real (the explorer checks) */
  stop_current();
}

/* A failing iteration of an await loop under TSOIFY_AWAIT_STOP: the thread
 * never runs again in this execution (await.c); the flushes it could
 * observe are still offered, so the end sees its view as it would be. */
_Noreturn void rt_await_stop(void) {
  struct rt_thread *th = &threads[rt_cur];
  th->wait = W_AWAIT_STOP;
  th->pend = PEND_AWAIT;
  rt_sched_point();
  abort(); /* unreachable: the thread is never enabled again */
}

void rt_await_block(void) {
  struct rt_thread *th = &threads[rt_cur];
  th->wait = W_AWAIT;
  th->pend = PEND_AWAIT;
  rt_sched_point();
  th->wait = W_NONE;
}

_Noreturn void rt_cut_thread(void) {
  rt_shm->flags |= TSOIFY_FL_UNROLL_CUT;
  stop_current();
}

/* A scheduling point at which the current thread is not enabled until
 * ready(obj, arg) holds (sync.c: once, barriers, rwlocks, semaphores); its
 * buffer is drained afterwards, as every sync call does. */
void rt_wait_until(int (*ready)(const void *obj, uint64_t arg), const void *obj, uint64_t arg) {
  struct rt_thread *me = &threads[rt_cur];
  me->wait = W_UNTIL;
  me->wait_obj = (void *)obj;
  me->until = ready;
  me->until_arg = arg;
  rt_sched_point();
  me->wait = W_NONE;
  rt_mm_drain(rt_cur, rt_cur_loc);
}

/* ---- thread lifecycle ---- */

static _Noreturn void finish_current(void *retval) {
  struct rt_thread *th = &threads[rt_cur];
  rt_run_key_destructors(rt_cur); /* program code: before the thread ends */
  th->pend = PEND_NONE;
  /* exit drains the buffer: that writes memory, so others may act first */
  if (rt_drain_point_needed(rt_cur)) rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  th->retval = retval;
  th->state = T_FINISHED;
  runnable &= ~(1ull << rt_cur);
  if (atomic_owner == rt_cur) atomic_owner = -1, atomic_depth = 0;
  rt_event(TSOIFY_EV_EXIT, 0, 0, 0, rt_cur_loc, 0, 0);
  if (rt_cur == 0) rt_end(TSOIFY_ST_DONE, 0, 0);
  schedule(0);
  abort(); /* unreachable: a finished thread is never chosen */
}

static void thread_entry(void) {
  struct rt_thread *th = &threads[rt_cur];
  finish_current(th->fn(th->arg));
}

static int (*main_fn)(int, char **, char **);
static int main_argc;
static char **main_argv, **main_envp;

/* main's return is the end step (the pass calls __tsoify_main_return before
 * main's frame dies); a main the pass did not instrument ends here. */
static int main_returned;

void __tsoify_main_return(void) {
  if (rt_cur != 0 || main_returned) return; /* main called as a function */
  main_returned = 1;
  rt_end_point(1);
}

static void main_entry(void) {
  int code = main_fn(main_argc, main_argv, main_envp);
  (void)code;
  if (!main_returned) rt_end_point(1);
  rt_end(TSOIFY_ST_DONE, 0, 0);
}

static void make_thread(int t, void (*entry)(void)) {
  struct rt_thread *th = &threads[t];
  rt_context_make(&th->ctx, th->stack, STACK_BYTES, entry);
  th->state = T_RUNNABLE;
  runnable |= 1ull << t;
  th->wait = W_NONE;
  th->pend = PEND_NONE;
  th->need = NEED_NONE;
  th->fresh = t != 0;
  th->retval = 0;
  th->spurious = 0;
  rt_await_reset(t);
  rt_keys_thread_start(t);
}

void rt_run_execution(int (*user_main)(int, char **, char **), int argc, char **argv, char **envp) {
  main_fn = user_main, main_argc = argc, main_argv = argv, main_envp = envp;
  nthreads = 1;
  runnable = 0;
  rt_cur = 0;
  atomic_owner = -1;
  atomic_depth = 0;
  make_thread(0, main_entry);
  rt_context_switch(&server_ctx, &threads[0].ctx);
}

_Noreturn void rt_leave_execution(void) {
  struct rt_context gone; /* the execution's stacks are left for good */
  rt_context_switch(&gone, &server_ctx);
  abort();
}

/* ---- pthread API (the pass renames calls to these) ---- */

/* A new thread running fn(arg); the caller has had its scheduling point
 * and drained its buffer (the child sees everything stored before). */
int rt_spawn(void *(*fn)(void *), void *arg) {
  if (nthreads >= RT_MAX_THREADS) rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "more than %d threads", RT_MAX_THREADS);
  int t = nthreads++;
  threads[t].fn = fn;
  threads[t].arg = arg;
  make_thread(t, thread_entry);
  rt_event(TSOIFY_EV_SPAWN, 0, 0, 0, rt_cur_loc, (uint32_t)t, 0);
  return t;
}

int __tsoify_pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
  (void)attr;
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  int t = rt_spawn(fn, arg);
  *out = (pthread_t)t;
  return 0;
}

int __tsoify_pthread_join(pthread_t t, void **ret) {
  if ((uintptr_t)t >= (uintptr_t)nthreads || (int)t == rt_cur)
    rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "pthread_join of an invalid thread");
  struct rt_thread *me = &threads[rt_cur];
  me->wait = W_JOIN;
  me->wait_obj = (void *)(intptr_t)t;
  rt_sched_point();
  me->wait = W_NONE;
  rt_mm_drain(rt_cur, rt_cur_loc);
  if (ret) *ret = threads[t].retval;
  rt_event(TSOIFY_EV_JOIN, 0, 0, 0, rt_cur_loc, (uint32_t)t, 0);
  return 0;
}

_Noreturn void __tsoify_pthread_exit(void *ret) {
  if (rt_cur == 0) {
    /* main calling pthread_exit: the process lives on until the others end.
     * Model it as main joining every other thread, then ending. Each wait
     * is a join event: what main does after it happens after that thread's
     * end (without the edge, a wakeup sequence could start with a step of
     * main's that cannot run yet). */
    for (int t = 1; t < nthreads; t++) {
      if (threads[t].state != T_FINISHED) {
        threads[0].wait = W_JOIN;
        threads[0].wait_obj = (void *)(intptr_t)t;
        rt_sched_point();
        threads[0].wait = W_NONE;
      }
      rt_event(TSOIFY_EV_JOIN, 0, 0, 0, rt_cur_loc, (uint32_t)t, 0);
    }
    rt_end(TSOIFY_ST_DONE, 0, 0);
  }
  finish_current(ret);
}

pthread_t __tsoify_pthread_self(void) { return (pthread_t)rt_cur; }

/* The running thread's index: its copy of each thread-local variable
 * (pass/src/tls.rs). */
uint32_t __tsoify_thread_index(void) { return (uint32_t)rt_cur; }

int __tsoify_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
  /* sync.c keeps an attribute's type in its first int */
  if (a && *(const int *)(const void *)a == PTHREAD_MUTEX_RECURSIVE)
    rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "recursive mutexes are not modelled");
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  /* only the word we use: the program's pthread_mutex_t may be smaller than
   * ours (an ILP32 task's 24 bytes), and what follows it is its data */
  *mutex_word(m) = 0;
  return 0;
}

int __tsoify_pthread_mutex_destroy(pthread_mutex_t *m) {
  (void)m;
  return 0;
}

int __tsoify_pthread_mutex_lock(pthread_mutex_t *m) {
  struct rt_thread *me = &threads[rt_cur];
  if (*mutex_word(m) == rt_cur + 1) rt_end(TSOIFY_ST_DEADLOCK, rt_cur_loc, "thread %d locks a mutex it already holds", rt_cur);
  me->wait = W_MUTEX;
  me->wait_obj = m;
  rt_sched_point();
  me->wait = W_NONE;
  rt_mm_drain(rt_cur, rt_cur_loc);
  *mutex_word(m) = rt_cur + 1;
  rt_event(TSOIFY_EV_LOCK, m, 0, 0, rt_cur_loc, 0, 0);
  return 0;
}

int __tsoify_pthread_mutex_trylock(pthread_mutex_t *m) {
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  if (*mutex_word(m)) {
    /* it saw the mutex held: an unlock before it would change that */
    rt_event(TSOIFY_EV_LOCK, m, 0, 0, rt_cur_loc, TSOIFY_LOCK_FAILED, 0);
    return 16; /* EBUSY */
  }
  *mutex_word(m) = rt_cur + 1;
  rt_event(TSOIFY_EV_LOCK, m, 0, 0, rt_cur_loc, 0, 0);
  return 0;
}

int __tsoify_pthread_mutex_unlock(pthread_mutex_t *m) {
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  if (*mutex_word(m) != rt_cur + 1) rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "unlock of a mutex this thread does not hold");
  *mutex_word(m) = 0;
  rt_event(TSOIFY_EV_UNLOCK, m, 0, 0, rt_cur_loc, 0, 0);
  return 0;
}

int __tsoify_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
  (void)a;
  (void)c; /* no state of ours lives in a condition variable */
  return 0;
}

int __tsoify_pthread_cond_destroy(pthread_cond_t *c) {
  (void)c;
  return 0;
}

/* Signal wakes every waiter (POSIX allows spurious wake-ups, so this is a
 * sound over-approximation for programs that re-check their predicate). */
static void wake_all(pthread_cond_t *c) {
  for (int t = 0; t < nthreads; t++)
    if (threads[t].state == T_RUNNABLE && threads[t].wait == W_COND && threads[t].wait_obj == c) {
      threads[t].wait = W_MUTEX;
      threads[t].wait_obj = threads[t].cond_mutex;
    }
}

/* Wait on c, releasing m. POSIX lets a wait end without a signal (a
 * spurious wakeup), and a timed wait end when its time is up; either is a
 * value choice made as the wait begins: 1 = the thread needs no signal, only
 * the mutex back. Spurious wakeups are bounded per thread and execution
 * (rt_shm->spurious, verify --spurious-wakeups) so that a program that waits
 * in a loop still ends; time-outs are not (a timed wait may always expire).
 * Returns 1 when the wait ended without a signal. */
static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, int timed) {
  struct rt_thread *me = &threads[rt_cur];
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  if (*mutex_word(m) != rt_cur + 1) rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "pthread_cond_wait without holding the mutex");
  *mutex_word(m) = 0;
  int unsignalled = 0;
  if (timed || me->spurious < rt_shm->spurious) {
    unsignalled = (int)rt_choose(2, TSOIFY_CH_SPURIOUS);
    if (unsignalled && !timed) me->spurious++;
  }
  rt_event(TSOIFY_EV_COND_WAIT, c, 0, (uint64_t)(uintptr_t)m, rt_cur_loc, (uint32_t)unsignalled, 0);
  me->cond_mutex = m;
  me->wait = unsignalled ? W_MUTEX : W_COND;
  me->wait_obj = unsignalled ? (void *)m : (void *)c;
  rt_sched_point(); /* not enabled until signalled (or not waiting for one) and the mutex is free */
  me->wait = W_NONE;
  *mutex_word(m) = rt_cur + 1;
  rt_event(TSOIFY_EV_LOCK, m, 0, 0, rt_cur_loc, 0, 0);
  return unsignalled;
}

int __tsoify_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  cond_wait(c, m, 0);
  return 0;
}

int __tsoify_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime) {
  (void)abstime;
  return cond_wait(c, m, 1) ? 110 /* ETIMEDOUT */ : 0;
}

int __tsoify_pthread_cond_signal(pthread_cond_t *c) {
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  wake_all(c);
  rt_event(TSOIFY_EV_COND_SIGNAL, c, 0, 0, rt_cur_loc, 0, 0);
  return 0;
}

int __tsoify_pthread_cond_broadcast(pthread_cond_t *c) { return __tsoify_pthread_cond_signal(c); }

/* __VERIFIER_atomic_begin/end: no other thread runs (or flushes) in between.
 * Entering drains the buffer, as a locked instruction would. A block is
 * `declared` when it is a step of an export's runtime (ABI.md, "verify on
 * an export"): its events then say what it touches (TSOIFY_EV_TOUCH), so
 * its begin and end touch nothing; a program's own block touches the one
 * block object, which orders it against every other block. */
static int atomic_declared;

static void atomic_begin(int declared) {
  if (atomic_owner == rt_cur) {
    atomic_depth++;
    return;
  }
  rt_pending(PEND_ANY, 0, 0);
  rt_pending_need(NEED_EMPTY);
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  atomic_owner = rt_cur;
  atomic_depth = 1;
  atomic_declared = declared;
  rt_event(TSOIFY_EV_ATOMIC_BEGIN, 0, 0, 0, rt_cur_loc, (uint32_t)declared, 0);
}

void __tsoify_atomic_begin(void) { atomic_begin(0); }

void __tsoify_export_step_begin(void) { atomic_begin(1); }

void __tsoify_atomic_end(void) {
  if (atomic_owner != rt_cur) return;
  if (--atomic_depth > 0) return;
  rt_mm_drain(rt_cur, rt_cur_loc); /* no one else runs inside the block */
  atomic_owner = -1;
  rt_event(TSOIFY_EV_ATOMIC_END, 0, 0, 0, rt_cur_loc, (uint32_t)atomic_declared, 0);
}

void __tsoify_export_step_end(void) { __tsoify_atomic_end(); }
