//! Turning an exploration into what a person reads: the verdict line,
//! statistics, the counterexample trace, and the JSON forms of both.

use crate::channel::{Event, Status};
use crate::explore::{Exploration, Violation};
use crate::info::ProgramInfo;
use serde::Serialize;

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Verdict {
    /// SAFE, VIOLATION or UNKNOWN
    pub verdict: &'static str,
    /// the kind of violation, or why the answer is unknown
    pub reason: String,
}

impl Verdict {
    pub fn line(&self) -> String {
        if self.reason.is_empty() { self.verdict.to_string() } else { format!("{} {}", self.verdict, self.reason) }
    }
    pub fn exit_code(&self) -> i32 {
        match self.verdict {
            "SAFE" | "ROBUST" => crate::exit::SAFE,
            "VIOLATION" | "NOT ROBUST" => crate::exit::VIOLATION,
            _ => crate::exit::UNKNOWN,
        }
    }
}

pub fn verdict(x: &Exploration) -> Verdict {
    if let Some(v) = &x.violation {
        return Verdict { verdict: "VIOLATION", reason: v.status.violation_kind().to_string() };
    }
    if x.races_violate && !x.races.is_empty() {
        return Verdict { verdict: "VIOLATION", reason: "data race".into() };
    }
    complete_or_unknown(x, "SAFE")
}

/// `verify --robustness`: NOT ROBUST with the first execution that is not
/// SC-equivalent, ROBUST when the search was complete, else UNKNOWN.
pub fn robustness_verdict(x: &Exploration) -> Verdict {
    if x.not_robust.is_some() {
        return Verdict { verdict: "NOT ROBUST", reason: String::new() };
    }
    complete_or_unknown(x, "ROBUST")
}

/// `yes` when the search saw everything, else UNKNOWN with every reason.
fn complete_or_unknown(x: &Exploration, yes: &'static str) -> Verdict {
    let s = &x.stats;
    let why = incomplete_reasons(x);
    if why.is_empty() && s.exhausted && s.complete() == 0 {
        // true (no execution reaches an error) but resting on nothing a
        // user might expect: say so
        let reason = format!("(over no complete execution: {} of {} discarded by a failed __VERIFIER_assume or a spin loop that would have gone round again, the rest cut short as equivalent to others)", s.assume_blocked, s.executions);
        Verdict { verdict: yes, reason }
    } else if why.is_empty() && s.exhausted {
        Verdict { verdict: yes, reason: String::new() }
    } else {
        Verdict { verdict: "UNKNOWN", reason: why.join("; ") }
    }
}

/// Why the search did not see every execution (empty: it did, or it
/// stopped at a violation). A violation answers the question whatever
/// was left; `--outcomes`, which goes on after violations, needs these
/// reasons to say its set may be partial.
pub fn incomplete_reasons(x: &Exploration) -> Vec<String> {
    let s = &x.stats;
    let mut why = vec![];
    if let Some(stop) = s.stopped_by {
        why.push(format!("{stop} reached before the search was complete"));
    }
    if s.step_limited > 0 {
        why.push(format!("{} execution(s) hit the step limit (raise --max-steps, or the program does not terminate)", s.step_limited));
    }
    if s.unroll_cut > 0 {
        why.push(format!("{} execution(s) were cut by --unroll (a loop ran longer; raise the bound)", s.unroll_cut));
    }
    if s.hangs > 0 {
        why.push(format!("{} execution(s) hung in code without memory operations", s.hangs));
    }
    if s.crashes > 0 {
        why.push(format!("{} execution(s) crashed (undefined behaviour, not a property violation)", s.crashes));
    }
    if s.nondet_sampled > 0 {
        why.push("a wide __VERIFIER_nondet value was sampled, not enumerated".to_string());
    }
    for r in &s.nondet_unknown {
        why.push(format!("nondet values: {r}"));
    }
    for m in &s.internal {
        why.push(format!("runtime: {m}"));
    }
    // (a pinned value is exact; it only explains a search that is long)
    if !why.is_empty() {
        why.extend(s.nondet_pinned.iter().map(|p| format!("nondet values: {p}")));
    }
    why
}

