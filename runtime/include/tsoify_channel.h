/* tsoify_channel.h - the shared-memory channel between `verify` (the
 * explorer) and an instrumented program (the runtime).
 *
 * The explorer owns the search, the runtime owns the memory model. One
 * execution is one round trip: the explorer writes a choice prefix and the
 * configuration here, asks the fork server (over a pipe) to run, and reads
 * back the trail of choices, the status, the outcome text and the event log.
 * The Rust mirror of these structs is driver/src/channel.rs; keep both equal
 * (TSOIFY_CHANNEL_VERSION guards it).
 */
#ifndef TSOIFY_CHANNEL_H
#define TSOIFY_CHANNEL_H
#include <stdint.h>
#include <stddef.h>

/* A 64-bit field of the channel. verify is always 64-bit, the program may
 * be 32-bit (ILP32, built with -m32), where a plain uint64_t is only 4-byte
 * aligned inside a struct: aligned(8) gives every such field, and so every
 * struct that holds one, the same offsets and size in both. Addresses
 * travel in these, zero-extended from 32 bits in an ILP32 program. */
#define TSOIFY_U64 uint64_t __attribute__((aligned(8)))

#define TSOIFY_CHANNEL_MAGIC   0x54534f49u /* "TSOI" */
#define TSOIFY_CHANNEL_VERSION 23u

/* A rotation probe (shm->probe with TSOIFY_PROBE_ROTATE; choice.c): main
 * runs its first SETUP steps, then the other threads take turns of QUANTUM
 * steps, then the HELD thread (none: TSOIFY_PROBE_NO_HELD), then the rest
 * of main; START is the thread id the first turn comes after. */
#define TSOIFY_PROBE_ROTATE 0x80000000u
#define TSOIFY_PROBE_NO_HELD 0xffu
#define TSOIFY_PROBE_ROTATION(quantum, held, setup, start) \
  (TSOIFY_PROBE_ROTATE | (uint32_t)(quantum) << 24 | (uint32_t)(held) << 16 | (uint32_t)(setup) << 8 | (uint32_t)(start))
#define TSOIFY_MAX_CHOICES     (1u << 18)
#define TSOIFY_MAX_EVENTS      (1u << 17)
#define TSOIFY_OUTCOME_BYTES   4096u
#define TSOIFY_MESSAGE_BYTES   512u
#define TSOIFY_MAX_OPTIONS     (1u << 20)
#define TSOIFY_MAX_SLEEPERS    256u
#define TSOIFY_MAX_SLEEP_FPS   8192u
#define TSOIFY_MAX_SLEEP_PROCS (1u << 20)
#define TSOIFY_MAX_GUIDE       (1u << 16)
#define TSOIFY_MAX_INPUTS      1024u
#define TSOIFY_MAX_SYM_NODES   (1u << 16)
#define TSOIFY_MAX_PATH        (1u << 14)
/* process ids (32 bits; the guide's TSOIFY_GUIDE_PROC bit aside, 31) in
 * option lists: thread t is t; under TSO the flush process of thread t's
 * buffer is TSOIFY_FLUSH_PROC + t; under PSO each (thread, address) buffer
 * is its own flush process, numbered
 * TSOIFY_PSO_FLUSH_PROC + k * TSOIFY_PSO_THREAD_STRIDE + t for the k-th
 * distinct address thread t stores to in the execution (so the number
 * depends only on t's own program order, and stays the same when the
 * explorer reorders the steps of different threads; k-major, so the ids of
 * a program with few addresses stay small), for k below
 * TSOIFY_PSO_ADDRS_PER_THREAD */
#define TSOIFY_FLUSH_PROC      64u
#define TSOIFY_PSO_FLUSH_PROC  128u
#define TSOIFY_PSO_THREAD_STRIDE 64u /* >= the runtime's RT_MAX_THREADS */
#define TSOIFY_PSO_ADDRS_PER_THREAD (1u << 16)

enum tsoify_model { TSOIFY_MODEL_SC = 0, TSOIFY_MODEL_TSO = 1, TSOIFY_MODEL_PSO = 2 };

