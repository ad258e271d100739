//! Rust mirror of runtime/include/tsoify_channel.h (keep the two equal; the
//! version number guards it) and the fork-server connection.

use anyhow::{bail, Context, Result};
use std::os::fd::{FromRawFd, RawFd};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

pub const MAGIC: u32 = 0x54534f49;
pub const VERSION: u32 = 23;
/// `probe` of a rotation probe, and its "no thread held back" (tsoify_channel.h)
pub const PROBE_ROTATE: u32 = 0x8000_0000;
pub const PROBE_NO_HELD: u32 = 0xff;
pub const MAX_CHOICES: usize = 1 << 18;
pub const MAX_EVENTS: usize = 1 << 17;
pub const OUTCOME_BYTES: usize = 4096;
pub const MESSAGE_BYTES: usize = 512;
pub const MAX_OPTIONS: usize = 1 << 20;
pub const MAX_SLEEPERS: usize = 256;
pub const MAX_SLEEP_FPS: usize = 8192;
pub const MAX_SLEEP_PROCS: usize = 1 << 20;
pub const MAX_GUIDE: usize = 1 << 16;
pub const MAX_INPUTS: usize = 1024;
pub const MAX_SYM_NODES: usize = 1 << 16;
pub const MAX_PATH: usize = 1 << 14;
/// A guide entry naming a process to schedule (the other 31 bits); other entries
/// are alternatives at value choices.
pub const GUIDE_PROC: u32 = 0x8000_0000;
pub const FP_READ: u8 = 1;
pub const FP_WRITE: u8 = 2;
pub const FP_SYNC: u8 = 4;
pub const FP_RELEASE: u8 = 8;
pub const FP_FLUSH: u8 = 16;
pub const FP_AFTER_FLUSHES: u8 = 32;
pub const FP_TRY: u8 = 64;
/// Process id of the flush process of thread t's store buffer: FLUSH_PROC + t.
pub const FLUSH_PROC: u32 = 64;
/// Under PSO, thread t's buffer for the k-th address it stores to is
/// PSO_FLUSH_PROC + k * PSO_THREAD_STRIDE + t (tsoify_channel.h).
pub const PSO_FLUSH_PROC: u32 = 128;
pub const PSO_THREAD_STRIDE: u32 = 64;

/// The thread whose buffer a flush process empties (None for a thread).
pub fn flush_owner(proc: u32) -> Option<u32> {
    match proc {
        p if p < FLUSH_PROC => None,
        p if p < PSO_FLUSH_PROC => Some(p - FLUSH_PROC),
        p => Some((p - PSO_FLUSH_PROC) % PSO_THREAD_STRIDE),
    }
}
/// A flush process of a PSO buffer (one per thread and address).
pub fn is_pso_flush_proc(proc: u32) -> bool {
    proc >= PSO_FLUSH_PROC
}
/// event kinds (enum tsoify_event_kind) the explorer looks for by name
pub const EV_LOAD: u8 = 1;
pub const EV_STORE: u8 = 2;
pub const EV_FLUSH: u8 = 3;
pub const EV_FENCE: u8 = 4;
pub const EV_RMW: u8 = 5;
pub const EV_CMPXCHG: u8 = 6;
pub const EV_SPAWN: u8 = 7;
pub const EV_JOIN: u8 = 8;
/// taking a sync object (aux: object kind | LOCK_FAILED), giving it back
pub const EV_LOCK: u8 = 10;
pub const EV_UNLOCK: u8 = 11;
pub const EV_ATOMIC_BEGIN: u8 = 14;
pub const EV_ATOMIC_END: u8 = 15;
/// aux 1: returns without a signal; value: the mutex it releases
pub const EV_COND_WAIT: u8 = 16;
/// the thread's buffered stores to [addr, addr + value) are dropped
pub const EV_FREE: u8 = 18;
/// A runtime step of an export declares what it touches (verify on an export)
pub const EV_TOUCH: u8 = 20;
/// __VERIFIER_assume(false): the thread stops for good
pub const EV_ASSUME_FAILED: u8 = 21;
/// a fence that orders nothing in the model, logged for the race check
/// only (the reduction does not see it, explore/mod.rs)
pub const EV_C11_FENCE: u8 = 22;
/// a buffered store whose memory died (a stack frame's end, free) left its
/// buffer unwritten (aux = its flush process); touches nothing
pub const EV_DROP: u8 = 23;
/// the violation that ended an execution
pub const EV_ERROR: u8 = 13;
/// a `__VERIFIER_nondet_*` result: value, aux = its width in bits
pub const EV_NONDET: u8 = 12;
/// in a LOCK event's aux: a try that failed (TSOIFY_LOCK_FAILED); it took nothing
pub const LOCK_FAILED: u32 = 0x100;
/// shm await_mode: a failing await iteration stops its thread (spin-assume)
pub const AWAIT_STOP: u32 = 0;
/// never block in an await loop (--no-await)
pub const AWAIT_NONE: u32 = 1;
/// block until what the iteration read changes, then run it again (--await-wake)
pub const AWAIT_WAKE: u32 = 2;
const CMD_RUN: u32 = 1;
const CMD_QUIT: u32 = 2;
/// Yields of the shared CPU before a waiting side sleeps on its pipe
/// (TSOIFY_HANDOFF_YIELDS).
const HANDOFF_YIELDS: usize = 64;
/// `handoff` values (TSOIFY_HANDOFF_*): sleep on the pipe at once; yield
/// the one CPU both sides share first; yield a CPU of one's own first, up
/// to OVERLAP_SPIN_NS.
const HANDOFF_SLEEP: u32 = 0;
const HANDOFF_SHARED: u32 = 1;
const HANDOFF_OVERLAP: u32 = 2;
const OVERLAP_SPIN_NS: u64 = 1_000_000;

