/* server.c - the process main of an instrumented program.
 *
 * Under `verify` (TSOIFY_CHANNEL_FD set) the process sets up once (thread
 * stacks, heap arena, buffer storage, channel) and forks a persistent
 * worker that runs execution after execution in one process: after each it
 * restores the program's data segment from a snapshot and scrubs the heap,
 * so every execution starts from the same state without a fork. The parent
 * only stands by: when the worker dies inside an execution (a crash of the
 * program, or the wall-clock alarm) it reports that execution and forks a
 * fresh worker. Run by hand, the program performs one execution (choice 0
 * everywhere, or random choices with TSOIFY_SEED=n) and prints what
 * happened. */
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>
#include "rt.h"

extern int __tsoify_user_main(int, char **, char **);
extern const struct tsoify_loc __tsoify_locs[] __attribute__((weak));
extern const uint32_t __tsoify_nlocs __attribute__((weak));
extern const struct tsoify_global __tsoify_globals[] __attribute__((weak));
extern const uint32_t __tsoify_nglobals __attribute__((weak));
extern const uint32_t __tsoify_default_model __attribute__((weak));
extern const uint32_t __tsoify_default_bound __attribute__((weak));
extern uint64_t rt_random_state;

static int standalone;

static const char *status_name(uint32_t st) {
  static const char *names[] = {"running", "done", "assertion failure", "reach_error", "abort", "deadlock",
                                "step limit", "assume", "internal", "crash", "hang", "sleep-blocked"};
  return st < sizeof names / sizeof *names ? names[st] : "?";
}

