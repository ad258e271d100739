/* cxx.c - the out-of-line parts of libstdc++ that C++ threads use, in
 * terms of the runtime's threads, mutexes and condition variables.
 *
 * libstdc++'s headers inline most of <thread>, <mutex>, <atomic> and
 * <condition_variable> into the program, where the pass instruments them
 * like C: std::mutex::lock is pthread_mutex_lock, std::atomic<T> is LLVM
 * atomics. What is left in libstdc++.so (std::thread's start, join and
 * detach, the condition variable's members, operator new and delete) is not
 * instrumented, so its pthread calls and heap would bypass the model. The
 * pass renames calls to those members (their mangled names) to the
 * functions here (pass/src/redirect.rs, CXX_REDIRECTS), as it renames
 * pthread_* calls; the layouts read here are libstdc++'s (GCC 12 and
 * later, x86-64), documented in runtime/ABI.md.
 *
 * Each call is what the C call it stands for is: create, join, wait and
 * notify are scheduling points and full fences. The program's objects
 * (std::thread's id, a unique_lock's mutex pointer) are read as the thread
 * sees them (rt_mm_peek: its newest buffered store, else memory), and
 * written only after a drain, as pthread_create writes its pthread_t. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "rt.h"

int __tsoify_pthread_join(pthread_t t, void **ret);
int __tsoify_pthread_detach(pthread_t t);
int __tsoify_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int __tsoify_pthread_cond_signal(pthread_cond_t *c);
int __tsoify_pthread_cond_broadcast(pthread_cond_t *c);
void *__tsoify_malloc(size_t n);
void __tsoify_free(void *p);

/* A call the real library would answer by throwing: the program would
 * terminate (it is built without exceptions), so the execution ends as an
 * abort with the reason. */
static _Noreturn void terminates(const char *why) {
  rt_end_point(0);
  rt_end(TSOIFY_ST_ABORT, rt_cur_loc, "%s", why);
}

/* ---- std::thread: one word, the native handle (pthread_t; 0 = no thread).
 * Its constructor makes a heap object derived from std::thread::_State
 * (vtable: complete destructor, deleting destructor, _M_run) and hands it
 * over in a unique_ptr; the thread runs _M_run and then deletes it. ---- */

typedef void (*state_fn)(void *);
enum { STATE_DELETE = 1, STATE_RUN = 2 };

static void *thread_main(void *state) {
  state_fn *vtable = *(state_fn **)state;
  vtable[STATE_RUN](state);
  vtable[STATE_DELETE](state);
  return 0;
}

/* std::thread::_M_start_thread(unique_ptr<_State>, void (*)()) */
void __tsoify_cxx_thread_start(pthread_t *self, void **state, void (*unused)(void)) {
  (void)unused;
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc); /* memory now holds what this thread stored: the state, its vtable pointer */
  void *st = *state;
  *state = 0; /* the thread owns it now: the caller's unique_ptr must not delete it */
  *self = (pthread_t)rt_spawn(thread_main, st);
}

static pthread_t thread_id(pthread_t *self) {
  pthread_t id;
  rt_mm_peek(rt_cur, self, sizeof id, &id);
  return id;
}

/* std::thread::join() */
void __tsoify_cxx_thread_join(pthread_t *self) {
  pthread_t id = thread_id(self);
  if (!id) terminates("std::thread::join() of a thread that is not joinable (std::system_error; exceptions are not modelled)");
  __tsoify_pthread_join(id, 0); /* drains */
  *self = 0;
}

/* std::thread::detach() */
void __tsoify_cxx_thread_detach(pthread_t *self) {
  pthread_t id = thread_id(self);
  if (!id) terminates("std::thread::detach() of a thread that is not joinable (std::system_error; exceptions are not modelled)");
  rt_sched_point();
  rt_mm_drain(rt_cur, rt_cur_loc);
  __tsoify_pthread_detach(id);
  *self = 0;
}

/* std::thread::_State::~_State(): the base has nothing to destroy */
void __tsoify_cxx_thread_state_destroy(void *state) { (void)state; }

/* ---- std::condition_variable: a pthread_cond_t at offset 0; the runtime
 * keeps no state in it. A unique_lock<mutex> is {mutex *, bool owns}, and a
 * std::mutex a pthread_mutex_t at offset 0. ---- */