/* How execution ended (written by the runtime before it exits). */
enum tsoify_status {
  TSOIFY_ST_RUNNING = 0,   /* never finished: the process died (see signal) */
  TSOIFY_ST_DONE = 1,      /* main returned or exit() was called */
  TSOIFY_ST_ASSERT = 2,    /* assert() / __assert_fail */
  TSOIFY_ST_REACH_ERROR = 3,
  TSOIFY_ST_ABORT = 4,
  TSOIFY_ST_DEADLOCK = 5,
  TSOIFY_ST_STEP_LIMIT = 6,
  TSOIFY_ST_ASSUME = 7,    /* __VERIFIER_assume(false): execution discarded */
  TSOIFY_ST_INTERNAL = 8,  /* runtime limit or misuse; message says which */
  TSOIFY_ST_CRASH = 9,     /* set by the fork server: killed by a signal */
  TSOIFY_ST_HANG = 10,     /* set by the fork server: wall-clock limit */
  TSOIFY_ST_SLEEP_BLOCKED = 11, /* every enabled process was asleep: the
                                   execution would repeat an explored one */
  TSOIFY_ST_LIVELOCK = 12, /* every live thread waits in an await loop for a
                              change no thread can make (it would spin forever) */
  TSOIFY_ST_UNROLL = 13,   /* a loop ran more iterations than --unroll allows:
                              the execution is cut (a bound, not a verdict) */
  TSOIFY_ST_FREED = 14,    /* a load, store or read-modify-write of heap
                              memory that free() gave back (libc.c) */
};

/* Flags of one execution. */
#define TSOIFY_FL_NONDET_SAMPLED  1u /* a wide nondet value was sampled, not enumerated */
#define TSOIFY_FL_EVENTS_TRUNC    2u /* event log full */
#define TSOIFY_FL_GUIDE_BROKEN    4u /* the guide named a process that was not enabled */
#define TSOIFY_FL_SLEEP_TRUNC     8u /* sleep_procs[] full: later choices report no sleepers */
#define TSOIFY_FL_ASSUME_FAILED  16u /* an assume failed: the execution is discarded however it ends,
                                        unless the explorer finds its violation independent of it */
#define TSOIFY_FL_UNROLL_CUT     32u /* a thread was stopped by --unroll: the execution ends as UNROLL
                                        unless another thread finds a violation first */
#define TSOIFY_FL_RAN_OUT        64u /* the execution ended because nothing could run (every thread done,
                                        blocked, stopped or asleep): its last step ended nothing */
#define TSOIFY_FL_END_BEFORE_ASSUME 128u /* main was waiting at its end (return, exit) when the first assume
                                        failed in another thread: the process can end before that step, so
                                        an execution that ends normally is complete, not discarded */

/* What a choice point chose between. */
enum tsoify_choice_kind {
  TSOIFY_CH_SCHEDULE = 0, /* which thread runs next, or which buffer flushes */
  TSOIFY_CH_NONDET = 1,   /* a __VERIFIER_nondet_* value */
  TSOIFY_CH_EVICT = 2,    /* PSO, full buffer: which entry leaves first */
  TSOIFY_CH_SPURIOUS = 3, /* pthread_cond_wait: 1 = return without a signal (POSIX allows it) */
  TSOIFY_CH_BRANCH = 4,   /* a branch or assume on a wide nondet value (sym.c): 1 = taken. The
                             inputs decide it, not the choice: replayed, the side must be the
                             prefix's (else the execution ends INTERNAL); guided, a guide entry
                             for it is consumed and, if it names the other side, the guide is
                             left (TSOIFY_SYM_GUIDE_LEFT) */
};
/* or'ed into a scheduling choice's kind: a thread waits there for room in
 * its full bounded buffer, so which of its entries leaves first matters
 * (under PSO several may), though the flushes commute as events. The two
 * option_procs[] entries after the choice's options then hold the mask of
 * the waiting threads (bit t: thread t; low 32 bits first). */
#define TSOIFY_CH_ROOM_WAIT 0x100u