void rt_standalone_report(void) {
  if (!standalone) return;
  struct tsoify_shm *s = rt_shm;
  fflush(stdout);
  if (getenv("TSOIFY_TRACE"))
    for (uint32_t i = 0; i < s->n_events; i++) {
      const struct tsoify_event *e = &s->events[i];
      fprintf(stderr, "T%u kind=%u addr=%#lx size=%u value=%lu aux=%u aux2=%u loc=%u\n", e->thread, e->kind,
              (unsigned long)e->addr, e->size, (unsigned long)e->value, e->aux, e->aux2, e->loc);
    }
  if (s->outcome_len) printf("%s\n", s->outcome);
  if (s->status != TSOIFY_ST_DONE && s->status != TSOIFY_ST_ASSUME)
    fprintf(stderr, "tsoify: %s in thread %u%s%s\n", status_name(s->status), s->status_thread,
            s->message[0] ? ": " : "", s->message);
  fflush(0);
  _exit(s->status == TSOIFY_ST_DONE || s->status == TSOIFY_ST_ASSUME ? 0 : 1);
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

/* The program's location and global tables, for traces. Written by the
 * server itself so the addresses are those its children use. */
static void dump_info(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fprintf(f, "{\"locs\":[");
  uint32_t nl = &__tsoify_nlocs ? __tsoify_nlocs : 0;
  for (uint32_t i = 0; i < nl; i++) {
    const struct tsoify_loc *l = &__tsoify_locs[i];
    fprintf(f, "%s{\"file\":", i ? "," : "");
    json_str(f, l->file);
    fprintf(f, ",\"func\":");
    json_str(f, l->func);
    fprintf(f, ",\"what\":");
    json_str(f, l->what);
    fprintf(f, ",\"line\":%u,\"col\":%u,\"op\":%u,\"order\":%u}", l->line, l->col, l->op, l->order);
  }
  fprintf(f, "],\"globals\":[");
  uint32_t ng = &__tsoify_nglobals ? __tsoify_nglobals : 0;
  for (uint32_t i = 0; i < ng; i++) {
    const struct tsoify_global *g = &__tsoify_globals[i];
    fprintf(f, "%s{\"name\":", i ? "," : "");
    json_str(f, g->name);
    fprintf(f, ",\"addr\":%lu,\"size\":%lu}", (unsigned long)(uintptr_t)g->addr, (unsigned long)g->size);
  }
  fprintf(f, "]}\n");
  fclose(f);
}

static int env_int(const char *name, int dflt) {
  const char *v = getenv(name);
  return v && *v ? atoi(v) : dflt;
}

static void reset_results(struct tsoify_shm *s) {
  s->trail_len = 0;
  s->n_options = 0;
  s->status = TSOIFY_ST_RUNNING;
  s->status_loc = 0;
  s->status_thread = 0;
  s->flags = 0;
  s->n_events = 0;
  s->n_sleep_procs = 0; /* per execution: left growing, it filled after ~10^6 reports and every
                           later choice then reported no sleepers (the lastzero blow-ups) */
  s->signal = 0;
  s->steps = 0;
  s->message[0] = 0;
  s->outcome_len = 0;
  s->outcome[0] = 0;
  s->n_sym_nodes = 1; /* node 0 is "concrete" */
  s->n_path = 0;
  s->sym_flags = 0;
  s->sym_reason[0] = 0;
}

/* The handshake with verify (tsoify_channel.h, "Fork-server protocol"). */

static uint64_t now_ns(void);

/* Wait until *seq is no longer `seen`: 0, or -1 when the pipe's other end
 * is gone (verify exited). */
static int await_seq(struct tsoify_shm *s, uint32_t *seq, uint32_t seen, uint32_t *sleeps, int fd) {
  /* handoff is read at every yield: the explorer may change it meanwhile */
  for (unsigned i = 0; i < TSOIFY_HANDOFF_YIELDS && __atomic_load_n(&s->handoff, __ATOMIC_RELAXED) == TSOIFY_HANDOFF_SHARED; i++) {
    if (__atomic_load_n(seq, __ATOMIC_ACQUIRE) != seen) return 0;
    sched_yield();
  }
  /* on a CPU of its own, yielding runs whatever else wants it (verify's
   * race check) and otherwise comes straight back */
  uint64_t until = 0;
  for (unsigned i = 0; __atomic_load_n(&s->handoff, __ATOMIC_RELAXED) == TSOIFY_HANDOFF_OVERLAP; i++) {
    if (__atomic_load_n(seq, __ATOMIC_ACQUIRE) != seen) return 0;
    if (i % 64 == 0) {
      uint64_t now = now_ns();
      if (!until) until = now + TSOIFY_OVERLAP_SPIN_NS;
      else if (now >= until) break;
    }
    sched_yield();
  }
  for (;;) {
    __atomic_store_n(sleeps, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(seq, __ATOMIC_SEQ_CST) != seen) break;
    char byte;
    ssize_t r = read(fd, &byte, 1);
    if (r == 0 || (r < 0 && errno != EINTR)) return -1;
  }
  __atomic_store_n(sleeps, 0, __ATOMIC_RELAXED);
  return 0;
}

/* CLOCK_MONOTONIC in nanoseconds, for the handover stamps (took_ns,
 * answered_ns): the clock verify reads too */
static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Post the answer (s->status) and wake verify if it sleeps. */
static void answer(struct tsoify_shm *s, int reply_fd) {
  s->answered_ns = now_ns();
  __atomic_fetch_add(&s->answer_seq, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&s->explorer_sleeps, __ATOMIC_SEQ_CST)) {
    char byte = 0;
    if (write(reply_fd, &byte, 1) < 0) _exit(0);
  }
}

void *rt_scratch(size_t bytes) {
  void *p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    fprintf(stderr, "tsoify runtime: cannot map %zu bytes: %s\n", bytes, strerror(errno));
    _exit(70);
  }
  return p;
}

/* The program's writable data (.data and .bss of the executable, which
 * holds the runtime too): snapshotted once before the first execution and
 * restored after each, so every execution starts from the same state. */
extern char __data_start[], _end[];

/* The hang watchdog. Arming alarm() around every execution cost two system
 * calls per execution; instead a timer ticks WATCH_TICKS times per
 * hang_seconds, and an execution still running after WATCH_TICKS ticks
 * (between hang_seconds and a tick more) kills the worker with SIGALRM,
 * which the parent reports as a hang. */