#[derive(Serialize)]
pub struct TraceStep {
    pub step: usize,
    pub thread: u32,
    pub location: String,
    pub function: String,
    pub operation: String,
    pub variable: String,
    pub value: Option<i64>,
    pub buffer: String,
    /// the location id (info.rs) of `location`, for whoever needs more than
    /// its file name and line (the SARIF log)
    #[serde(skip)]
    pub loc: u32,
}

/// `v`, a value of `size` bytes, read as signed.
pub fn signed(v: u64, size: u8) -> i64 {
    match size {
        1 => v as u8 as i8 as i64,
        2 => v as u16 as i16 as i64,
        4 => v as u32 as i32 as i64,
        _ => v as i64,
    }
}

const RMW_NAMES: [&str; 17] = [
    "xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin", "fadd", "fsub", "fmax", "fmin",
    "uinc_wrap", "udec_wrap",
];

pub fn trace_steps(v: &Violation, info: &ProgramInfo) -> Vec<TraceStep> {
    v.events.iter().filter(|e| !bookkeeping(e)).enumerate().map(|(i, e)| step(i + 1, e, v, info)).collect()
}

/// Events that are there for the reduction, not for the reader: the
/// brackets and footprints of an export runtime's steps (the program's own
/// operations inside them are shown), and buffered stores dropped with
/// their memory.
pub fn bookkeeping(e: &Event) -> bool {
    use crate::channel::{EV_ATOMIC_BEGIN, EV_ATOMIC_END, EV_DROP, EV_TOUCH};
    e.kind == EV_TOUCH || e.kind == EV_DROP || ((e.kind == EV_ATOMIC_BEGIN || e.kind == EV_ATOMIC_END) && e.aux == 1)
}

fn step(n: usize, e: &Event, v: &Violation, info: &ProgramInfo) -> TraceStep {
    let var = if e.addr != 0 { info.name_of(e.addr, e.size, e.loc) } else { String::new() };
    let val = signed(e.value, e.size);
    let (op, value, buffer) = match e.kind {
        1 => {
            let src = match e.aux {
                1 => "read own buffer",
                2 => "read memory",
                3 => "read own buffer + memory",
                _ => "",
            };
            (format!("load {var} -> {val}"), Some(val), src.to_string())
        }
        2 => (
            format!("store {var} = {val}"),
            Some(val),
            match e.aux {
                1 => format!("buffered in T{}", e.thread),
                a if a & 0xff == 4 => format!("buffered in T{} (after a flush made room)", e.thread),
                2 => format!("buffered in T{} (buffer full: oldest entry flushed first)", e.thread),
                _ => "to memory".into(),
            },
        ),
        3 => (format!("flush {var} = {val}"), Some(val), format!("T{}'s buffer -> memory", e.aux2 & 0xff)),
        4 => ("mfence".into(), None, format!("drained {} entr{}", e.aux, if e.aux == 1 { "y" } else { "ies" })),
        5 => (
            format!("atomic {} {var}: {val} -> {}", RMW_NAMES.get(e.aux as usize).unwrap_or(&"rmw"), signed(e.aux2 as u64, e.size.min(4))),
            Some(val),
            "locked: buffer drained".into(),
        ),
        6 => (
            format!("cmpxchg {var}: found {val}, {}", if e.aux == 1 { "swapped" } else { "failed" }),
            Some(val),
            "locked: buffer drained".into(),
        ),
        7 => (format!("pthread_create -> T{}", e.aux), None, "fence".into()),
        8 => (format!("pthread_join T{}", e.aux), None, "fence".into()),
        9 => ("thread exits".into(), None, "buffer drained".into()),
        10 | 11 => (sync_operation(e, info), None, "fence".into()),
        12 => (format!("nondet -> {}", e.value as i64), Some(e.value as i64), String::new()),
        // an execution shown for another reason (a race, a reordering)
        // may end in an error that is not the property checked
        13 if v.status == Status::Done => (format!("ends: {}", Status::from_u32(e.value as u32).violation_kind()), None, String::new()),
        13 => (format!("VIOLATION: {}", short_violation(v)), None, String::new()),
        14 => ("atomic block begins".into(), None, "fence".into()),
        15 => ("atomic block ends".into(), None, "fence".into()),
        16 if e.aux == 1 => ("cond wait (returns without a signal)".into(), None, "fence".into()),
        16 => ("cond wait".into(), None, "fence".into()),
        17 => ("cond signal".into(), None, "fence".into()),
        18 => (format!("free {} bytes", e.value), None, "own entries dropped".into()),
        19 => (format!("await wakes: {var} is now {val}"), Some(val), "spin loop re-reads".into()),
        21 => ("assume failed: the thread stops".into(), None, String::new()),
        22 => (format!("fence {}", order_name(e.aux)), None, "no effect on the buffer".into()),
        k => (format!("event {k}"), None, String::new()),
    };
    let function = info.loc(e.loc).map(|l| l.func.clone()).unwrap_or_default();
    TraceStep { step: n, thread: e.thread as u32, location: info.position(e.loc), function, operation: op, variable: var, value, buffer, loc: e.loc }
}