void __tsoify_cxx_cond_init(pthread_cond_t *c) { (void)c; }
void __tsoify_cxx_cond_destroy(pthread_cond_t *c) { (void)c; }

/* condition_variable::wait(unique_lock<mutex> &) */
void __tsoify_cxx_cond_wait(pthread_cond_t *c, void *unique_lock) {
  pthread_mutex_t *m;
  rt_mm_peek(rt_cur, unique_lock, sizeof m, &m);
  if (!m) terminates("std::condition_variable::wait() with a unique_lock that has no mutex");
  __tsoify_pthread_cond_wait(c, m);
}

void __tsoify_cxx_cond_notify_one(pthread_cond_t *c) { __tsoify_pthread_cond_signal(c); }
void __tsoify_cxx_cond_notify_all(pthread_cond_t *c) { __tsoify_pthread_cond_broadcast(c); }

/* ---- time: one virtual clock per execution (std::chrono's steady and
 * system clocks read it), so that an execution replays the same way. It
 * stands still except where the program waits for time to pass: a timed
 * wait that times out moves it to the deadline, a sleep moves it on by the
 * time slept. ---- */

static int64_t clock_ns = 1000000000; /* data segment: restored per execution */

/* std::chrono::steady_clock::now(), system_clock::now() */
int64_t __tsoify_cxx_clock_now(void) { return clock_ns; }

static void clock_reach(const struct timespec *ts_program, int relative) {
  struct timespec ts;
  rt_mm_peek(rt_cur, ts_program, sizeof ts, &ts);
  int64_t t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  if (relative) t += clock_ns;
  if (t > clock_ns) clock_ns = t;
}

int __tsoify_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime);
int __tsoify_yield(void);

/* glibc's timed wait on a chosen clock (condition_variable::wait_for and
 * wait_until): a timed wait may always time out (threads.c); when it does,
 * the deadline has come */
int __tsoify_pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clock, const struct timespec *abstime) {
  (void)clock;
  int r = __tsoify_pthread_cond_timedwait(c, m, abstime);
  if (r) clock_reach(abstime, 0);
  return r;
}

/* nanosleep (std::this_thread::sleep_for): a scheduling point, after which
 * the time asked for has passed */
int __tsoify_cxx_sleep(const struct timespec *req, struct timespec *rem) {
  (void)rem;
  __tsoify_yield();
  clock_reach(req, 1);
  return 0;
}

/* ---- the heap: operator new and delete are the runtime's malloc and
 * free (deterministic addresses, snapshots, buffered stores into a freed
 * block dropped) ---- */

void *__tsoify_cxx_new(size_t n) {
  void *p = __tsoify_malloc(n ? n : 1);
  if (!p) terminates("operator new: out of memory (std::bad_alloc; exceptions are not modelled)");
  return p;
}

void *__tsoify_cxx_new_nothrow(size_t n, const void *nothrow) {
  (void)nothrow;
  return __tsoify_malloc(n ? n : 1);
}

void *__tsoify_cxx_new_aligned(size_t n, size_t align) {
  if (align > 16) terminates("operator new with an alignment over 16 bytes is not modelled");
  return __tsoify_cxx_new(n);
}

void __tsoify_cxx_delete(void *p) { __tsoify_free(p); }

/* operator delete(void *, size_t) and (void *, align_val_t) */
void __tsoify_cxx_delete_sized(void *p, size_t n) {
  (void)n;
  __tsoify_free(p);
}

void __tsoify_cxx_delete_sized_aligned(void *p, size_t n, size_t align) {
  (void)n, (void)align;
  __tsoify_free(p);
}

/* ---- the rest of the C++ runtime ---- */

/* std::terminate(): what an uncaught exception, or a std::thread destroyed
 * while joinable, ends in */
_Noreturn void __tsoify_cxx_terminate(void) { terminates("std::terminate() called"); }

/* std::__throw_* (libstdc++'s helpers that throw for the library: a
 * failed bounds check, a bad length, a system error) */
_Noreturn void __tsoify_cxx_throw(void) {
  terminates("the C++ library throws an exception here (exceptions are not modelled; the program would terminate)");
}

/* __cxa_atexit: destructors of static objects are not run (an execution
 * ends when main returns) */
int __tsoify_cxx_atexit(void (*fn)(void *), void *obj, void *dso) {
  (void)fn, (void)obj, (void)dso;
  return 0;
}
