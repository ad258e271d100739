//! The explorer: depth-first search over the choice tree of the program.
//!
//! Each execution replays a prefix of choices and then takes alternative 0 at
//! every new choice point; the runtime reports the trail (alternative taken
//! and number of alternatives at each point). The next prefix flips the
//! deepest choice that still has an untried alternative. This visits every
//! leaf of the tree exactly once: every schedule, every buffer flush order,
//! every enumerated nondet value.

use crate::channel::{self, Event, Input, Server, Status, EV_DROP, EV_FLUSH, EV_STORE};
use crate::dpor::{self, Inputs, Node, Step, WNode};
use std::rc::Rc;
use anyhow::Result;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::{Duration, Instant};

mod probes;
pub use probes::Probing;
use probes::Probes;
mod speculation;
use speculation::NextRun;

#[derive(Clone, Debug)]
pub struct Config {
    pub model: u32,
    pub bound: u32,
    pub max_steps: u32,
    /// iterations per loop entry before an execution is cut; 0 = unbounded
    pub unroll: u32,
    /// what a failing iteration of an await loop does (channel::AWAIT_*:
    /// stop its thread, the default; never block, the reference; block
    /// until what it read changes)
    pub await_mode: u32,
    /// times per thread and execution that pthread_cond_wait may return
    /// without a signal (POSIX allows spurious wakeups); 0 = never
    pub spurious_wakeups: u32,
    pub max_executions: Option<u64>,
    pub timeout: Option<Duration>,
    pub hang_seconds: u32,
    /// keep exploring after a violation (to enumerate outcomes)
    pub all: bool,
    /// partial order reduction
    pub por: Por,
    /// which execution endings are violations
    pub property: Property,
    /// check every execution for SC-equivalence (robust.rs); stop at the
    /// first that is not (violations are then not stopped at)
    pub robustness: bool,
    /// look for data races in every execution (races.rs)
    pub races: RaceCheck,
    /// run probe executions (random priorities, or turns) beside the
    /// search, to find violations early (see `Probes`)
    pub probes: Probing,
    /// under TSO or PSO with a bound, search with unbounded buffers first
    /// and search with the bound only if that answer does not carry over
    /// (see `explore`)
    pub unbounded_first: bool,
}

/// What the search does about data races.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RaceCheck {
    /// not looked for
    Off,
    /// collected and reported beside the verdict, which they do not change
    #[default]
    Report,
    /// the property: the first race is the violation and ends the search
    Property,
}

/// What counts as a violation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Property {
    /// assertion, reach_error, abort, deadlock and crash (the default of `verify`)
    #[default]
    AnyFailure,
    /// SV-COMP's unreach-call: only reach_error and a failed assert are
    /// violations. abort() and a deadlock end an execution without one (they
    /// are how tasks cut paths, e.g. assume_abort_if_not), and so does a
    /// livelock (threads that spin forever never reach an error); a crash
    /// makes the verdict UNKNOWN (the program's behaviour is undefined there).
    UnreachCall,
    /// SV-COMP's no-data-race: only a data race is a violation (with
    /// `RaceCheck::Property`); every other ending is quiet as under
    /// UnreachCall, and so are reach_error and a failed assert.
    NoDataRace,
}