struct tsoify_choice {
  uint32_t chosen; /* prefix: set by the explorer; trail: what was taken */
  uint32_t count;  /* number of alternatives (set by the runtime) */
  uint16_t kind;   /* enum tsoify_choice_kind */
  uint16_t thread; /* thread that was at the choice point */
  uint32_t event;  /* index of the next event when the choice was made */
  uint32_t options; /* SCHEDULE: index in option_procs[] of its `count` process ids */
  uint32_t sleep_first; /* new choices: index in sleep_procs[] of the processes */
  uint32_t sleep_n;     /* asleep at this choice (see sleep sets below) */
};

/* What an event touches, for the dependency relation of the explorer's
 * partial order reduction and of the runtime's sleep sets. Defined once, in
 * rt_event(). Two footprints are dependent when they belong to the same
 * process, when their [lo, hi) memory ranges overlap and one writes, when
 * both use the same synchronisation object (lo), or when one is a flush of
 * a buffer of thread `owner` and the other an event of that thread that
 * waits for its flushes (TSOIFY_FP_AFTER_FLUSHES: it drains the buffer, or
 * needs room in a bounded one). The last two kinds only order events; they
 * are never races to reverse (nor is a release against an acquire).
 * A read of thread t is independent of the flushes of t's own buffers, even
 * where they overlap: next to each other they commute, because t reads its
 * newest buffered bytes before the flush and the same bytes from memory
 * after it. (It still depends on every other process's writes: once its
 * own entry has gone, another thread's flush decides what it reads, and
 * the reversal of that race brings the own flush along.) */
#define TSOIFY_FP_READ    1u
#define TSOIFY_FP_WRITE   2u
#define TSOIFY_FP_SYNC    4u /* lo is a synchronisation object, not memory */
#define TSOIFY_FP_RELEASE 8u /* the release of that object: orders later acquires, does not race with them */
#define TSOIFY_FP_FLUSH   16u /* a flush of a buffer of thread `owner` */
#define TSOIFY_FP_AFTER_FLUSHES 32u /* waits for the flushes of thread `owner`'s buffers so far */
#define TSOIFY_FP_TRY     64u /* a use of that object whose outcome depends on its state (a failed
                                 trylock): races with its releases too */
/* synchronisation objects that are not program addresses */
#define TSOIFY_OBJ_ATOMIC_BLOCK 1u
#define TSOIFY_OBJ_THREAD_TABLE 2u /* pthread_create: thread ids are handed out in order */

struct tsoify_footprint {
  TSOIFY_U64 lo;
  TSOIFY_U64 hi;
  uint32_t proc;   /* the process the event belongs to */
  uint16_t owner;  /* FLUSH / AFTER_FLUSHES: the thread whose buffers */
  uint8_t access;  /* TSOIFY_FP_* bits; 0 = touches nothing another process sees */
  uint8_t pad;
};

/* A sleeping process (explorer -> runtime): its next step, as the explorer
 * saw it in an earlier execution, is fps[first .. first+n). The process is
 * not scheduled at a new choice point until an executed event is dependent
 * with one of those footprints (then it wakes up for the rest of the
 * execution). */
struct tsoify_sleeper {
  uint32_t proc;
  uint32_t n;
  uint32_t first;
};