/// An expression over wide nondet values (struct tsoify_sym_node).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SymNode {
    pub op: u8,
    pub bits: u8,
    pub pred: u8,
    pub pad: u8,
    pub a: u32,
    pub b: u32,
    pub c: u32,
    pub k: u64,
    pub val: u64,
}

/// A branch on such an expression (struct tsoify_path_cond).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PathCond {
    pub node: u32,
    /// bit 0: taken in this execution; PATH_ONE_SIDED
    pub taken: u32,
    pub thread: u32,
    pub event: u32,
}

/// The value of one wide nondet call (struct tsoify_input).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Input {
    pub thread: u32,
    pub ordinal: u32,
    pub value: u64,
}

pub const SYM_VAR: u8 = 1;
pub const SYM_CONST: u8 = 2;
pub const SYM_ADD: u8 = 3;
pub const SYM_SUB: u8 = 4;
pub const SYM_MUL: u8 = 5;
pub const SYM_UDIV: u8 = 6;
pub const SYM_SDIV: u8 = 7;
pub const SYM_UREM: u8 = 8;
pub const SYM_SREM: u8 = 9;
pub const SYM_AND: u8 = 10;
pub const SYM_OR: u8 = 11;
pub const SYM_XOR: u8 = 12;
pub const SYM_SHL: u8 = 13;
pub const SYM_LSHR: u8 = 14;
pub const SYM_ASHR: u8 = 15;
pub const SYM_ICMP: u8 = 16;
pub const SYM_ZEXT: u8 = 17;
pub const SYM_SEXT: u8 = 18;
pub const SYM_TRUNC: u8 = 19;
pub const SYM_SELECT: u8 = 20;
/// an exact integer-to-float conversion (never in a path condition)
pub const SYM_ITOFP: u8 = 21;
/// PathCond::taken: an assume that passed in a thread whose nondet values
/// no other thread has seen or given it: its other side is not taken
pub const PATH_ONE_SIDED: u32 = 2;
pub const SYMF_UNTRACKED: u32 = 1;
/// a value the tracking could not follow was pinned (each feasible value a path)
pub const SYMF_PINNED: u32 = 2;
pub const SYMF_USED: u32 = 4;
/// a guided step took the other side of a branch on nondet values than its guide said
pub const SYMF_GUIDE_LEFT: u32 = 8;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Choice {
    pub chosen: u32,
    pub count: u32,
    pub kind: u16,
    pub thread: u16,
    pub event: u32,
    pub options: u32,
    pub sleep_first: u32,
    pub sleep_n: u32,
}

/// What an event touches (struct tsoify_footprint): see the C header for
/// the dependency rule, implemented by `dependent` here and by the runtime.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub lo: u64,
    pub hi: u64,
    pub proc: u32,
    pub owner: u16,
    pub access: u8,
    pub pad: u8,
}