enum { WATCH_TICKS = 4 };
/* Outside the data segment, which every execution's end restores. */
static struct watchdog {
  volatile uint64_t started; /* executions started */
  uint64_t watched;          /* the one the ticks count for */
  unsigned ticks, seconds;
} *dog;

static void watch_tick(int sig) {
  (void)sig;
  if (!rt_shm->busy || dog->started != dog->watched) {
    dog->watched = dog->started;
    dog->ticks = 0;
    return;
  }
  if (++dog->ticks < WATCH_TICKS) return;
  signal(SIGALRM, SIG_DFL);
  raise(SIGALRM);
}

/* Start, change or stop the ticks for the hang limit verify asks for. */
static void watch(unsigned seconds) {
  if (seconds == dog->seconds) return;
  dog->seconds = seconds;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = watch_tick;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, 0);
  long usec = (long)seconds * 1000000L / WATCH_TICKS;
  struct itimerval t = {{usec / 1000000, usec % 1000000}, {usec / 1000000, usec % 1000000}};
  setitimer(ITIMER_REAL, &t, 0);
}

/* PREFETCHW (CPUID 0x80000001 ECX bit 8): not every x86-64 CPU has it */
static int have_prefetchw;

static void detect_prefetchw(void) {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  have_prefetchw = __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c >> 8 & 1);
#endif
}

/* Ask for the cache lines of [p, p + bytes) at once, to be written. The
 * channel's lines go back and forth between the worker's CPU and
 * verify's, and when the two CPUs are far apart (a VM whose virtual CPUs
 * the host places on different cores: 500 ns per round trip instead of
 * 110) a line fetched only when the execution reaches it cost the worker
 * that wait each time (lastzero N = 12 under TSO: 17.5 us per execution
 * instead of 6.3; with the lines asked for at once, 14.5). */
static void prefetch_lines(const void *p, size_t bytes) {
#if defined(__x86_64__)
  if (!have_prefetchw) return;
  for (size_t o = 0; o < bytes; o += 64) __asm__ volatile("prefetchw (%0)" : : "r"((const char *)p + o));
#else
  (void)p, (void)bytes;
#endif
}

/* prefetch_lines over the first `used` entries of a channel array (a
 * count may pass its array's end: a log that overflowed) */
#define PREFETCH_USED(array, used) \
  prefetch_lines(array, ((used) < sizeof array / sizeof array[0] ? (used) : sizeof array / sizeof array[0]) * sizeof array[0])

static _Noreturn void run_worker(int argc, char **argv, char **envp, int cmd_fd, int reply_fd) {
  size_t len = (size_t)(_end - __data_start);
  char *snapshot = rt_scratch(len);
  dog = rt_scratch(sizeof *dog);
  memcpy(snapshot, __data_start, len);
  struct tsoify_shm *s = rt_shm;
  s->worker_pid = (uint32_t)getpid();
  detect_prefetchw();
  for (;;) {
    /* a command is pending while its answer is not (a worker that replaces
     * a dead one finds the dead one's command answered by the server) */
    if (await_seq(s, &s->command_seq, __atomic_load_n(&s->answer_seq, __ATOMIC_ACQUIRE), &s->worker_sleeps, cmd_fd) ||
        __atomic_load_n(&s->command, __ATOMIC_ACQUIRE) == TSOIFY_CMD_QUIT)
      _exit(0);
    s->took_ns = now_ns();
    /* the channel's lines the execution will read (verify's prefix,
     * sleepers and guide) and write (its results), as many as the last
     * one used, fetched in one burst rather than one by one as the
     * execution reaches them */
    PREFETCH_USED(s->choices, s->trail_len);
    PREFETCH_USED(s->events, s->n_events);
    PREFETCH_USED(s->option_procs, s->n_options);
    PREFETCH_USED(s->sleep_procs, s->n_sleep_procs);
    PREFETCH_USED(s->sleepers, s->n_sleepers);
    PREFETCH_USED(s->guide, s->guide_len);
    reset_results(s);
    /* a probe's value choices are random too (rt_choose) */
    rt_random_state = s->probe ? (uint64_t)s->probe * 0x9e3779b97f4a7c15ull : 0;
    watch(s->hang_seconds);
    dog->started++;
    s->busy = 1;
    rt_run_execution(__tsoify_user_main, argc, argv, envp);
    s->busy = 0;
    /* answer first: verify analyses the execution while this process
     * restores itself (the next command is read only after that) */
    answer(s, reply_fd);
    rt_heap_scrub();
    memcpy(__data_start, snapshot, len);
  }
}