/// A LOCK or UNLOCK event as the program's call: `mutex lock m`,
/// `sem_post s`, `barrier arrive b`, ... (aux: object kind, failed try).
fn sync_operation(e: &Event, info: &ProgramInfo) -> String {
    let obj = info.name_of(e.addr, 0, 0);
    let failed = e.aux & crate::channel::LOCK_FAILED != 0;
    let what = match (e.kind, e.aux & 0xff) {
        (10, 0) if failed => "mutex trylock fails on",
        (10, 0) => "mutex lock",
        (11, 0) => "mutex unlock",
        (10, 1) => "pthread_once enters",
        (11, 1) => "pthread_once done",
        (10, 2) => "barrier leave",
        (11, 2) => "barrier arrive",
        (10, 3) if failed => "rwlock trylock fails on",
        (10, 3) => "rwlock lock",
        (11, 3) => "rwlock unlock",
        (10, 4) if failed => "semaphore value read of",
        (10, 4) => "sem_wait",
        (11, 4) => "sem_post",
        (10, _) => "acquire",
        _ => "release",
    };
    format!("{what} {obj}")
}

pub fn violation_text(v: &Violation) -> String {
    match v.status {
        Status::Crash => format!("crash: killed by signal {} ({})", v.signal, signal_name(v.signal)),
        _ if !v.message.is_empty() => v.message.clone(),
        s => s.violation_kind().to_string(),
    }
}

/// The violation without the file:line prefix the trace row already shows.
pub fn short_violation(v: &Violation) -> String {
    let text = violation_text(v);
    match v.status {
        Status::Assert => text.split_once(": assertion").map(|(_, rest)| format!("assertion{rest}")).unwrap_or(text),
        _ => text,
    }
}

fn signal_name(sig: u32) -> &'static str {
    match sig as i32 {
        libc::SIGSEGV => "SIGSEGV, invalid memory access",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE, arithmetic error",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        _ => "signal",
    }
}

/// The trace as a table a person reads top to bottom.
pub fn format_trace(steps: &[TraceStep]) -> String {
    let mut out = String::new();
    let w_loc = steps.iter().map(|s| s.location.len()).max().unwrap_or(1).max(8);
    let w_op = steps.iter().filter(|s| !s.operation.starts_with("VIOLATION")).map(|s| s.operation.len()).max().unwrap_or(1).clamp(9, 48);
    out.push_str(&format!("  {:>4}  {:<6}  {:<w_loc$}  {:<w_op$}  {}\n", "step", "thread", "location", "operation", "store buffer"));
    for s in steps {
        out.push_str(&format!(
            "  {:>4}  {:<6}  {:<w_loc$}  {:<w_op$}  {}\n",
            s.step,
            format!("T{}", s.thread),
            s.location,
            s.operation,
            s.buffer
        ));
    }
    out
}