impl Footprint {
    pub fn reads(&self) -> bool {
        self.access & FP_READ != 0
    }
    pub fn writes(&self) -> bool {
        self.access & FP_WRITE != 0
    }
    pub fn sync(&self) -> bool {
        self.access & FP_SYNC != 0
    }
    pub fn release(&self) -> bool {
        self.access & FP_RELEASE != 0
    }
    pub fn flush(&self) -> bool {
        self.access & FP_FLUSH != 0
    }
    /// a use of a sync object whose outcome depends on its state (a
    /// failed trylock): it races with the object's releases too
    pub fn try_use(&self) -> bool {
        self.access & FP_TRY != 0
    }
    /// waits for the flushes of `owner`'s buffers made so far
    pub fn after_flushes(&self) -> bool {
        self.access & FP_AFTER_FLUSHES != 0
    }
    /// A flush against an event of its owner that waits for it: ordered,
    /// never a race (the waiting event cannot go first).
    #[inline]
    pub fn flush_order(&self, o: &Footprint) -> bool {
        self.owner == o.owner && ((self.flush() && o.after_flushes()) || (o.flush() && self.after_flushes()))
    }
    #[inline]
    pub fn overlaps(&self, o: &Footprint) -> bool {
        self.lo < o.hi && o.lo < self.hi
    }
    /// Same process, same synchronisation object, or overlapping memory
    /// with a write: the dependency relation of the race analysis (which
    /// adds the flush-before-waiting-event edges itself, in one direction).
    #[inline]
    pub fn dependent(&self, o: &Footprint) -> bool {
        self.proc == o.proc || self.memory_conflict(o) || self.same_object(o)
    }
    /// `dependent`, or a flush against an event of its owner that waits for
    /// flushes: whether a step described by one can be commuted with the
    /// other (sleep sets, wakeup trees; the runtime's fp_dependent is this
    /// rule).
    #[inline]
    pub fn interferes(&self, o: &Footprint) -> bool {
        self.dependent(o) || self.flush_order(o)
    }
    /// Overlapping memory accesses of which one writes.
    #[inline]
    pub fn memory_conflict(&self, o: &Footprint) -> bool {
        let mem = |f: &Footprint| !f.sync() && (f.reads() || f.writes());
        // a read commutes with the flushes of its own thread's buffers
        let own_read_and_flush = |r: &Footprint, w: &Footprint| r.reads() && !r.writes() && w.flush() && r.owner == w.owner;
        // (the range test first: most pairs the reduction asks about are apart)
        self.overlaps(o) && mem(self) && mem(o) && (self.writes() || o.writes()) && !own_read_and_flush(self, o) && !own_read_and_flush(o, self)
    }
    /// Both use the same synchronisation object.
    #[inline]
    pub fn same_object(&self, o: &Footprint) -> bool {
        self.sync() && o.sync() && self.lo == o.lo
    }
    /// Memory write against memory write (two stores race even across a lock release).
    pub fn write_write(&self, o: &Footprint) -> bool {
        !self.sync() && !o.sync() && self.writes() && o.writes() && self.overlaps(o)
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Sleeper {
    pub proc: u32,
    pub n: u32,
    pub first: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Event {
    pub thread: u16,
    pub kind: u8,
    pub size: u8,
    pub loc: u32,
    pub addr: u64,
    pub value: u64,
    pub aux: u32,
    pub aux2: u32,
    pub fp: Footprint,
}

impl Event {
    /// A store that went into a store buffer (aux != 0: it reaches memory
    /// with a later FLUSH event), not straight to memory.
    pub fn is_buffered_store(&self) -> bool {
        self.kind == EV_STORE && self.aux != 0
    }
}

#[repr(C)]
pub struct Shm {
    pub magic: u32,
    pub version: u32,
    pub model: u32,
    pub bound: u32,
    pub max_steps: u32,
    pub log_events: u32,
    pub prefix_len: u32,
    pub hang_seconds: u32,
    pub por: u32,
    pub unroll: u32,
    pub await_mode: u32,
    pub spurious: u32,
    /// 1 = an access of freed heap memory is no error (tsoify_channel.h)
    pub freed_ok: u32,
    /// not 0: a probe execution seeded with it, or a rotation probe (see explore/probes.rs, Probes)
    pub probe: u32,
    pub n_options: u32,
    pub busy: u32,
    /// The handshake (tsoify_channel.h, "Fork-server protocol").
    pub handoff: u32,
    pub command: u32,
    pub command_seq: u32,
    pub answer_seq: u32,
    pub worker_sleeps: u32,
    pub explorer_sleeps: u32,
    pub n_sleepers: u32,
    pub guide_len: u32,
    pub n_sleep_procs: u32,
    pub trail_len: u32,
    pub status: u32,
    pub status_loc: u32,
    pub status_thread: u32,
    pub flags: u32,
    pub n_events: u32,
    pub outcome_len: u32,
    pub signal: u32,
    pub steps: u64,
    pub message: [u8; MESSAGE_BYTES],
    pub outcome: [u8; OUTCOME_BYTES],
    pub choices: [Choice; MAX_CHOICES],
    pub events: [Event; MAX_EVENTS],
    pub option_procs: [u32; MAX_OPTIONS],
    pub sleepers: [Sleeper; MAX_SLEEPERS],
    pub sleep_fps: [Footprint; MAX_SLEEP_FPS],
    pub guide: [u32; MAX_GUIDE],
    pub sleep_procs: [u32; MAX_SLEEP_PROCS],
    pub n_inputs: u32,
    pub n_sym_nodes: u32,
    pub n_path: u32,
    pub sym_flags: u32,
    pub sym_reason: [u8; MESSAGE_BYTES],
    pub inputs: [Input; MAX_INPUTS],
    pub sym_nodes: [SymNode; MAX_SYM_NODES],
    pub path: [PathCond; MAX_PATH],
    /// when the worker took the last command and answered it (CLOCK_MONOTONIC ns; see `Handoff`)
    pub took_ns: u64,
    pub answered_ns: u64,
    /// the worker's process id (`Server` moves it between CPUs)
    pub worker_pid: u32,
    pub reserved: u32,
}

/// The size the C header asserts too (a layout change fails to compile).
pub const SHM_BYTES: usize = 25_911_480;
const _: () = assert!(std::mem::size_of::<Shm>() == SHM_BYTES);
// the offsets the C header asserts under -m32 and -m64 alike (an ILP32
// program's runtime shares this memory with the 64-bit verify)
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<Choice>() == 28 && size_of::<Footprint>() == 24 && size_of::<Sleeper>() == 12 && size_of::<Event>() == 56);
    assert!(offset_of!(Event, addr) == 8 && offset_of!(Event, aux) == 24 && offset_of!(Event, fp) == 32);
    assert!(offset_of!(Shm, steps) == 136 && offset_of!(Shm, choices) == 4752);
    assert!(offset_of!(Shm, events) == 7_344_784 && offset_of!(Shm, sleep_fps) == 18_882_192);
};

/// How an execution ended (enum tsoify_status).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Running,
    Done,
    Assert,
    ReachError,
    Abort,
    Deadlock,
    StepLimit,
    Assume,
    Internal,
    Crash,
    Hang,
    /// every enabled process was asleep (partial order reduction): a repeat
    SleepBlocked,
    /// every live thread waits in an await loop for a change no thread can make
    Livelock,
    /// a loop ran more iterations than --unroll allows: the execution was cut
    Unroll,
    /// a load, store or read-modify-write of heap memory already freed
    Freed,
}