enum tsoify_event_kind {
  TSOIFY_EV_LOAD = 1,        /* aux: TSOIFY_SRC_* bits */
  TSOIFY_EV_STORE = 2,       /* aux: 0 = written to memory, 1 = buffered, 2 = buffered after evicting
                                the oldest entry (without reduction), 4 | m << 8 = buffered in a
                                bounded buffer that has room only because the thread's first m
                                flushes made it (under reduction such a store starts a step);
                                aux2: flush process that will write it */
  TSOIFY_EV_FLUSH = 3,       /* a buffered store reaches memory; aux = flush process,
                                aux2 = owner thread | barrier epoch << 8 (PSO) */
  TSOIFY_EV_FENCE = 4,       /* aux: entries drained */
  TSOIFY_EV_RMW = 5,         /* value = old value; aux = op */
  TSOIFY_EV_CMPXCHG = 6,     /* value = old value; aux = 1 on success */
  TSOIFY_EV_SPAWN = 7,       /* aux = new thread */
  TSOIFY_EV_JOIN = 8,        /* aux = joined thread */
  TSOIFY_EV_EXIT = 9,        /* thread finished */
  TSOIFY_EV_LOCK = 10,       /* taking a sync object (acquire): aux = TSOIFY_OBJ_KIND_* | TSOIFY_LOCK_FAILED */
  TSOIFY_EV_UNLOCK = 11,     /* giving it (release): aux = TSOIFY_OBJ_KIND_* */
  TSOIFY_EV_NONDET = 12,     /* value = the value, aux = its bits, aux2 = 1 for a variable of the input vector (sym.c) */
  TSOIFY_EV_ERROR = 13,      /* the violation itself */
  TSOIFY_EV_ATOMIC_BEGIN = 14,
  TSOIFY_EV_ATOMIC_END = 15,
  TSOIFY_EV_COND_WAIT = 16,     /* value = the mutex it releases; aux = 1: returns without a signal */
  TSOIFY_EV_COND_SIGNAL = 17,
  TSOIFY_EV_FREE = 18,
  TSOIFY_EV_AWAIT = 19,      /* a thread blocked in an await loop woke up: it re-reads
                                [addr, addr+size), which changed (one event per range read) */
  TSOIFY_EV_TOUCH = 20,      /* a step of an export's runtime declares a footprint (verify on an
                                export only): [addr, addr+value), aux = TSOIFY_FP_READ/WRITE;
                                addr may be a store-buffer shadow (runtime/src/rt.h RT_SHADOW) */
  TSOIFY_EV_ASSUME_FAILED = 21, /* __VERIFIER_assume(false): the thread stops for good */
  TSOIFY_EV_C11_FENCE = 22,  /* a fence that orders nothing in the model (any fence under SC, a
                                release or acquire one under TSO, acquire under PSO, a release
                                one's store-store barrier under PSO): logged for the data-race
                                check (C11 fence synchronisation); touches nothing */
  TSOIFY_EV_DROP = 23,       /* a buffered store whose memory died (end of a stack frame, free)
                                leaves its buffer unwritten: addr, size, value and loc are the
                                entry's, aux = its flush process; touches nothing */
};

/* What a LOCK/UNLOCK event's object is (aux & 0xff). A barrier arrival and
 * a semaphore post are releases an acquire may overtake (the count allows
 * it), so they race with acquires; a mutex's, rwlock's or once's release
 * only orders them. */
#define TSOIFY_OBJ_KIND_MUTEX 0u
#define TSOIFY_OBJ_KIND_ONCE 1u
#define TSOIFY_OBJ_KIND_BARRIER 2u
#define TSOIFY_OBJ_KIND_RWLOCK 3u
#define TSOIFY_OBJ_KIND_SEMAPHORE 4u
#define TSOIFY_LOCK_FAILED 0x100u /* a try that failed: it took nothing (no acquire) */

#define TSOIFY_SRC_OWN_BUFFER 1u /* some bytes came from the thread's own buffer */
#define TSOIFY_SRC_MEMORY     2u /* some bytes came from memory */

struct tsoify_event {
  uint16_t thread;
  uint8_t kind;
  uint8_t size;
  uint32_t loc;    /* source location id, index into the program's loc table */
  TSOIFY_U64 addr;
  TSOIFY_U64 value; /* first 8 bytes, little-endian */
  uint32_t aux;
  uint32_t aux2;
  struct tsoify_footprint fp;
};

/* Concolic tracking of wide __VERIFIER_nondet_* values (runtime/src/sym.c,
 * driver/src/concolic.rs). A wide nondet call is a symbolic variable,
 * named by the thread that calls it and how many wide nondet calls that
 * thread made before (its ordinal); its concrete value comes from
 * inputs[] (explorer -> runtime), 0 when it is not there. The runtime
 * builds an expression node for each integer operation on a value that
 * depends on one (node 0 = concrete), and records each branch (and
 * __VERIFIER_assume) on such a value in path[]. */