/// The `--stats` block: the search's counters and, when `none` (the same
/// search without reduction) is given, the reduction it achieved.
pub fn stats_text(s: &crate::explore::Stats, por: crate::explore::Por, none: Option<&crate::explore::Stats>) -> String {
    use std::fmt::Write;
    let mut t = String::new();
    let _ = writeln!(t, "\nsearch statistics (--por {}):", por.name());
    let _ = writeln!(t, "  executions         {} ({} complete, {} sleep-blocked, {} discarded by assume or await)", s.executions, s.complete(), s.sleep_blocked, s.assume_blocked);
    let _ = writeln!(t, "  time               {:.3} s, {:.1} us/execution", s.seconds, s.seconds * 1e6 / s.executions.max(1) as f64);
    if por == crate::explore::Por::Optimal {
        let _ = writeln!(t, "  wakeup sequences   {} inserted, {} already covered, {} not enabled where they start", s.wakeups_inserted, s.wakeups_redundant, s.wakeups_disabled);
    }
    if s.posted_ahead > 0 {
        let _ = writeln!(t, "  posted ahead       {} executions run during the last one's analysis, {} of them the next", s.posted_ahead, s.used_ahead);
    }
    if s.por_fallbacks + s.guide_broken + s.events_truncated > 0 {
        let _ = writeln!(t, "  fallbacks          {} races explored in full, {} guides not followed, {} event logs overflowed", s.por_fallbacks, s.guide_broken, s.events_truncated);
    }
    if let Some(n) = none {
        let cut = n.stopped_by.map(|why| format!(" (cut by {why}: at least)")).unwrap_or_default();
        let _ = writeln!(
            t,
            "  reduction          --por none: {} executions in {:.3} s{cut}; {}{:.1}x fewer executions, {}{:.1}x less time",
            n.executions,
            n.seconds,
            if n.stopped_by.is_some() { ">" } else { "" },
            n.executions as f64 / s.executions.max(1) as f64,
            if n.stopped_by.is_some() { ">" } else { "" },
            n.seconds / s.seconds.max(1e-9)
        );
    }
    t
}

/// An execution to print as a trace (the trace printer takes a violation).
pub fn as_violation(events: &[Event]) -> Violation {
    Violation {
        status: Status::Done,
        message: String::new(),
        signal: 0,
        thread: 0,
        loc: 0,
        events: events.to_vec(),
        events_truncated: false,
        outcome: String::new(),
    }
}

/// The reordering a robustness witness names, in one line.
pub fn reordering_text(r: &crate::robust::Reordering, events: &[Event], info: &ProgramInfo) -> String {
    let (s, a) = (&events[r.store], &events[r.access]);
    let what = |e: &Event| match e.kind {
        1 | 19 => format!("load of {}", info.name_of(e.addr, e.size, e.loc)),
        2 => format!("store to {}", info.name_of(e.addr, e.size, e.loc)),
        5 | 6 => format!("atomic update of {}", info.name_of(e.addr, e.size, e.loc)),
        _ => "next operation".to_string(),
    };
    let verb = if a.is_buffered_store() { "reached memory" } else { "ran" };
    format!(
        "T{}'s {} ({}) was still in its store buffer when its {} ({}) {verb}: no SC execution has these reads (steps {} and {} below)",
        s.thread,
        what(s),
        info.position(s.loc),
        what(a),
        info.position(a.loc),
        r.store + 1,
        r.access + 1
    )
}

/// An LLVM AtomicOrdering as C names it (runtime/ABI.md numbers).
fn order_name(order: u32) -> &'static str {
    match order {
        2 => "relaxed",
        4 => "acquire",
        5 => "release",
        6 => "acq_rel",
        _ => "seq_cst",
    }
}

/// The step number (as `trace_steps` numbers them) of event `i`.
pub fn step_number(events: &[Event], i: usize) -> usize {
    events[..=i.min(events.len().saturating_sub(1))].iter().filter(|e| !bookkeeping(e)).count()
}

/// A data race in one line: where, which accesses, and (given the
/// execution's events) at which steps of its trace.
pub fn race_text(r: &crate::races::Race, events: Option<&[Event]>, info: &ProgramInfo) -> String {
    let side = |a: &crate::races::Access| {
        let how = match (a.atomic, info.order(a.loc)) {
            (false, _) => "plain".to_string(),
            (true, 0) => "in an atomic block".to_string(),
            (true, order) => format!("atomic {}", order_name(order)),
        };
        let what = if a.write { "write" } else { "read" };
        let step = events.map(|ev| format!(", step {}", step_number(ev, a.event))).unwrap_or_default();
        format!("T{} {what} ({how}) at {}{step}", a.thread, info.position(a.loc))
    };
    let var = info.name_of(r.second.addr, r.second.size, r.second.loc);
    format!("data race on {var}: {} and {}, not ordered by happens-before", side(&r.first), side(&r.second))
}