impl Status {
    pub fn from_u32(v: u32) -> Status {
        use Status::*;
        [Running, Done, Assert, ReachError, Abort, Deadlock, StepLimit, Assume, Internal, Crash, Hang, SleepBlocked, Livelock, Unroll, Freed]
            .get(v as usize)
            .copied()
            .unwrap_or(Internal)
    }
    pub fn is_violation(self) -> bool {
        matches!(self, Status::Assert | Status::ReachError | Status::Abort | Status::Deadlock | Status::Livelock | Status::Crash | Status::Freed)
    }
    /// The word used in `VIOLATION <kind>`.
    pub fn violation_kind(self) -> &'static str {
        match self {
            Status::Assert => "assertion",
            Status::ReachError => "reach_error",
            Status::Abort => "abort",
            Status::Deadlock => "deadlock",
            Status::Livelock => "livelock",
            Status::Crash => "crash",
            Status::Freed => "use-after-free",
            _ => "none",
        }
    }
}

pub const CH_SCHEDULE: u16 = 0;
/// a branch or assume on a wide nondet value: 1 = taken (sym.c, concolic.rs)
pub const CH_BRANCH: u16 = 4;
/// or'ed into a scheduling choice's kind: a thread waits there for room in its full buffer
pub const CH_ROOM_WAIT: u16 = 0x100;

pub const FL_NONDET_SAMPLED: u32 = 1;
pub const FL_EVENTS_TRUNC: u32 = 2;
pub const FL_GUIDE_BROKEN: u32 = 4;
pub const FL_SLEEP_TRUNC: u32 = 8;
pub const FL_ASSUME_FAILED: u32 = 16;
/// nothing could run any more: the last step ended nothing (see dpor::Steps)
pub const FL_RAN_OUT: u32 = 64;
/// main waited at its end when the first assume failed: the execution is complete if it ends DONE
pub const FL_END_BEFORE_ASSUME: u32 = 128;

/// A running fork server: the instrumented program waiting for RUN commands.
pub struct Server {
    child: Child,
    shm: *mut Shm,
    cmd: std::fs::File,
    reply: std::fs::File,
    /// the CPU verify and the program share while this server runs (or
    /// verify's, with one of its own for the program: `CpuClaim::worker`)
    cpu: Option<CpuClaim>,
    /// whether a waiting side yields its CPU now
    handoff: crate::handoff::Handoff,
    /// TSOIFY_OVERLAP=1: post commands ahead even without two CPUs (tests)
    overlap_forced: bool,
    /// `answer_seq` when the last command was posted, and when
    posted: (u32, u64),
    /// the last command posted is not answered yet (`await_run`)
    outstanding: bool,
    /// every CPU was taken when this server started, and still is
    wanting: Option<Wanting>,
    /// executions answered
    runs: u64,
}

/// Whether the worker has a command it has not answered (its CPU is
/// better given to it), readable from another thread while the `Server`
/// that made it lives.
pub struct WorkerBusy {
    shm: *const Shm,
}

// (it only reads two words of the shared mapping, atomically)
unsafe impl Send for WorkerBusy {}

impl WorkerBusy {
    pub fn now(&self) -> bool {
        let word = |field: *const u32| unsafe { AtomicU32::from_ptr(field as *mut u32) }.load(Ordering::Relaxed);
        unsafe { word(&raw const (*self.shm).command_seq) != word(&raw const (*self.shm).answer_seq) }
    }
}