enum tsoify_sym_op {
  TSOIFY_SYM_VAR = 1,   /* k = thread << 32 | ordinal */
  TSOIFY_SYM_CONST = 2, /* k = the value */
  TSOIFY_SYM_ADD, TSOIFY_SYM_SUB, TSOIFY_SYM_MUL, TSOIFY_SYM_UDIV, TSOIFY_SYM_SDIV, TSOIFY_SYM_UREM,
  TSOIFY_SYM_SREM, TSOIFY_SYM_AND, TSOIFY_SYM_OR, TSOIFY_SYM_XOR, TSOIFY_SYM_SHL, TSOIFY_SYM_LSHR,
  TSOIFY_SYM_ASHR,
  TSOIFY_SYM_ICMP,   /* pred = LLVMIntPredicate (32 eq ... 41 sle); bits = 1, operands of width c */
  TSOIFY_SYM_ZEXT,   /* a to bits */
  TSOIFY_SYM_SEXT,
  TSOIFY_SYM_TRUNC,
  TSOIFY_SYM_SELECT, /* a (1 bit) ? b : c */
  TSOIFY_SYM_ITOFP,  /* integer a (c bits; pred 1 = signed) converted exactly to a float of
                        `bits` (32 float, 64 double; val = its bits). Never in a path
                        condition: comparisons of it are made comparisons of a */
};
struct tsoify_sym_node {
  uint8_t op;   /* enum tsoify_sym_op */
  uint8_t bits; /* width of the value, 1..64 */
  uint8_t pred;
  uint8_t pad;
  uint32_t a, b, c; /* operand nodes (ICMP: c = the operands' width) */
  uint64_t k;
  uint64_t val; /* its concrete value in this execution (low `bits` bits) */
};
struct tsoify_path_cond {
  uint32_t node;   /* the condition: taken when its value is not 0 */
  uint32_t taken;  /* bit 0: taken in this execution; TSOIFY_PATH_ONE_SIDED */
  uint32_t thread;
  uint32_t event;  /* index of the next event */
};
/* path cond taken: an assume that passed, in a thread whose nondet values
 * no other thread has seen or given it (sym.c __tsoify_sym_assume): its
 * other side only stops that thread, so the explorer does not take it */
#define TSOIFY_PATH_ONE_SIDED 2u
struct tsoify_input {
  uint32_t thread, ordinal;
  uint64_t value;
};
#define TSOIFY_SYM_UNTRACKED  1u /* a value built from a nondet value went where tracking cannot
                                    follow (sym_reason says where): the execution proves nothing
                                    about other values */
/* (2u was AFTER_SPAWN once: values stored after a thread started, before
 * they were followed through the store buffers; PINNED since version 22) */
#define TSOIFY_SYM_PINNED 2u /* a value the pass could not follow was pinned instead: sym_reason
                                 says where, unless UNTRACKED (then it says why that) */
#define TSOIFY_SYM_USED 4u /* a wide nondet value was taken */
#define TSOIFY_SYM_GUIDE_LEFT 8u /* a guided step took the other side of a branch on nondet values
                                    than its guide said: the guide was left there */
/* Where a branch on nondet values logs its TSOIFY_EV_TOUCH event (aux 0:
 * it touches nothing; above every program address, also in a 32-bit
 * program). */
#define TSOIFY_SYM_LOC_BASE 0xf000000000000000ull

/* shm await_mode (runtime/src/await.c) */
#define TSOIFY_AWAIT_STOP 0u /* a failing iteration stops its thread for the rest of the execution */
#define TSOIFY_AWAIT_NONE 1u /* never block: such loops spin like any other (--no-await) */
#define TSOIFY_AWAIT_WAKE 2u /* block until what the iteration read changes, then run it again (--await-wake) */