impl Property {
    pub fn is_violation(self, status: Status) -> bool {
        match self {
            Property::AnyFailure => status.is_violation(),
            Property::UnreachCall => matches!(status, Status::Assert | Status::ReachError),
            Property::NoDataRace => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Por {
    /// every interleaving (exhaustive; the reference the reduction is tested against)
    None,
    /// source-set DPOR with sleep sets: one interleaving per class of
    /// equivalent ones, plus a few that a sleep set cuts short
    #[value(alias = "dpor")]
    Source,
    /// optimal DPOR with wakeup trees: exactly one complete execution per
    /// class of equivalent ones
    Optimal,
}

impl Por {
    pub fn name(self) -> &'static str {
        match self {
            Por::None => "none",
            Por::Source => "source",
            Por::Optimal => "optimal",
        }
    }
}

/// The first violating execution, with what is needed to print it.
#[derive(Clone, Debug)]
pub struct Violation {
    pub status: Status,
    pub message: String,
    pub signal: u32,
    pub thread: u32,
    pub loc: u32,
    pub events: Vec<Event>,
    pub events_truncated: bool,
    pub outcome: String,
}

#[derive(Default, Debug)]
pub struct Stats {
    pub executions: u64,
    /// discarded: a failed assume, or an end with a thread stopped in an
    /// await loop whose view had changed (runtime/src/await.c)
    pub assume_blocked: u64,
    pub step_limited: u64,
    /// executions cut by --unroll
    pub unroll_cut: u64,
    /// executions that ended with every live thread waiting in an await
    /// loop, when the property does not count that as a violation
    pub livelocks: u64,
    pub hangs: u64,
    pub nondet_sampled: u64,
    /// why the search over wide nondet values is not exhaustive (concolic.rs)
    pub nondet_unknown: Vec<String>,
    /// values pinned where the tracking could not follow them: no reason
    /// for UNKNOWN, but a likely one for a search that did not end
    pub nondet_pinned: Vec<String>,
    /// input vectors the search ran with, solver queries made (wide nondet values)
    pub nondet_inputs: u64,
    pub nondet_queries: u64,
    /// probe executions run beside the search (not in `executions`), and
    /// whether the violation came from one
    pub probes: u64,
    pub found_by_probe: bool,
    pub internal: Vec<String>,
    pub seconds: f64,
    pub exhausted: bool,
    /// executions whose event log overflowed (reduction fell back to exhaustive there)
    pub events_truncated: u64,
    pub stopped_by: Option<&'static str>,
    /// executions cut short because every enabled process was asleep (they
    /// would only repeat an explored class)
    pub sleep_blocked: u64,
    /// optimal DPOR: wakeup sequences inserted / found covered already /
    /// races that fell back to exploring every option at a node
    pub wakeups_inserted: u64,
    pub wakeups_redundant: u64,
    pub por_fallbacks: u64,
    /// executions where the runtime could not follow the explorer's guide
    pub guide_broken: u64,
    /// optimal DPOR: wakeup branches dropped because their first process
    /// could not run where they start
    pub wakeups_disabled: u64,
    /// executions posted before the last one's analysis (speculation.rs),
    /// and how many of them were the next one
    pub posted_ahead: u64,
    pub used_ahead: u64,
    /// executions ended by abort() or a deadlock that the property does not count
    pub quiet_ends: u64,
    /// executions that crashed when the property does not count a crash as a violation
    pub crashes: u64,
}

impl Stats {
    /// Executions that ran to their end: not cut short by a sleep set, not
    /// discarded by an assume.
    pub fn complete(&self) -> u64 {
        self.executions - self.sleep_blocked - self.assume_blocked
    }
}

pub struct Exploration {
    pub stats: Stats,
    /// with `robustness`: the first execution that is not SC-equivalent
    pub not_robust: Option<(crate::robust::Reordering, Vec<Event>)>,
    pub violation: Option<Violation>,
    /// outcome text -> (executions, of which violating)
    pub outcomes: BTreeMap<String, (u64, u64)>,
    /// the reduction that explored
    pub por: Por,
    /// data races seen (one per pair of program locations), in the order found
    pub races: Vec<FoundRace>,
    /// a data race is a violation (`RaceCheck::Property`)
    pub races_violate: bool,
    /// the search with unbounded buffers that came first, when there was one
    pub unbounded: Option<UnboundedFirst>,
}

/// What the search with unbounded buffers found, before (or instead of) the
/// one with the bound (`explore`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct UnboundedFirst {
    /// its answer is the answer for the bound: SAFE, or a violation that
    /// never buffers more stores per thread than the bound
    pub carried_over: bool,
    /// its verdict (SAFE, VIOLATION or UNKNOWN) and the kind or reason
    pub verdict: &'static str,
    pub reason: String,
    pub executions: u64,
    pub seconds: f64,
    /// the violation it found: the most stores a thread of it held
    /// buffered at once (usize::MAX when its log was cut)
    pub violation_buffered: Option<usize>,
    /// it was cut short by `--max-executions` with none left, so no search
    /// with the bound followed (its UNKNOWN is the answer)
    pub spent_the_limit: bool,
}

impl UnboundedFirst {
    /// One line for a person: what the search with unbounded buffers found
    /// and what that means at `bound`.
    pub fn note(&self, bound: u32) -> String {
        // a SAFE reason comes in its own parentheses ("(over no complete
        // execution: ...)", report.rs); others do not, and may end in one
        let reason = self.reason.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(&self.reason);
        let why = if reason.is_empty() { String::new() } else { format!(" ({reason})") };
        let what = format!("{}{why} with unbounded buffers, after {} executions in {:.3} s", self.verdict, self.executions, self.seconds);
        if self.spent_the_limit {
            return format!("{what}; no executions left for a search with buffer size {bound} (--max-executions)");
        }
        match (self.carried_over, self.violation_buffered) {
            (true, Some(n)) => format!("{what}; the counterexample buffers at most {n} store{} per thread, within buffer size {bound}", if n == 1 { "" } else { "s" }),
            (true, None) => format!("{what}; every execution at buffer size {bound} is one of those (--direct-bound: search with the bound)"),
            (false, Some(usize::MAX)) => format!("{what}, its trace cut short; searched again with buffer size {bound}"),
            (false, Some(n)) => format!("{what}, needing {n} buffered stores in one thread; searched again with buffer size {bound}"),
            (false, None) => format!("{what}; searched again with buffer size {bound}"),
        }
    }
}

/// A data race and the execution that showed it first.
#[derive(Clone, Debug)]
pub struct FoundRace {
    pub race: crate::races::Race,
    /// the execution's events (kept for the first race only: that is the
    /// one a report shows in full)
    pub events: Option<Vec<Event>>,
    /// the execution (1-based) in which it was first seen
    pub execution: u64,
}

impl FoundRace {
    /// Add to `found` the races of execution number `execution` (its
    /// events: `events`) between pairs of sites not found before; the first
    /// race found keeps the execution's events.
    pub fn add_new(found: &mut Vec<FoundRace>, races: &[crate::races::Race], events: &[Event], execution: u64) {
        for race in races {
            if !found.iter().any(|r| r.race.sites() == race.sites()) {
                let events = found.is_empty().then(|| events.to_vec());
                found.push(FoundRace { race: race.clone(), events, execution });
            }
        }
    }
}

/// Explore the program.
///
/// Under TSO or PSO with a bound K (and `unbounded_first`), the program is
/// first explored with unbounded buffers. A bound only makes a store wait
/// until a flush has made room, and any flush may run earlier without one:
/// every execution that never holds more than K stores in a thread's
/// buffers is also an execution with unbounded buffers. So SAFE there is
/// SAFE at K, and a violating execution that never buffered more than K
/// stores per thread is one at K; only otherwise does the search run again
/// with the bound (with the time left). Bounded PSO is where this matters:
/// which entry leaves a full buffer is a choice that the reductions explore
/// wherever two flushes could make the room, so a thread that stores to
/// many addresses in a row multiplies the executions (SV-COMP queue_ok:
/// 2 executions unbounded, none of 44,000 in 60 s complete at K = 32).
/// `--outcomes` (whose set depends on the bound), `--robustness`, a data
/// race as the property and `--compare` search with the bound directly.
///
/// `progress` is called a few times a second with the search's statistics
/// so far and, when the search is one of the two an unbounded-first
/// search makes, which one it is (a person watching sees the count start
/// again at the second).
pub fn explore(program: &Path, args: &[String], info: &Path, cfg: &Config, mut progress: impl FnMut(&Stats, Option<&str>)) -> Result<Exploration> {
    let direct = !cfg.unbounded_first || cfg.model == 0 || cfg.bound == 0 || cfg.all || cfg.robustness || cfg.races == RaceCheck::Property;
    if direct {
        return search(program, args, info, cfg, |s| progress(s, None));
    }
    let started = Instant::now();
    let unbounded = Config { bound: 0, timeout: cfg.timeout.map(|t| t / 2), ..cfg.clone() };
    let mut first = search(program, args, info, &unbounded, |s| progress(s, Some("unbounded buffers first")))?;
    let buffered = first.violation.as_ref().map(|v| if v.events_truncated { usize::MAX } else { most_buffered(&v.events) });
    let verdict = crate::report::verdict(&first);
    let carried_over = verdict.verdict == "SAFE" || buffered.is_some_and(|n| n <= cfg.bound as usize);
    // UNKNOWN at the execution limit: a bounded search would be cut at
    // once (it ran one execution and reported that as all it did)
    let spent_the_limit = verdict.verdict == "UNKNOWN" && cfg.max_executions.is_some_and(|m| first.stats.executions >= m);
    let summary = UnboundedFirst {
        carried_over,
        verdict: verdict.verdict,
        reason: verdict.reason,
        executions: first.stats.executions,
        seconds: first.stats.seconds,
        violation_buffered: buffered,
        spent_the_limit,
    };
    if carried_over || spent_the_limit {
        first.unbounded = Some(summary);
        return Ok(first);
    }
    // the limits are the whole run's: the bounded search gets what is left
    let rest = Config {
        timeout: cfg.timeout.map(|t| t.saturating_sub(started.elapsed())),
        max_executions: cfg.max_executions.map(|m| m.saturating_sub(first.stats.executions).max(1)),
        ..cfg.clone()
    };
    let phase = format!("buffer size {}", cfg.bound);
    let mut bounded = search(program, args, info, &rest, |s| progress(s, Some(&phase)))?;
    bounded.unbounded = Some(summary);
    Ok(bounded)
}

/// The most stores one thread held buffered at once in an execution.
fn most_buffered(events: &[Event]) -> usize {
    let mut held: BTreeMap<u32, usize> = BTreeMap::new();
    let mut most = 0;
    for e in events {
        let (thread, delta) = match e.kind {
            EV_STORE if e.is_buffered_store() => (e.thread as u32, 1isize),
            EV_FLUSH => (e.thread as u32, -1),
            EV_DROP => (e.aux2, -1),
            _ => continue,
        };
        let n = held.entry(thread).or_default();
        *n = n.saturating_add_signed(delta);
        most = most.max(*n);
    }
    most
}

/// One search with `cfg` as it is.
fn search(program: &Path, args: &[String], info: &Path, cfg: &Config, mut progress: impl FnMut(&Stats)) -> Result<Exploration> {
    let mut server = Server::start(program, args, info)?;
    configure(server.shm(), cfg);
    let mut search = Search::new(cfg, server.cpus_beside(), server.beside_the_worker());
    // wide nondet values: each branch on one is a choice (concolic.rs)
    let mut values = crate::concolic::Concolic::new(cfg.timeout.map(|t| Instant::now() + t));
    crate::concolic::set_inputs(server.shm(), &search.inputs);
    let start = Instant::now();
    let mut last_progress = Instant::now();
    let mut probes = Probes::default();
    // the next execution was posted before the last one's analysis, and
    // it is the one wanted (speculation.rs)
    let mut posted_ahead = false;
    loop {
        let status = if std::mem::take(&mut posted_ahead) { server.await_run()? } else { server.run()? };
        let overlapping = server.overlapping();
        search.stats.executions += 1;
        let s = server.shm();
        let (status, witness) = settle_status(s, status);
        search.count(s, status);
        search.record_outcome(s, status);
        // each check says whether the search stops here
        if search.record_violation(s, status, witness) || search.check_robustness(s, status) || search.check_races(s, info) {
            break;
        }
        search.note_broken_guide(s);
        let model_events = search.extend_path(s);
        values.branches(s, &mut search.path, s.prefix_len as usize, &search.inputs);
        if values.cut {
            search.stats.stopped_by = Some("timeout");
            break;
        }
        let flags = s.flags;
        let probe_due = probes.due(cfg, &search.stats);
        // the worker may run the next execution while this one is
        // analysed: then the channel's results are its (this one's events
        // are copied out first)
        let last = model_events.as_deref().unwrap_or(&s.events[..s.n_events as usize]);
        let steps = search.steps_of(flags, last);
        let ahead = if overlapping && !probe_due && !search.debug {
            speculation::predict(&search, last, steps.as_ref())
        } else {
            None
        };
        let mut model_events = model_events;
        if let Some(next) = &ahead {
            let s = server.shm();
            model_events.get_or_insert_with(|| s.events[..s.n_events as usize].to_vec());
            next.write(s);
            server.post_run()?;
            search.stats.posted_ahead += 1;
        }
        let s = server.shm();
        let events = model_events.as_deref().unwrap_or(&s.events[..s.n_events as usize]);
        search.analyse(flags, events, status, steps);
        if search.analysis_cut {
            search.stats.stopped_by = Some("timeout");
            break;
        }
        if search.debug {
            search.print_execution(s, events, status);
        }
        match search.next_prefix(events) {
            Some(guide) => {
                let next = search.next_run(guide);
                if let Some(ahead) = ahead {
                    if ahead == next {
                        posted_ahead = true;
                        search.stats.used_ahead += 1;
                    } else {
                        server.await_run()?;
                    }
                }
                if probe_due && probes.run_one(&mut server, &mut search)? {
                    search.stats.found_by_probe = true;
                    break;
                }
                if !posted_ahead {
                    next.write(server.shm());
                }
                search.sleepers = next.sleepers;
                if search.flipped_branch {
                    values.input_vectors += 1;
                }
            }
            None => {
                search.stats.exhausted = true;
                break;
            }
        }
        if cfg.max_executions.is_some_and(|m| search.stats.executions >= m) {
            search.stats.stopped_by = Some("max-executions");
            break;
        }
        if cfg.timeout.is_some_and(|t| start.elapsed() >= t) {
            search.stats.stopped_by = Some("timeout");
            break;
        }
        if last_progress.elapsed() >= Duration::from_millis(250) {
            search.stats.seconds = start.elapsed().as_secs_f64();
            progress(&search.stats);
            last_progress = Instant::now();
        }
    }
    search.stats.seconds = start.elapsed().as_secs_f64();
    if values.used {
        search.stats.nondet_unknown = std::mem::take(&mut values.reasons);
        search.stats.nondet_pinned = std::mem::take(&mut values.pinned);
        search.stats.nondet_inputs = values.input_vectors;
        search.stats.nondet_queries = values.queries;
    }
    let Search { stats, violation, not_robust, outcomes, races, race_thread, .. } = search;
    let races = race_thread.map_or(races, |t| t.finish());
    Ok(Exploration { stats, violation, not_robust, outcomes, por: cfg.por, races, races_violate: cfg.races == RaceCheck::Property, unbounded: None })
}

/// Hand the configuration to the runtime, before the first execution.
fn configure(s: &mut channel::Shm, cfg: &Config) {
    s.model = cfg.model;
    s.bound = cfg.bound;
    s.max_steps = cfg.max_steps;
    s.unroll = cfg.unroll;
    s.await_mode = cfg.await_mode;
    s.spurious = cfg.spurious_wakeups;
    s.freed_ok = !cfg.property.is_violation(Status::Freed) as u32;
    s.log_events = 1;
    s.hang_seconds = cfg.hang_seconds;
    s.prefix_len = 0;
    s.por = (cfg.por != Por::None) as u32;
    s.n_sleepers = 0;
    s.guide_len = 0;
    s.probe = 0;
}

/// How an execution ended, once a failed assume is taken into account: a
/// crash or hang after one is an infeasible path; a violation after one is
/// real when it does not depend on the failed steps (then the events that
/// show it without them come along), else infeasible too.
fn settle_status(s: &channel::Shm, status: Status) -> (Status, Option<Vec<Event>>) {
    if s.flags & channel::FL_ASSUME_FAILED == 0 {
        return (status, None);
    }
    match status {
        Status::Crash | Status::Hang => (Status::Assume, None),
        Status::Assert | Status::ReachError | Status::Abort | Status::Freed => {
            let n = (s.n_events as usize).min(s.events.len());
            let witness = if s.flags & channel::FL_EVENTS_TRUNC == 0 { dpor::beside_failed_assumes(&s.events[..n]) } else { None };
            match witness {
                Some(w) => (status, Some(w)),
                None => (Status::Assume, None),
            }
        }
        _ => (status, None),
    }
}

/// One search: the choice tree explored so far (the path to the current
/// execution, with what is left to explore at each node) and what the
/// executions have found.
struct Search<'c> {
    cfg: &'c Config,
    reduce: bool,
    optimal: bool,
    debug: bool,
    /// the sleep set handed to the runtime for the current execution
    sleepers: Vec<Rc<Step>>,
    /// optimal: the wakeup branch the current execution follows, and the node it starts at
    guided: Option<(usize, WNode)>,
    path: Vec<Node>,
    /// the wide nondet values the current execution runs with (concolic.rs)
    inputs: Inputs,
    /// the next execution flips a branch on nondet values
    flipped_branch: bool,
    /// happens-before and races of the last execution, kept for the next
    analyzer: dpor::Analyzer,
    /// the reductions' per-execution tables, kept for the next execution
    scratch: dpor::Scratch,
    /// the steps of the last execution, made for its analysis (None when
    /// it had none)
    steps: Option<dpor::Steps>,
    /// --timeout passed inside the analysis of the last execution: it
    /// added nothing to explore, so the search stops here
    analysis_cut: bool,
    stats: Stats,
    violation: Option<Violation>,
    not_robust: Option<(crate::robust::Reordering, Vec<Event>)>,
    outcomes: BTreeMap<String, (u64, u64)>,
    races: Vec<FoundRace>,
    /// the data-race check's state after the last execution, kept for
    /// the next (`--races violation`: checked in line)
    race_check: crate::races::Incremental,
    /// `--races show`: the check on its own thread, started by the first execution
    race_thread: Option<crate::race_thread::RaceThread>,
    /// where that thread runs (`Server::cpus_beside`)
    helper_cpus: Option<libc::cpu_set_t>,
    /// the worker shares those CPUs, waiting by yielding (`Server::beside_the_worker`)
    helpers_yield: Option<channel::WorkerBusy>,
    /// each site's ordering, for the race check: read from the tables the
    /// server writes as it starts (so after its first answer)
    program_info: Option<crate::info::ProgramInfo>,
}