/// One CPU for verify and its program's worker. They take turns (the
/// worker runs an execution while verify waits, then verify analyses it),
/// so a second CPU gains them nothing, and it costs: each turn wakes the
/// other process, and on the 2-core test machine waking a process on an
/// idle CPU cost more than a short execution (fib_bench under SC: 53 us
/// per execution, 70% of it in the kernel; on one CPU 13 us). A lock file
/// per CPU keeps verify processes that run side by side (corpus-check,
/// svcomp-run --jobs 2, cargo test) on different CPUs; when every CPU is
/// taken, or only one is allowed, or TSOIFY_PIN=0, nothing is pinned.
///
/// With a second CPU free the two can overlap instead: the search posts
/// the next execution before it analyses the last one where it can tell
/// what the next will be (explore/speculation.rs), and the worker runs it
/// meanwhile on a CPU of its own. Each side then waits by yielding its own
/// CPU, which costs no wakeup either (lastzero N = 12: a fifth less time
/// per execution). TSOIFY_OVERLAP=0 keeps to one CPU. A second CPU is
/// only borrowed: a verify that finds every CPU taken says so (`Wanting`),
/// and one that overlaps gives its second CPU back when it sees that
/// (`Server::share_cpus`), so verify processes side by side still get a
/// CPU each.
struct CpuClaim {
    /// holds the CPU's lock (released when closed, also if verify dies)
    _lock: std::fs::File,
    cpu: usize,
    /// the affinity verify's thread had before
    before: libc::cpu_set_t,
    /// the program's own CPU, when the two overlap (and its lock)
    worker: Option<(std::fs::File, usize)>,
}

/// A verify that found every CPU taken holds this lock shared until it
/// gets one (checked every `CLAIM_EVERY` executions).
struct Wanting {
    _lock: std::fs::File,
}

/// Executions between looks at the CPU locks: whether another verify wants
/// a CPU (when overlapping on two), or one is free (when unpinned).
const CLAIM_EVERY: u64 = 64;

fn want_file() -> Option<std::fs::File> {
    let uid = unsafe { libc::getuid() };
    let path = std::env::temp_dir().join(format!("tsoify-{uid}-want.lock"));
    std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(path).ok()
}

impl Wanting {
    fn new() -> Option<Wanting> {
        use std::os::fd::AsRawFd;
        let lock = want_file()?;
        (unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) } == 0).then_some(Wanting { _lock: lock })
    }

    /// Whether some verify waits for a CPU now.
    fn anyone() -> bool {
        use std::os::fd::AsRawFd;
        let Some(lock) = want_file() else { return false };
        // (the exclusive lock is refused while a waiting verify holds it shared)
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) != 0 }
    }
}

impl CpuClaim {
    fn take(overlap: bool) -> Option<CpuClaim> {
        use std::os::fd::AsRawFd;
        if std::env::var("TSOIFY_PIN").is_ok_and(|v| v == "0") {
            return None;
        }
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let mut before: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        if unsafe { libc::sched_getaffinity(0, size, &mut before) } != 0 {
            return None;
        }
        let allowed = cpus(&before);
        if allowed.len() < 2 {
            return None;
        }
        // start from the CPU the scheduler put us on
        let here = unsafe { libc::sched_getcpu() };
        let first = allowed.iter().position(|&c| c as i32 == here).unwrap_or(0);
        let uid = unsafe { libc::getuid() };
        let lock = |cpu: usize| {
            let path = std::env::temp_dir().join(format!("tsoify-{uid}-cpu{cpu}.lock"));
            let lock = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path).ok()?;
            (unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0).then_some(lock)
        };
        let mut free = (0..allowed.len()).map(|i| allowed[(first + i) % allowed.len()]);
        let (lock0, cpu) = free.by_ref().find_map(|cpu| Some((lock(cpu)?, cpu)))?;
        let worker = if overlap { free.find_map(|cpu| Some((lock(cpu)?, cpu))) } else { None };
        let claim = CpuClaim { _lock: lock0, cpu, before, worker };
        pin(0, claim.cpu).then_some(claim)
    }

    /// The program's CPU: its own when the two overlap, else verify's.
    fn worker_cpu(&self) -> usize {
        self.worker.as_ref().map_or(self.cpu, |w| w.1)
    }

    /// Put verify's thread (`pids[0]`, 0) and the program's processes (the
    /// rest) on the claimed CPUs, or give them back the CPUs verify had
    /// before (see `Handoff`).
    fn gather(&self, together: bool, pids: &[libc::pid_t]) {
        for (i, &pid) in pids.iter().enumerate() {
            if together {
                pin(pid, if i == 0 { self.cpu } else { self.worker_cpu() });
            } else {
                unsafe { libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &self.before) };
            }
        }
    }
}

impl Drop for CpuClaim {
    fn drop(&mut self) {
        self.gather(false, &[0]);
    }
}

/// The CPUs in `set`.
fn cpus(set: &libc::cpu_set_t) -> Vec<usize> {
    (0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, set) }).collect()
}

/// Restrict process or thread `pid` (0: the calling thread) to `cpu`.
fn pin(pid: libc::pid_t, cpu: usize) -> bool {
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    unsafe { libc::CPU_SET(cpu, &mut set) };
    unsafe { libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0 }
}