struct tsoify_shm {
  uint32_t magic, version;
  /* configuration: written by the explorer */
  uint32_t model;      /* enum tsoify_model */
  uint32_t bound;      /* store-buffer bound K (entries per thread); 0 = unbounded */
  uint32_t max_steps;  /* scheduling points per execution before STEP_LIMIT */
  uint32_t log_events; /* 1 = fill events[] */
  uint32_t prefix_len; /* choices[0..prefix_len) are to be replayed */
  uint32_t hang_seconds;
  uint32_t por;        /* 1 = the explorer reduces: offer every possible flush */
  uint32_t unroll;     /* iterations per loop entry before UNROLL; 0 = unbounded */
  uint32_t await_mode; /* TSOIFY_AWAIT_*: what a failing iteration of an await loop does (await.c) */
  uint32_t spurious;   /* pthread_cond_wait may return without a signal this often per thread and execution */
  uint32_t freed_ok;   /* 1 = an access of freed heap memory is no error (SV-COMP unreach-call): it
                          touches what the block held, as before the free; 0 = it ends the execution
                          as TSOIFY_ST_FREED */
  uint32_t probe;      /* not 0: a probe execution (no prefix, guide or sleepers): scheduling by
                          random priorities seeded with it, value choices at random (choice.c);
                          with TSOIFY_PROBE_ROTATE set, by round robin instead (TSOIFY_PROBE_*) */
  uint32_t n_options;  /* result: entries used in option_procs[] */
  uint32_t busy;       /* 1 while an execution runs (the worker died inside one if still set) */
  /* The handshake (see the protocol at the end of this file): a command and
   * its answer are posted here, each with a sequence number the other side
   * watches; the pipes only wake a side that went to sleep. */
  uint32_t handoff;         /* explorer: how a waiting side waits (TSOIFY_HANDOFF_*) */
  uint32_t command;         /* explorer: TSOIFY_CMD_*, posted with command_seq */
  uint32_t command_seq;     /* explorer: +1 per command */
  uint32_t answer_seq;      /* runtime: +1 per answer (the answer is status) */
  uint32_t worker_sleeps;   /* runtime: 1 = blocked on the command pipe, write a byte to wake it */
  uint32_t explorer_sleeps; /* explorer: 1 = blocked on the answer pipe, write a byte to wake it */
  /* Partial order reduction (explorer -> runtime). After the last prefix
   * choice the processes in sleepers[] are asleep. Then the choices follow
   * guide[] while it lasts: an entry with TSOIFY_GUIDE_PROC set names the
   * process to schedule (the other 31 bits), any other entry is the alternative
   * to take at a value choice. Past the guide a scheduling choice takes the
   * first option that is not asleep (all asleep: SLEEP_BLOCKED); a value
   * choice takes 0. */
  uint32_t n_sleepers;
  uint32_t guide_len;
  uint32_t n_sleep_procs; /* result: entries used in sleep_procs[] */
  /* results: written by the runtime */
  uint32_t trail_len;
  uint32_t status;     /* enum tsoify_status */
  uint32_t status_loc;
  uint32_t status_thread;
  uint32_t flags;
  uint32_t n_events;
  uint32_t outcome_len;
  uint32_t signal;     /* set by the fork server for CRASH */
  TSOIFY_U64 steps;
  char message[TSOIFY_MESSAGE_BYTES];
  char outcome[TSOIFY_OUTCOME_BYTES];
  struct tsoify_choice choices[TSOIFY_MAX_CHOICES];
  struct tsoify_event events[TSOIFY_MAX_EVENTS];
  uint32_t option_procs[TSOIFY_MAX_OPTIONS];
  struct tsoify_sleeper sleepers[TSOIFY_MAX_SLEEPERS];
  struct tsoify_footprint sleep_fps[TSOIFY_MAX_SLEEP_FPS];
  uint32_t guide[TSOIFY_MAX_GUIDE];
  uint32_t sleep_procs[TSOIFY_MAX_SLEEP_PROCS];
  /* concolic tracking (see struct tsoify_sym_node above) */
  uint32_t n_inputs;    /* explorer -> runtime */
  uint32_t n_sym_nodes; /* results: nodes used (node 0 unused), path conditions, TSOIFY_SYM_* */
  uint32_t n_path;
  uint32_t sym_flags;
  char sym_reason[TSOIFY_MESSAGE_BYTES];
  struct tsoify_input inputs[TSOIFY_MAX_INPUTS];
  struct tsoify_sym_node sym_nodes[TSOIFY_MAX_SYM_NODES];
  struct tsoify_path_cond path[TSOIFY_MAX_PATH];
  /* runtime: CLOCK_MONOTONIC nanoseconds at which the worker took the last
   * command and answered it; the explorer compares them with its own
   * stamps to see whether the handovers are fast (see the protocol) */
  TSOIFY_U64 took_ns;
  TSOIFY_U64 answered_ns;
  uint32_t worker_pid; /* runtime: the worker's process id (the explorer moves it to another CPU) */
  uint32_t reserved;
};