impl<'c> Search<'c> {
    fn new(cfg: &'c Config, helper_cpus: Option<libc::cpu_set_t>, helpers_yield: Option<channel::WorkerBusy>) -> Search<'c> {
        Search {
            cfg,
            reduce: cfg.por != Por::None,
            optimal: cfg.por == Por::Optimal,
            debug: dpor::debug_por(),
            sleepers: vec![],
            guided: None,
            path: vec![],
            inputs: Rc::default(),
            flipped_branch: false,
            analyzer: dpor::Analyzer::new(cfg.timeout.map(|t| Instant::now() + t)),
            scratch: dpor::Scratch::default(),
            steps: None,
            analysis_cut: false,
            stats: Stats::default(),
            violation: None,
            not_robust: None,
            outcomes: BTreeMap::new(),
            races: vec![],
            race_check: Default::default(),
            race_thread: None,
            helper_cpus,
            helpers_yield,
            program_info: None,
        }
    }

    /// Count the execution by how it ended.
    fn count(&mut self, s: &channel::Shm, status: Status) {
        let stats = &mut self.stats;
        if s.flags & channel::FL_NONDET_SAMPLED != 0 {
            stats.nondet_sampled += 1;
        }
        match status {
            Status::Assume => stats.assume_blocked += 1,
            Status::SleepBlocked => stats.sleep_blocked += 1,
            Status::StepLimit => stats.step_limited += 1,
            Status::Unroll => stats.unroll_cut += 1,
            Status::Hang => stats.hangs += 1,
            Status::Internal | Status::Running => {
                let msg = channel::c_text(&s.message, channel::MESSAGE_BYTES);
                if !stats.internal.contains(&msg) {
                    stats.internal.push(msg);
                }
            }
            _ => {}
        }
        if status.is_violation() && !self.cfg.property.is_violation(status) {
            if status == Status::Crash {
                stats.crashes += 1;
            } else if status == Status::Livelock {
                stats.livelocks += 1;
            } else {
                stats.quiet_ends += 1;
            }
        }
    }

    /// Add the execution's outcome (the values it printed for --outcomes).
    /// An execution in which an assume failed reports none, even with a
    /// violation kept: the witness may end before it.
    fn record_outcome(&mut self, s: &channel::Shm, status: Status) {
        // A sleep-blocked execution repeats one explored before: what it
        // reported before it was cut (main's report, then pthread_exit)
        // is only part of that execution's outcome
        if matches!(status, Status::Assume | Status::SleepBlocked) || s.flags & channel::FL_ASSUME_FAILED != 0 || s.outcome_len == 0 {
            return;
        }
        let e = self.outcomes.entry(channel::c_text(&s.outcome, s.outcome_len as usize)).or_default();
        e.0 += 1;
        if self.cfg.property.is_violation(status) {
            e.1 += 1;
        }
    }

    /// Keep the first violation; true when the search stops at it.
    fn record_violation(&mut self, s: &channel::Shm, status: Status, witness: Option<Vec<Event>>) -> bool {
        if !self.cfg.property.is_violation(status) || self.violation.is_some() {
            return false;
        }
        let n = s.n_events as usize;
        self.violation = Some(Violation {
            status,
            message: channel::c_text(&s.message, channel::MESSAGE_BYTES),
            signal: s.signal,
            thread: s.status_thread,
            loc: s.status_loc,
            events: witness.unwrap_or_else(|| s.events[..n].to_vec()),
            events_truncated: s.flags & channel::FL_EVENTS_TRUNC != 0,
            outcome: channel::c_text(&s.outcome, s.outcome_len as usize),
        });
        !self.cfg.all && !self.cfg.robustness
    }

    /// --robustness: true when the execution is not SC-equivalent (kept).
    fn check_robustness(&mut self, s: &channel::Shm, status: Status) -> bool {
        if !self.cfg.robustness || status == Status::Assume || s.flags & (channel::FL_ASSUME_FAILED | channel::FL_EVENTS_TRUNC) != 0 {
            return false;
        }
        let events = &s.events[..s.n_events as usize];
        match crate::robust::check(events) {
            Some(r) => {
                self.not_robust = Some((r, events.to_vec()));
                true
            }
            None => false,
        }
    }

    /// The data-race check of the execution; true when a race is the
    /// property and one was found.
    fn check_races(&mut self, s: &channel::Shm, info: &Path) -> bool {
        if self.cfg.races == RaceCheck::Off {
            return false;
        }
        let events = &s.events[..(s.n_events as usize).min(s.events.len())];
        if self.cfg.races == RaceCheck::Report {
            let cpus = self.helper_cpus;
            let thread = self.race_thread.get_or_insert_with(|| crate::race_thread::RaceThread::start(crate::info::ProgramInfo::read(info), cpus, self.helpers_yield.take()));
            thread.check(self.stats.executions, events);
            return false;
        }
        let program_info = self.program_info.get_or_insert_with(|| crate::info::ProgramInfo::read(info));
        FoundRace::add_new(&mut self.races, self.race_check.find(events, program_info), events, self.stats.executions);
        self.cfg.races == RaceCheck::Property && !self.races.is_empty()
    }

    fn note_broken_guide(&mut self, s: &channel::Shm) {
        if s.flags & channel::FL_GUIDE_BROKEN != 0 {
            self.stats.guide_broken += 1;
            if self.debug {
                eprintln!("guide broken in execution {}: guide {:x?}", self.stats.executions, &s.guide[..s.guide_len as usize]);
            }
        }
    }

    /// Extend the path with the choice points this execution met first.
    /// The reduction does not see the fences that change nothing in the
    /// model (logged for the race check only): returns the log without
    /// them when there were any, and counts each node's first event in it.
    fn extend_path(&mut self, s: &channel::Shm) -> Option<Vec<Event>> {
        let prefix = s.prefix_len as usize;
        let trail_len = s.trail_len as usize;
        self.path.truncate(prefix);
        if trail_len < prefix {
            // it stopped while replaying its prefix (a hang, a crash, a
            // runtime limit): nothing new to analyse, and the subtree it was
            // to open stays unexplored, so the answer cannot be SAFE
            let msg = "an execution stopped before it had replayed its prefix; part of the search was skipped".to_string();
            if !self.stats.internal.contains(&msg) {
                self.stats.internal.push(msg);
            }
        }
        let all_events = &s.events[..s.n_events as usize];
        let fences_logged = all_events.iter().any(|e| e.kind == channel::EV_C11_FENCE);
        // fences_before[i]: fences among the first i events (i up to the
        // log's length: a choice may come after its last event)
        let fences_before: Vec<u32> = if fences_logged {
            std::iter::once(0).chain(all_events.iter().scan(0u32, |n, e| { *n += (e.kind == channel::EV_C11_FENCE) as u32; Some(*n) })).collect()
        } else {
            vec![]
        };
        for c in &s.choices[prefix.min(trail_len)..trail_len] {
            let mut node = Node::from_choice(c, &s.option_procs, self.inputs.clone());
            if fences_logged {
                node.event -= fences_before[(node.event as usize).min(all_events.len())];
            }
            if !self.reduce {
                node.backtrack = (0..node.count).collect();
            }
            let asleep = &s.sleep_procs[c.sleep_first as usize..(c.sleep_first + c.sleep_n) as usize];
            node.sleep = self.sleepers.iter().filter(|z| asleep.contains(&z.proc)).cloned().collect();
            self.path.push(node);
        }
        if let Some((k, branch)) = self.guided.take() {
            let left = s.sym_flags & channel::SYMF_GUIDE_LEFT != 0 || (s.sym_flags & channel::SYMF_USED != 0 && s.flags & channel::FL_GUIDE_BROKEN != 0);
            if left {
                // a guided step took another side of a branch on nondet
                // values than the branch's execution did (its inputs were
                // not enough to replay it), or the guide broke in a program
                // that branches on such values (control flow may differ
                // from the branch's execution): the execution left the
                // branch somewhere below k, where is not known, so
                // everything below k is explored in full (sound: more
                // than the branch asked for)
                for node in self.path[k + 1..].iter_mut().filter(|n| n.schedule) {
                    node.explore_all = true;
                }
            } else {
                dpor::hand_down(&mut self.path, k, branch);
            }
        }
        fences_logged.then(|| all_events.iter().filter(|e| e.kind != channel::EV_C11_FENCE).copied().collect())
    }

    /// The steps of the execution, for its analysis (and the prediction of
    /// the next one): None where there is nothing to analyse (no
    /// reduction, or the events were cut short).
    fn steps_of(&self, flags: u32, events: &[Event]) -> Option<dpor::Steps> {
        (self.reduce && flags & channel::FL_EVENTS_TRUNC == 0).then(|| dpor::Steps::new(&self.path, events))
    }

    /// What the reduction learns from the execution: races to reverse
    /// (backtrack points or wakeup sequences), and the options to try where
    /// no race shows them. `steps`: `steps_of` the execution.
    fn analyse(&mut self, flags: u32, events: &[Event], status: Status, steps: Option<dpor::Steps>) {
        if !self.reduce {
            return;
        }
        let path = &mut self.path;
        let truncated = flags & channel::FL_EVENTS_TRUNC != 0;
        // nothing could run any more: the last step ended nothing
        let ran_out = flags & channel::FL_RAN_OUT != 0;
        let last_steps = self.steps.take();
        if truncated {
            // no complete footprint: explore this execution's nodes in full
            self.stats.events_truncated += 1;
            for node in path.iter_mut() {
                node.variants_cut = true;
                node.backtrack = (0..node.count).collect();
                node.explore_all = true;
            }
        } else {
            let steps = self.steps.insert(steps.expect("steps_of an analysed execution"));
            dpor::seen_footprints(path, steps, events);
            let Some(analysis) = self.analyzer.analyze(events) else {
                self.analysis_cut = true;
                return;
            };
            // the steps this execution shares with the last one analysed
            // keep their tables (`Scratch`)
            self.scratch.shares(last_steps.map_or(0, |l| l.shared_with(steps, analysis.shared())));
            if self.optimal {
                let ins = dpor::insert_wakeups(path, steps, events, analysis, &self.inputs, ran_out, &mut self.scratch);
                self.stats.wakeups_inserted += ins.inserted;
                self.stats.wakeups_redundant += ins.redundant;
                self.stats.por_fallbacks += ins.fallbacks;
            } else {
                dpor::add_backtracks(path, steps, events, analysis, ran_out, &mut self.scratch);
            }
        }
        if status != Status::SleepBlocked {
            // The step that ends the execution (main returning, exit, abort,
            // an error) stops every other thread: it is dependent with
            // whatever they would do next, which no event of this execution
            // shows. So each thread still enabled where that step began must
            // also be tried first there, and so must the flushes of other
            // threads' buffers (a thread may be waiting for one). The
            // ender's own flushes need not: no one reads after the end.
            dpor::other_threads_before_the_end(path, self.optimal);
        }
        dpor::room_makers(path, self.optimal);
        if let (Some(steps), false) = (&self.steps, status == Status::SleepBlocked) {
            dpor::unflushed_at_the_end(path, steps, events, self.optimal);
        }
    }

    fn print_execution(&self, s: &channel::Shm, events: &[Event], status: Status) {
        eprintln!("--- execution {} status {:?} prefix {} sleepers {:?}", self.stats.executions, status, s.prefix_len, self.sleepers.iter().map(|z| z.proc).collect::<Vec<_>>());
        for (k, n) in self.path.iter().enumerate() {
            eprintln!("  node {k} ev {} {} chosen {} of {:?} sleep {:?} explored {:?} bt {:?} done {:?} wut {:?}{}{}", n.event, if n.schedule { "S" } else { "V" }, n.chosen, n.options, n.sleep.iter().map(|z| z.proc).collect::<Vec<_>>(), n.explored.iter().map(|z| z.proc).collect::<Vec<_>>(), n.backtrack, n.done, n.wut.iter().map(|w| w.first_proc()).collect::<Vec<_>>(), if n.explore_all { " ALL" } else { "" }, if n.room_waiters != 0 { format!(" room-waiters {:#x}", n.room_waiters) } else { String::new() });
        }
        for (i, e) in events.iter().enumerate() {
            eprintln!("  ev {i} T{} kind {} addr {:#x} val {} aux {} fp proc {} acc {} [{:#x},{:#x})", e.thread, e.kind, e.addr, e.value, e.aux, e.fp.proc, e.fp.access, e.fp.lo, e.fp.hi);
        }
    }

    /// The next execution: the prefix that flips the deepest node with an
    /// alternative left, the sleep set there and, for optimal DPOR, the
    /// guide along the wakeup branch taken (returned). None when no node
    /// has an alternative left.
    fn next_prefix(&mut self, events: &[Event]) -> Option<Vec<u32>> {
        let optimal = self.optimal;
        let k = (0..self.path.len()).rev().find(|&k| {
            let node = &mut self.path[k];
            if optimal && node.schedule && !node.explore_all {
                self.stats.wakeups_disabled += node.drop_disabled_branches() as u64;
            }
            node.next(optimal).is_some()
        })?;
        let next = self.path[k].next(optimal).unwrap();
        if self.path[k].schedule && self.reduce {
            // what ran here so far sleeps through the siblings (a step
            // with value choices: all of them, if every execution of the
            // subtree showed its footprint)
            let step = dpor::step_at(&self.path, events, k, self.steps.as_ref());
            self.path[k].explored.push(step);
            self.path[k].variants.clear();
            self.path[k].variants_cut = false;
        }
        self.path.truncate(k + 1);
        let node = &mut self.path[k];
        let mut guide: Vec<u32> = vec![];
        let alt = match next {
            dpor::Next::Option(o) => o,
            dpor::Next::BranchNotAnOption => {
                // a guard: `drop_disabled_branches` (in the search for k above)
                // leaves no branch whose first process is not an option here
                self.stats.guide_broken += 1;
                if self.debug {
                    eprintln!("wakeup branch of {} not an option at node {k} (options {:?})", node.wut[0].first_proc(), node.options);
                }
                node.wut.clear();
                node.explore_all = true;
                match node.next(optimal) {
                    Some(dpor::Next::Option(o)) => o,
                    _ => node.chosen,
                }
            }
        };
        // the values to run with: a branch's other side has its model; a
        // wakeup branch, its execution's values; anything else, the values
        // that reached this node (they replay the prefix)
        self.flipped_branch = false;
        let mut inputs = node.inputs.clone();
        if node.branch {
            match node.model.take() {
                Some(m) => {
                    inputs = m;
                    self.flipped_branch = true;
                }
                None => {
                    // (a guard: `Concolic::branches` marks a side without a model done)
                    self.stats.internal.push("a branch side without values to take it".into());
                }
            }
        }
        if optimal && node.schedule && !node.explore_all && !node.wut.is_empty() {
            let branch = node.wut.remove(0);
            guide = dpor::guide_for(&branch);
            inputs = inputs_for_branch(&self.inputs, &branch.inputs, &events[..(node.event as usize).min(events.len())]);
            self.guided = Some((k, branch));
        }
        node.inputs = inputs.clone();
        self.inputs = inputs;
        node.chosen = alt;
        node.done.insert(alt);
        self.sleepers = if self.reduce { node.sleep.iter().chain(if node.schedule { &node.explored[..] } else { &[] }).cloned().collect() } else { vec![] };
        Some(guide)
    }

    /// The next execution's prefix, values, sleep set and guide, for the runtime.
    fn next_run(&self, guide: Vec<u32>) -> NextRun {
        NextRun::new(self.path.iter().map(|n| n.chosen).collect(), self.inputs.clone(), &self.sleepers, guide)
    }
}

/// The inputs to follow a wakeup branch with: the values of the current
/// execution for the nondet variables it read before the branch's node
/// (`prefix`: its events up to there; they replay the prefix), the values
/// of the branch's own execution for the rest. A branch inserted under
/// another one was made from an execution that may have read a variable
/// of the prefix with another value (the prefix then took another side of
/// a branch on it): its inputs alone diverged from the prefix (the replay
/// ended INTERNAL and part of the search was skipped; SV-COMP
/// pthread-ext/04_incdec_cas with four threads, optimal).
fn inputs_for_branch(current: &Inputs, branch: &Inputs, prefix: &[Event]) -> Inputs {
    if current.is_empty() && branch.is_empty() {
        return branch.clone(); // (no wide nondet values: the common case)
    }
    let mut read: HashMap<u32, u32> = HashMap::new();
    for e in prefix.iter().filter(|e| e.kind == channel::EV_NONDET && e.aux2 == 1) {
        *read.entry(e.thread as u32).or_default() += 1;
    }
    let in_prefix = |x: &Input| read.get(&x.thread).is_some_and(|&n| x.ordinal < n);
    let mut merged: Vec<Input> = current.iter().copied().filter(|x| in_prefix(x)).chain(branch.iter().copied().filter(|x| !in_prefix(x))).collect();
    merged.sort();
    Rc::new(merged)
}

/// Hand the sleep set to the runtime: each sleeping process with the
/// footprints of its step (`sleepers` fit: `speculation::sendable`).
fn set_sleepers(s: &mut channel::Shm, sleepers: &[Rc<Step>]) {
    let mut fps = 0usize;
    for (i, z) in sleepers.iter().enumerate() {
        if dpor::debug_por() {
            eprintln!("sleeper {}: {:?}", z.proc, z.fps.iter().map(|f| (f.access, f.lo, f.hi)).collect::<Vec<_>>());
        }
        s.sleepers[i] = channel::Sleeper { proc: z.proc, n: z.fps.len() as u32, first: fps as u32 };
        s.sleep_fps[fps..fps + z.fps.len()].copy_from_slice(&z.fps);
        fps += z.fps.len();
    }
    s.n_sleepers = sleepers.len() as u32;
}