fn raw_pipe() -> Result<(RawFd, RawFd)> {
    let mut fds = [0; 2];
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        bail!("pipe: {}", std::io::Error::last_os_error());
    }
    Ok((fds[0], fds[1]))
}

fn set_cloexec(fd: RawFd) {
    unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
}

impl Server {
    /// Start `program` as a fork server; `info` is where it writes its
    /// location and globals tables.
    pub fn start(program: &Path, args: &[String], info: &Path) -> Result<Server> {
        let size = std::mem::size_of::<Shm>();
        let memfd = unsafe { libc::memfd_create(c"tsoify-channel".as_ptr(), 0) };
        if memfd < 0 {
            bail!("memfd_create: {}", std::io::Error::last_os_error());
        }
        if unsafe { libc::ftruncate(memfd, size as libc::off_t) } != 0 {
            bail!("ftruncate: {}", std::io::Error::last_os_error());
        }
        let p = unsafe {
            libc::mmap(std::ptr::null_mut(), size, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, memfd, 0)
        };
        if p == libc::MAP_FAILED {
            bail!("mmap: {}", std::io::Error::last_os_error());
        }
        let shm = p as *mut Shm;
        unsafe {
            (*shm).magic = MAGIC;
            (*shm).version = VERSION;
        }
        let (cmd_r, cmd_w) = raw_pipe()?;
        let (rep_r, rep_w) = raw_pipe()?;
        // only the server's ends stay open across exec
        set_cloexec(cmd_w);
        set_cloexec(rep_r);
        // TSOIFY_OVERLAP: 0 keeps to one CPU, 1 posts ahead even without two
        let overlap_env = std::env::var("TSOIFY_OVERLAP").ok();
        let cpu = CpuClaim::take(overlap_env.as_deref() != Some("0"));
        // sharing one CPU, a side that waits for the other yields to it;
        // on CPUs of their own, each yields its own
        let handoff = crate::handoff::Handoff::new(cpu.is_some());
        let mut command = Command::new(program);
        if let Some(c) = &cpu {
            use std::os::unix::process::CommandExt;
            let cpu = c.worker_cpu();
            // before exec, so the worker the server forks is pinned too
            unsafe {
                command.pre_exec(move || {
                    pin(0, cpu);
                    Ok(())
                })
            };
        }
        let child = command
            .args(args)
            .env("TSOIFY_CHANNEL_FD", memfd.to_string())
            .env("TSOIFY_CMD_FD", cmd_r.to_string())
            .env("TSOIFY_REPLY_FD", rep_w.to_string())
            .env("TSOIFY_INFO", info)
            .stdin(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot run {}", program.display()))?;
        unsafe {
            libc::close(cmd_r);
            libc::close(rep_w);
            libc::close(memfd);
        }
        let cmd = unsafe { std::fs::File::from_raw_fd(cmd_w) };
        let reply = unsafe { std::fs::File::from_raw_fd(rep_r) };
        let overlap_forced = overlap_env.as_deref() == Some("1");
        let wanting = if cpu.is_none() && std::env::var("TSOIFY_PIN").map_or(true, |v| v != "0") { Wanting::new() } else { None };
        let server = Server { child, shm, cmd, reply, cpu, handoff, overlap_forced, posted: (0, 0), outstanding: false, wanting, runs: 0 };
        unsafe { (*shm).handoff = server.handoff_mode() };
        Ok(server)
    }

    /// Give the second CPU back when another verify waits for one; take
    /// one when this verify waits and one is free (see `CpuClaim`).
    fn share_cpus(&mut self) {
        let pids = self.program_pids();
        if let Some(claim) = self.cpu.as_mut().filter(|c| c.worker.is_some()) {
            if Wanting::anyone() {
                claim.worker = None;
                if self.handoff.yielding() {
                    claim.gather(true, &pids);
                }
                self.word(|s| unsafe { &raw mut (*s).handoff }).store(self.handoff_mode(), Ordering::Relaxed);
            }
        } else if self.wanting.is_some() {
            if let Some(claim) = CpuClaim::take(false) {
                claim.gather(true, &pids);
                self.cpu = Some(claim);
                self.handoff = crate::handoff::Handoff::new(true);
                self.wanting = None;
                self.word(|s| unsafe { &raw mut (*s).handoff }).store(self.handoff_mode(), Ordering::Relaxed);
            }
        }
    }

    /// Who `CpuClaim::gather` places: verify's thread (0), the fork server
    /// and its worker, once there is one.
    fn program_pids(&self) -> Vec<libc::pid_t> {
        let worker = unsafe { std::ptr::read_volatile(&(*self.shm).worker_pid) } as libc::pid_t;
        let mut pids = vec![0, self.child.id() as libc::pid_t];
        if worker > 0 {
            pids.push(worker);
        }
        pids
    }

    /// Whether the worker has answered since the answer sequence was `seen`.
    fn answered(&self, seen: u32) -> bool {
        self.word(|s| unsafe { &raw mut (*s).answer_seq }).load(Ordering::SeqCst) != seen
    }

    /// The waiting mode for the channel's `handoff` word.
    fn handoff_mode(&self) -> u32 {
        match (self.handoff.yielding(), self.cpu.as_ref().is_some_and(|c| c.worker.is_some())) {
            (false, _) => HANDOFF_SLEEP,
            (true, false) => HANDOFF_SHARED,
            (true, true) => HANDOFF_OVERLAP,
        }
    }

    /// Whether the search should post the next execution before it
    /// analyses the last one (see `CpuClaim`): the program has a CPU of
    /// its own now (or TSOIFY_OVERLAP=1 asks for it anyway).
    pub fn overlapping(&self) -> bool {
        self.overlap_forced || self.handoff_mode() == HANDOFF_OVERLAP
    }

    pub fn shm(&mut self) -> &mut Shm {
        unsafe { &mut *self.shm }
    }

    /// Where a helper thread of verify should run: the CPUs verify was
    /// allowed before it claimed one for itself and the program, without
    /// that one (None: nothing is pinned, the thread may run anywhere).
    /// The program's own CPU is in it when nothing else is left
    /// (`RaceThread`: it yields that CPU between executions then).
    pub fn cpus_beside(&self) -> Option<libc::cpu_set_t> {
        let claim = self.cpu.as_ref()?;
        let mut set = claim.before;
        unsafe { libc::CPU_CLR(claim.cpu, &mut set) };
        let mut without_worker = set;
        unsafe { libc::CPU_CLR(claim.worker_cpu(), &mut without_worker) };
        Some(if cpus(&without_worker).is_empty() { set } else { without_worker })
    }

    /// When `cpus_beside` holds the worker's CPU, and the worker waits
    /// there by yielding it: a view of whether it has a command to run (a
    /// helper thread there should give it the CPU then).
    pub fn beside_the_worker(&self) -> Option<WorkerBusy> {
        let c = self.cpu.as_ref()?;
        let beside = self.cpus_beside()?;
        (c.worker.is_some() && unsafe { libc::CPU_ISSET(c.worker_cpu(), &beside) }).then_some(WorkerBusy { shm: self.shm })
    }

    /// Run one execution with the prefix and configuration already in the
    /// channel; returns how it ended.
    pub fn run(&mut self) -> Result<Status> {
        self.post_run()?;
        self.await_run()
    }

    /// Start one execution with the prefix and configuration in the
    /// channel; the channel's results are the worker's until `await_run`.
    pub fn post_run(&mut self) -> Result<()> {
        // the worker sets it too as it starts; until then the last
        // execution's status would look like this one's end
        unsafe { std::ptr::write_volatile(&mut (*self.shm).status, Status::Running as u32) };
        let seen = self.word(|s| unsafe { &raw mut (*s).answer_seq }).load(Ordering::Acquire);
        self.posted = (seen, crate::handoff::now_ns());
        self.outstanding = true;
        self.post(CMD_RUN).context("the program's fork server is gone")
    }

    /// Wait for the execution `post_run` started; returns how it ended.
    pub fn await_run(&mut self) -> Result<Status> {
        let (seen, posted) = self.posted;
        self.outstanding = false;
        if self.await_answer(seen).is_err() {
            let status = self.child.wait().ok();
            bail!(
                "the instrumented program stopped answering ({}); was it built by this version of tsoify?",
                status.map(|s| s.to_string()).unwrap_or_default()
            );
        }
        let answer_seen = crate::handoff::now_ns();
        self.runs += 1;
        if self.runs.is_multiple_of(CLAIM_EVERY) {
            self.share_cpus();
        }
        let (took, answered) = unsafe { (std::ptr::read_volatile(&(*self.shm).took_ns), std::ptr::read_volatile(&(*self.shm).answered_ns)) };
        let was = self.handoff.yielding();
        // (overlapping, verify may be busy with the last execution when
        // the answer comes: only the command's handover tells)
        let answer_ns = if self.handoff_mode() == HANDOFF_OVERLAP { 0 } else { answer_seen.saturating_sub(answered) };
        let yielding = self.handoff.observe(took.saturating_sub(posted), answer_ns);
        if yielding != was {
            // off: let the scheduler place both away from whoever took
            // the CPU; on: try sharing it (or overlapping) again
            self.word(|s| unsafe { &raw mut (*s).handoff }).store(self.handoff_mode(), Ordering::Relaxed);
            if let Some(cpu) = &self.cpu {
                cpu.gather(yielding, &self.program_pids());
            }
        }
        Ok(Status::from_u32(unsafe { std::ptr::read_volatile(&(*self.shm).status) }))
    }

    /// A handshake word of the channel, shared with the program.
    fn word(&self, field: impl Fn(*mut Shm) -> *mut u32) -> &AtomicU32 {
        unsafe { AtomicU32::from_ptr(field(self.shm)) }
    }

    /// Post a command (tsoify_channel.h, "Fork-server protocol"), waking
    /// the worker if it sleeps on its pipe.
    fn post(&mut self, command: u32) -> std::io::Result<()> {
        use std::io::Write;
        self.word(|s| unsafe { &raw mut (*s).command }).store(command, Ordering::Release);
        self.word(|s| unsafe { &raw mut (*s).command_seq }).fetch_add(1, Ordering::SeqCst);
        if self.word(|s| unsafe { &raw mut (*s).worker_sleeps }).load(Ordering::SeqCst) != 0 {
            self.cmd.write_all(&[0])?;
        }
        Ok(())
    }

    /// Wait until the answer sequence moves on from `seen`: yield the CPU
    /// the worker shares a few times, then sleep on the answer pipe. An
    /// error: the program is gone.
    fn await_answer(&mut self, seen: u32) -> std::io::Result<()> {
        use std::io::Read;
        match self.handoff_mode() {
            HANDOFF_SHARED => {
                for _ in 0..HANDOFF_YIELDS {
                    if self.answered(seen) {
                        return Ok(());
                    }
                    unsafe { libc::sched_yield() };
                }
            }
            HANDOFF_OVERLAP => {
                let until = crate::handoff::now_ns() + OVERLAP_SPIN_NS;
                for i in 0u32.. {
                    if self.answered(seen) {
                        return Ok(());
                    }
                    if i % 64 == 63 && crate::handoff::now_ns() >= until {
                        break;
                    }
                    unsafe { libc::sched_yield() };
                }
            }
            _ => {}
        }
        loop {
            self.word(|s| unsafe { &raw mut (*s).explorer_sleeps }).store(1, Ordering::SeqCst);
            if self.answered(seen) {
                break;
            }
            self.reply.read_exact(&mut [0u8])?;
        }
        self.word(|s| unsafe { &raw mut (*s).explorer_sleeps }).store(0, Ordering::Relaxed);
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // an execution the search posted ahead and then did not want (it
        // stopped) could run on to the hang limit: kill it (had it just
        // answered, its fork server ends too, as told)
        if self.outstanding && !self.answered(self.posted.0) {
            let worker = unsafe { std::ptr::read_volatile(&(*self.shm).worker_pid) } as libc::pid_t;
            if worker > 0 {
                unsafe { libc::kill(worker, libc::SIGKILL) };
            }
        }
        let _ = self.post(CMD_QUIT);
        let _ = self.child.wait();
        unsafe { libc::munmap(self.shm as *mut _, std::mem::size_of::<Shm>()) };
    }
}

pub fn c_text(bytes: &[u8], len: usize) -> String {
    let n = bytes.iter().take(len.min(bytes.len())).position(|&b| b == 0).unwrap_or(len.min(bytes.len()));
    String::from_utf8_lossy(&bytes[..n]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::{cpus, CpuClaim, Wanting};

    fn affinity() -> Vec<usize> {
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) }, 0);
        cpus(&set)
    }

    /// A claim pins the calling thread to its CPU, a claim beside it (as
    /// another verify's would be) takes another CPU, and each gives back
    /// the affinity it found. (With one CPU, or every CPU claimed by verify
    /// processes running beside this test, nothing is pinned.)
    #[test]
    fn claims_take_different_cpus_and_give_them_back() {
        let before = affinity();
        let (tell, told) = std::sync::mpsc::channel();
        let (finish, finished) = std::sync::mpsc::channel::<()>();
        let other = std::thread::spawn(move || {
            let claim = CpuClaim::take(false);
            tell.send(claim.as_ref().map(|c| c.cpu)).unwrap();
            finished.recv().unwrap();
        });
        let other_cpu = told.recv().unwrap();
        let mine = CpuClaim::take(false);
        if let Some(m) = &mine {
            assert_eq!(affinity(), [m.cpu], "pinned to the claimed CPU");
            assert_ne!(Some(m.cpu), other_cpu, "two claims, two CPUs");
        }
        drop(mine);
        assert_eq!(affinity(), before, "the claim gives back the affinity it found");
        finish.send(()).unwrap();
        other.join().unwrap();
    }

    /// A claim to overlap takes a second CPU for the worker where one is
    /// free, and a verify that waits for a CPU is seen by the others.
    #[test]
    fn an_overlapping_claim_takes_two_cpus_and_sees_who_waits() {
        let before = affinity();
        if let Some(claim) = CpuClaim::take(true) {
            if let Some((_, worker)) = &claim.worker {
                assert_ne!(*worker, claim.cpu, "the worker's CPU is another");
                assert_eq!(claim.worker_cpu(), *worker);
            }
            assert_eq!(affinity(), [claim.cpu], "verify's thread on its own CPU");
        }
        assert_eq!(affinity(), before);
        let waiting = Wanting::new().expect("the lock file of waiting verify processes");
        assert!(Wanting::anyone(), "a waiting verify is seen");
        drop(waiting);
    }
}