#define TSOIFY_GUIDE_PROC 0x80000000u

/* Both sides assert this size, so a layout change shows up at compile time. */
#define TSOIFY_SHM_BYTES 25911480u
_Static_assert(sizeof(struct tsoify_shm) == TSOIFY_SHM_BYTES, "update TSOIFY_SHM_BYTES here and SHM_BYTES in channel.rs");
/* The layout both sides (a 32-bit program and the 64-bit verify) must
 * share, as driver/src/channel.rs has it: a change that differs between
 * -m32 and -m64 fails to compile the 32-bit runtime here. */
_Static_assert(sizeof(struct tsoify_choice) == 28, "tsoify_choice layout");
_Static_assert(sizeof(struct tsoify_footprint) == 24 && offsetof(struct tsoify_footprint, proc) == 16, "tsoify_footprint layout");
_Static_assert(sizeof(struct tsoify_sleeper) == 12, "tsoify_sleeper layout");
_Static_assert(sizeof(struct tsoify_event) == 56 && offsetof(struct tsoify_event, addr) == 8 && offsetof(struct tsoify_event, aux) == 24 &&
                   offsetof(struct tsoify_event, fp) == 32,
               "tsoify_event layout");
_Static_assert(offsetof(struct tsoify_shm, steps) == 136 && offsetof(struct tsoify_shm, choices) == 4752 &&
                   offsetof(struct tsoify_shm, events) == 7344784 && offsetof(struct tsoify_shm, sleep_fps) == 18882192,
               "tsoify_shm layout");

/* Fork-server protocol. The explorer posts a command by writing `command`
 * and then incrementing `command_seq`; the worker answers by setting
 * `status` and incrementing `answer_seq` (the fork server does the same for
 * a worker that died). A side that waits first yields its CPU up to a few
 * dozen times while the sequence number stays the same (only while
 * `handoff` is set: the other side runs on the same CPU, so a yield runs it
 * at once, without the wakeup a pipe costs), then announces that it sleeps
 * (`worker_sleeps`, `explorer_sleeps`), looks once more and blocks reading
 * its pipe. The explorer clears `handoff` for a while when handovers get
 * slow (another process shares the CPU and each yield hands it a time
 * slice): the worker stamps `took_ns` when it takes a command and
 * `answered_ns` before it answers (driver/src/handoff.rs). The poster
 * writes one byte to that pipe when the other side sleeps. Bytes carry nothing: a woken side looks at the sequence number
 * and sleeps again if it has not moved, so a byte written for a sleep that
 * was called off does no harm. End of file on a pipe means the other side
 * is gone. */
#define TSOIFY_CMD_RUN  1u /* run one execution; answer: enum tsoify_status */
#define TSOIFY_CMD_QUIT 2u
#define TSOIFY_HANDOFF_YIELDS 64u /* yields before a waiting side sleeps on its pipe */
/* `handoff` values. SHARED: both sides run on one CPU (above). OVERLAP:
 * each side has a CPU of its own, and the explorer posts the next
 * execution's command before it analyses the last one (driver/src/explore/
 * speculation.rs), so the two run at the same time; a waiting side yields
 * its own CPU for up to TSOIFY_OVERLAP_SPIN_NS (a wakeup on another CPU
 * costs more than a short execution), then sleeps on its pipe. */
#define TSOIFY_HANDOFF_SLEEP   0u
#define TSOIFY_HANDOFF_SHARED  1u
#define TSOIFY_HANDOFF_OVERLAP 2u
#define TSOIFY_OVERLAP_SPIN_NS 1000000u

#endif