/* Executions run in a persistent worker process; this parent only replaces
 * a worker that died inside an execution (crash, or the wall-clock alarm),
 * and answers for the execution it died in. */
static int serve(int argc, char **argv, char **envp, int cmd_fd, int reply_fd) {
  int devnull = open("/dev/null", O_WRONLY);
  if (devnull >= 0 && !getenv("TSOIFY_SHOW_OUTPUT")) dup2(devnull, 1), dup2(devnull, 2);
  for (;;) {
    pid_t pid = fork();
    if (pid < 0) return 70;
    if (pid == 0) run_worker(argc, argv, envp, cmd_fd, reply_fd);
    int wst = 0;
    while (waitpid(pid, &wst, 0) < 0) {}
    struct tsoify_shm *s = rt_shm;
    if (!s->busy) return 0; /* told to quit, or verify went away */
    s->busy = 0;
    if (WIFSIGNALED(wst)) {
      s->signal = (uint32_t)WTERMSIG(wst);
      s->status = s->signal == SIGALRM ? TSOIFY_ST_HANG : TSOIFY_ST_CRASH;
    } else {
      s->status = TSOIFY_ST_INTERNAL;
      snprintf(s->message, sizeof s->message, "the program left the runtime's control (exit status %d)", WEXITSTATUS(wst));
    }
    answer(s, reply_fd);
  }
}

int main(int argc, char **argv, char **envp) {
  rt_threads_init();
  rt_heap_init();
  rt_mm_init();
  rt_await_init();
  rt_keys_init();
  rt_libc_init();
  rt_sym_init();
  const char *chan = getenv("TSOIFY_CHANNEL_FD");
  if (chan) {
    int fd = atoi(chan);
    rt_shm = mmap(0, sizeof *rt_shm, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (rt_shm == MAP_FAILED || rt_shm->magic != TSOIFY_CHANNEL_MAGIC || rt_shm->version != TSOIFY_CHANNEL_VERSION) {
      fprintf(stderr, "tsoify runtime: the channel from verify is missing or of another version; rebuild with this tsoify\n");
      return 3;
    }
    const char *info = getenv("TSOIFY_INFO");
    if (info) dump_info(info);
    return serve(argc, argv, envp, env_int("TSOIFY_CMD_FD", -1), env_int("TSOIFY_REPLY_FD", -1));
  }
  /* standalone: one execution, reported on the terminal */
  standalone = 1;
  rt_shm = mmap(0, sizeof *rt_shm, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (rt_shm == MAP_FAILED) return 70;
  rt_shm->magic = TSOIFY_CHANNEL_MAGIC;
  rt_shm->model = (uint32_t)env_int("TSOIFY_MODEL", &__tsoify_default_model ? (int)__tsoify_default_model : TSOIFY_MODEL_TSO);
  rt_shm->bound = (uint32_t)env_int("TSOIFY_BOUND", &__tsoify_default_bound ? (int)__tsoify_default_bound : 32);
  rt_shm->max_steps = (uint32_t)env_int("TSOIFY_MAX_STEPS", 1000000);
  rt_shm->log_events = getenv("TSOIFY_TRACE") != 0;
  rt_random_state = (uint64_t)env_int("TSOIFY_SEED", 0) * 0x9e3779b97f4a7c15ull;
  reset_results(rt_shm);
  rt_run_execution(__tsoify_user_main, argc, argv, envp);
  rt_standalone_report(); /* not reached: rt_end reports and exits */
  return 0;
}
