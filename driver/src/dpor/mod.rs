//! Dynamic partial order reduction over processes: every thread, and one
//! flush process per store buffer (per thread under TSO, per thread and
//! address under PSO).
//!
//! A *step* is what one process does from one scheduling choice to the next
//! (the runtime records every scheduling point as a choice, even with one
//! option, so steps and choices correspond). After each execution, every pair
//! of dependent events of different processes that is not ordered by
//! happens-before through a third event is a race; reversing it means
//! running, at the choice before the first event's step, something that
//! lets the second event go first. Two reductions build on that:
//!
//! - `source`: source-set DPOR with sleep sets (Abdulla, Aronis, Jonsson,
//!   Sagonas). For a race, one of its *initials* (processes that can start
//!   an execution in which the race is reversed) is added to the backtrack
//!   set of that choice, unless one already is there or asleep there.
//! - `optimal`: optimal DPOR with wakeup trees (same authors). For a race,
//!   the whole reversing sequence of steps is inserted into the wakeup tree
//!   of that choice unless a sleeping process or an existing branch already
//!   covers it; later executions follow a branch step by step (the runtime's
//!   guide). Every complete execution is then in a different equivalence
//!   class.
//!
//! In both, a process explored at a choice goes to sleep for the choices
//! after the siblings; the runtime wakes it when an executed event is
//! dependent with its step (sleep sets, enforced by the runtime itself).
//!
//! An atomic block (`__VERIFIER_atomic_*`) is one step: a sleeping block
//! shows everything it touched, its end-of-block flushes included, and a
//! block's steps are never split around other steps. Its later accesses
//! depend on what its first ones read (an assume that failed in one order
//! passes in another and then writes), so for source DPOR a race whose
//! reversal starts with a block is covered by a sleeping block of that
//! thread only when it is the same block (see `sleeps_differently`). For
//! optimal DPOR the one step of a wakeup sequence that reads other values
//! than where it was seen is its last; when that is a block its footprint
//! is unknown (`Step::reread`): it is dependent with every step before it
//! and with every process outside the sequence, and as a leaf it covers
//! no longer sequence (`place`; tests/programs/atomic-por/block-leaf.c).
//! A sleeping block covers only sequences that run it
//! (`Seq::covered_by_sleeper`).
//! A program's own block also touches one block object at its ends, which
//! orders it against every other block; the runtime steps of an export
//! are blocks that instead declare what they touch (TOUCH events, see
//! runtime/ABI.md), so independent ones commute.
//!
//! Dependency is over the footprints the runtime reports with each event
//! (memory bytes read and written, synchronisation objects; a buffered store
//! touches nothing until its flush writes memory). Happens-before also has
//! the edges that are not conflicts: a thread's creation before its first
//! step, a joined thread's last step before the join, a buffered store
//! before the flush of its entry (FIFO per flush process), under PSO the
//! flushes of a thread's older overlapping entries and of entries before a
//! store-store barrier before a flush, and a thread's flushes before its
//! next draining step (fence, locked operation, sync call, exit) and before
//! a store that had to evict an entry to make room. Value choices (nondet,
//! a PSO eviction) are explored in full at their node.
//!
//! The parts: `analysis` (vector clocks and races of an execution, kept
//! for the prefix the next one replays), `execution` (its steps and
//! happens-before between them, and the steps that need not follow a
//! race's first step), `wakeup` (optimal DPOR's wakeup trees), `source`
//! (source DPOR's backtrack sets), `conservative` (branches no race
//! shows), `options` and `summary` (small sets the others use). This file
//! holds what they share: steps, the nodes of the search's path, and the
//! steps of one execution (`Steps`).

use crate::channel::{Choice, Event, Footprint, Input, CH_BRANCH, CH_ROOM_WAIT, CH_SCHEDULE, EV_ATOMIC_BEGIN, EV_ATOMIC_END, EV_FLUSH, EV_SPAWN};
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;
use std::cell::OnceCell;
use std::rc::Rc;
use summary::FootprintSummary;

mod analysis;
mod conservative;
mod execution;
mod options;
mod source;
mod summary;
mod wakeup;
pub use analysis::{forget_dropped, Analysis, Analyzer};
pub use conservative::{other_threads_before_the_end, room_makers, unflushed_at_the_end};
pub use execution::Scratch;
pub use options::OptionSet;
pub use source::add_backtracks;
pub use wakeup::{guide_for, hand_down, insert_wakeups, Insertions, WNode};
use execution::{Execution, SleeperCover};

/// `TSOIFY_DEBUG_POR` is set: print what the reduction does (read once;
/// it is asked for every race).
pub fn debug_por() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("TSOIFY_DEBUG_POR").is_some())
}

/// One process's step as seen in some execution: what a sleeping process
/// will do when it runs, or a step of a wakeup sequence.
#[derive(Clone, Debug)]
pub struct Step {
    pub proc: u32,
    pub fps: Vec<Footprint>,
    /// alternatives taken at value choices inside the step
    pub values: Vec<u32>,
    /// the step contained a value choice: its footprint holds for that
    /// value only, so it counts as dependent with everything
    pub open: bool,
    /// the step covers no sequence in a wakeup tree (`place`). So are a
    /// wakeup branch made without a race at a room wait or before a read
    /// of a store never flushed (`add_first_steps`: such branches once
    /// swallowed sequences whose continuation the defaults never reached,
    /// fuzz.py seed 23, TSO K=2), and a block whose assume failed (what
    /// follows it is infeasible, so its subtree explores none of the
    /// orders a sequence that runs it later needs: fuzz.py --atomic seed
    /// 1214, program 53, block-after-flush.c). The branches tried before
    /// an execution's end do cover: without that, every execution ended by
    /// an abort added a branch per thread that the races then added again
    /// (SV-COMP read_write_lock-1: 388,351 executions against source
    /// DPOR's 17,469)
    pub covers_nothing: bool,
    /// an atomic block run last in a wakeup sequence: it reads other
    /// values there than where it was seen, so what it touches (and what
    /// its value choices are) is unknown; open too. As a leaf it stands
    /// for itself alone: a longer sequence that starts with it goes below
    /// it rather than counting as covered (see `place`)
    pub reread: bool,
    /// (part of) an atomic block
    pub block: bool,
    /// what `fps` touch, summarised when first asked (`Seq::weak_initial`)
    pub touched: OnceCell<FootprintSummary>,
}

impl Step {
    /// The same step: the same process touching the same things with the
    /// same value choices.
    fn same_as(&self, other: &Step) -> bool {
        self.proc == other.proc && self.fps == other.fps && self.values == other.values
    }

    /// What the step's footprints touch (see `FootprintSummary`).
    fn touched(&self) -> &FootprintSummary {
        self.touched.get_or_init(|| {
            let mut t = FootprintSummary::default();
            self.fps.iter().for_each(|g| t.add(g));
            t
        })
    }
}

/// The values of the wide nondet calls an execution runs with (concolic.rs).
pub type Inputs = Rc<Vec<Input>>;

#[derive(Clone, Debug)]
pub struct Node {
    pub count: u32,
    pub chosen: u32,
    pub schedule: bool,
    /// process id of each option (scheduling nodes)
    pub options: Vec<u32>,
    /// option indices to explore (source DPOR, none) / already explored
    pub backtrack: OptionSet,
    pub done: OptionSet,
    /// first event after the choice
    pub event: u32,
    /// processes asleep on arrival here (as reported by the runtime)
    pub sleep: Vec<Rc<Step>>,
    /// steps of the alternatives explored here before the current one
    pub explored: Vec<Rc<Step>>,
    /// optimal DPOR: wakeup subtrees still to explore here, in order
    pub wut: Vec<WNode>,
    /// explore every option here, sleeping or not (a fallback: a guide could
    /// not be followed, a race could not be written as a wakeup sequence, or
    /// the event log overflowed)
    pub explore_all: bool,
    /// everything the step chosen here touched in the executions of its
    /// subtree so far, when that step makes value choices (each execution
    /// shows one alternative's footprint; all of them together describe
    /// the step once every alternative has run): see `seen_footprints`
    pub variants: Vec<Footprint>,
    /// an execution of the subtree had its event log cut: `variants` may
    /// lack some alternative
    pub variants_cut: bool,
    /// the threads that wait here for room in their full buffers, bit t
    /// for thread t (see `room_makers`)
    pub room_waiters: u64,
    /// a branch on a wide nondet value (option 1: taken): its options are
    /// its feasible sides, each run with inputs that take it (concolic.rs)
    pub branch: bool,
    /// a branch: the inputs that take the side not explored yet (found by
    /// the solver; None when that side is infeasible or explored)
    pub model: Option<Inputs>,
    /// the inputs of the execution that took the option chosen here (they
    /// replay the path down to here)
    pub inputs: Inputs,
}

/// What a node explores next (`Node::next`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// the option of this index
    Option(u32),
    /// the first wakeup branch, whose first process is no option here
    /// (never, once `drop_disabled_branches` has run: a guard)
    BranchNotAnOption,
}

impl Node {
    /// The node of choice `c`, reached with `inputs` (see `Node::inputs`).
    pub fn from_choice(c: &Choice, option_procs: &[u32], inputs: Inputs) -> Node {
        let schedule = c.kind & 0xff == CH_SCHEDULE;
        let options = if schedule {
            option_procs[c.options as usize..c.options as usize + c.count as usize].to_vec()
        } else {
            vec![]
        };
        Node {
            count: c.count,
            chosen: c.chosen,
            schedule,
            options,
            backtrack: OptionSet::one(c.chosen),
            done: OptionSet::one(c.chosen),
            event: c.event,
            sleep: vec![],
            explored: vec![],
            wut: vec![],
            explore_all: false,
            variants: vec![],
            variants_cut: false,
            room_waiters: if schedule && c.kind & CH_ROOM_WAIT != 0 {
                let after = c.options as usize + c.count as usize;
                option_procs[after] as u64 | (option_procs[after + 1] as u64) << 32
            } else {
                0
            },
            branch: c.kind & 0xff == CH_BRANCH,
            model: None,
            inputs,
        }
    }

    fn asleep(&self, proc: u32) -> bool {
        self.sleep.iter().chain(&self.explored).any(|s| s.proc == proc)
    }

    fn option_of(&self, proc: u32) -> Option<u32> {
        self.options.iter().position(|&p| p == proc).map(|i| i as u32)
    }

    /// The next alternative to explore here, if any: a value not yet
    /// taken, a backtrack entry, or the first wakeup subtree.
    pub fn next(&self, optimal: bool) -> Option<Next> {
        if !self.schedule || self.explore_all {
            // every value; or, as a fallback, every option, asleep or not:
            // the first one not done (done is sorted: its first gap)
            let mut first_free = 0;
            for d in self.done.iter() {
                if d != first_free {
                    break;
                }
                first_free += 1;
            }
            return (first_free < self.count).then_some(Next::Option(first_free));
        }
        if optimal {
            return self.wut.first().map(|w| self.option_of(w.first_proc()).map_or(Next::BranchNotAnOption, Next::Option));
        }
        self.backtrack.iter().filter(|&o| !self.done.contains(o)).find(|&o| !self.asleep(self.options[o as usize])).map(Next::Option)
    }

    /// Optimal DPOR: drop the wakeup branches at the front that cannot or
    /// need not start here (returns how many were dropped).
    ///
    /// A branch whose first process cannot run here reverses a race whose
    /// later step was enabled only by the earlier one: a thread parked on
    /// an await (it reads the value the earlier step wrote) or one waiting
    /// for room its buffer did not have. Run first here, it would find the
    /// same state that keeps it from running, so the reversal is no
    /// execution at all (an await loop's extra turn reading the old value
    /// changes nothing). The branches inserted below it may not contain its
    /// process at all (they went there because its step was independent of
    /// them), so they move up to its place rather than go with it.
    ///
    /// A branch that starts with a process explored here, or even asleep
    /// here, must stay: the runtime's steps are not the theory's (a flush
    /// process's next step depends on what its thread buffered since), and
    /// dropping those lost outcomes under TSO with 2 buffer entries (fuzz
    /// --corpus seeds 3003 and 3012; see tests/programs/reduction).
    pub fn drop_disabled_branches(&mut self) -> usize {
        let mut dropped = 0;
        while let Some(first) = self.wut.first() {
            let proc = first.first_proc();
            if self.option_of(proc).is_some() {
                break;
            }
            if debug_por() {
                eprintln!("wakeup branch of {proc} dropped at event {}: not enabled (options {:?})", self.event, self.options);
            }
            let gone = self.wut.remove(0);
            self.wut.splice(0..0, gone.after_first());
            dropped += 1;
        }
        dropped
    }

    /// Source DPOR: make sure one of `initials` is explored here; when none
    /// of them is an option, explore all. `preferred` (the racing process)
    /// is taken when it is one of them. `block_first`: the race's first
    /// event is in an atomic block, which runs after the reversal with
    /// other values and may then touch what it did not (an assume that
    /// failed passes and the block writes): an initial already explored
    /// here or asleep was explored before such a block and does not cover
    /// the orders after it, so an awake one is taken where there is one
    /// (fuzz.py --atomic seed 1214, program 53, PSO K=2: both reductions
    /// lost an outcome, tests/programs/atomic-por/block-after-flush.c).
    fn want_one_of(&mut self, initials: &[u32], preferred: u32, block_first: bool) {
        let mut candidates: Vec<u32> = initials.iter().filter_map(|&q| self.option_of(q)).collect();
        if block_first && candidates.iter().any(|&c| !self.asleep(self.options[c as usize])) {
            candidates.retain(|&c| !self.asleep(self.options[c as usize]));
        }
        if candidates.is_empty() {
            self.backtrack.extend(0..self.count);
        } else if !candidates.iter().any(|&c| self.backtrack.contains(c) || self.asleep(self.options[c as usize])) {
            let pick = self.option_of(preferred).filter(|c| candidates.contains(c)).unwrap_or(candidates[0]);
            self.backtrack.insert(pick);
        }
    }
}

/// A race worth reversing: conflicting accesses of two processes, or two
/// uses of one synchronisation object other than a release against an
/// acquire (two acquires of a lock race; the release before an acquire only
/// orders them, and reversing it would just block the acquirer), unless
/// one is a failed try (it saw the object taken: a release before it
/// changes its outcome). A flush against an event of its owner that waits
/// for it only orders them too.
/// The atomic blocks of one execution (`__VERIFIER_atomic_*` functions,
/// atomic_begin/end). Nothing else runs inside a block, so its events are
/// contiguous in the log, all with the block's thread as the executing
/// thread (its own flushes, which drain the buffer at the block's end,
/// included). A block ends at its ATOMIC_END event, or, when its thread
/// stopped inside it (a failed assume), at the thread's last event before
/// another thread ran.
struct Blocks {
    /// the ATOMIC_BEGIN event of the block each event is in (the event
    /// itself outside); empty when the execution has no block
    start: Vec<usize>,
    /// the last event of the block each event is in (the event itself
    /// outside); empty when the execution has no block
    last: Vec<usize>,
}

impl Blocks {
    fn new(events: &[Event]) -> Blocks {
        // most executions have no block: nothing to hold
        if !events.iter().any(|e| e.kind == EV_ATOMIC_BEGIN) {
            return Blocks { start: vec![], last: vec![] };
        }
        let mut start: Vec<usize> = (0..events.len()).collect();
        let mut last = start.clone();
        let mut open: Option<(u16, usize)> = None; // (thread, begin)
        let close = |begin: usize, end: usize, last: &mut Vec<usize>| last[begin..=end].iter_mut().for_each(|l| *l = end);
        for (i, e) in events.iter().enumerate() {
            if let Some((t, b)) = open {
                if e.thread != t {
                    close(b, i - 1, &mut last);
                    open = None;
                }
            }
            if open.is_none() && e.kind == EV_ATOMIC_BEGIN {
                open = Some((e.thread, i));
            }
            if let Some((_, b)) = open {
                start[i] = b;
                if e.kind == EV_ATOMIC_END {
                    close(b, i, &mut last);
                    open = None;
                }
            }
        }
        if let Some((_, b)) = open {
            close(b, events.len() - 1, &mut last);
        }
        Blocks { start, last }
    }

    /// The first event of the block event e is in (e itself outside one).
    #[inline]
    fn start(&self, e: usize) -> usize {
        self.start.get(e).copied().unwrap_or(e)
    }

    /// The last event of the block event e is in (e itself outside one).
    #[inline]
    fn last(&self, e: usize) -> usize {
        self.last.get(e).copied().unwrap_or(e)
    }

    fn contains(&self, e: usize) -> bool {
        self.start(e) != e || self.last(e) != e
    }
}

/// The steps of one execution: step s starts at scheduling node `node[s]`
/// and holds events `start[s]..end[s]`. Made once per execution (the
/// search keeps them from its analysis to describe the step it flips).
pub struct Steps {
    blocks: Blocks,
    node: Vec<usize>,
    /// the process each step ran
    proc: Vec<u32>,
    start: Vec<usize>,
    end: Vec<usize>,
    of_event: Vec<usize>,
    /// per step: it is (part of) an atomic block
    block: Vec<bool>,
}

const NO_STEP: usize = usize::MAX;

impl Steps {
    pub fn new(path: &[Node], events: &[Event]) -> Steps {
        let n_events = events.len();
        let mut node: Vec<usize> = Vec::with_capacity(path.len());
        node.extend((0..path.len()).filter(|&k| path[k].schedule));
        let proc = node.iter().map(|&k| path[k].options[path[k].chosen as usize]).collect();
        let start: Vec<usize> = node.iter().map(|&k| (path[k].event as usize).min(n_events)).collect();
        let mut end: Vec<usize> = start.iter().skip(1).copied().collect();
        end.push(n_events);
        let mut of_event = vec![NO_STEP; n_events];
        for s in 0..node.len() {
            for slot in &mut of_event[start[s]..end[s]] {
                *slot = s;
            }
        }
        let mut steps = Steps { blocks: Blocks::new(events), node, proc, start, end, of_event, block: vec![] };
        steps.block = if !steps.has_blocks() {
            vec![false; steps.node.len()]
        } else {
            (0..steps.node.len()).map(|s| steps.span(s).any(|e| steps.blocks.contains(e))).collect()
        };
        steps
    }

    #[inline]
    fn events(&self, s: usize) -> std::ops::Range<usize> {
        self.start[s]..self.end[s]
    }

    /// How many of the first steps `self` (the last execution's) and
    /// `next` have in common: the same process's step at the same node
    /// over the same events (the first `shared_events` of the two
    /// executions are the same), atomic blocks included.
    pub fn shared_with(&self, next: &Steps, shared_events: usize) -> usize {
        let n = self.node.len().min(next.node.len());
        // (without blocks a step's span is its events)
        let blocks = self.has_blocks() || next.has_blocks();
        let same = |s: usize| {
            self.node[s] == next.node[s]
                && self.proc[s] == next.proc[s]
                && self.events(s) == next.events(s)
                && (!blocks || (self.span(s) == next.span(s) && self.block[s] == next.block[s]))
                && next.span(s).end <= shared_events
        };
        (0..n).take_while(|&s| same(s)).count()
    }

    /// Step s ended the execution, where the last step did (`last_ends`:
    /// main's end, exit, an error, which stop every other process; not so
    /// when the execution ran out of processes that could run,
    /// `FL_RAN_OUT`: its last step is then a step like any other): it is the last step,
    /// or it starts the atomic block the last step is part of (its span
    /// holds the end). Such a step stops every other process: it sleeps
    /// through nothing (an abort in a block slept through another thread's
    /// read, and the reads that could come before it went unexplored:
    /// tests/programs/ending/abort-in-block.c).
    #[inline]
    fn ends_execution(&self, s: usize, last_ends: bool) -> bool {
        let last = self.node.len() - 1;
        last_ends && (s == last || (self.start[last] < self.end[last] && self.span(s).contains(&self.start[last])))
    }

    /// The execution has atomic blocks.
    fn has_blocks(&self) -> bool {
        !self.blocks.start.is_empty()
    }

    /// Step s is (part of) an atomic block.
    fn in_block(&self, s: usize) -> bool {
        self.block[s]
    }

    /// The events step s commits to: its own, and when it ends inside an
    /// atomic block, the rest of the block.
    #[inline]
    fn span(&self, s: usize) -> std::ops::Range<usize> {
        let r = self.events(s);
        if r.is_empty() {
            return r;
        }
        r.start..(self.blocks.last(r.end - 1) + 1).max(r.end)
    }

    /// The step as a reusable description (for sleep sets and wakeup trees).
    fn describe(&self, s: usize, path: &[Node], events: &[Event], last_ends: bool) -> Step {
        let d = self.description(s, path, events, last_ends);
        Step {
            proc: self.proc[s],
            fps: d.fps().collect(),
            open: d.open,
            values: d.values().collect(),
            covers_nothing: d.failed,
            reread: false,
            block: self.in_block(s),
            touched: OnceCell::new(),
        }
    }

    /// `step` is what `describe` makes of step s (a description kept from
    /// an earlier execution that can be used again: `Described`).
    fn describes(&self, s: usize, step: &Step, path: &[Node], events: &[Event], last_ends: bool) -> bool {
        let d = self.description(s, path, events, last_ends);
        step.proc == self.proc[s]
            && step.open == d.open
            && step.covers_nothing == d.failed
            && !step.reread
            && step.block == self.in_block(s)
            && step.values.iter().copied().eq(d.values())
            && step.fps.iter().copied().eq(d.fps())
    }

    /// What `describe` reads, without copying it out.
    fn description<'p>(&self, s: usize, path: &'p [Node], events: &'p [Event], last_ends: bool) -> Description<'p> {
        let k = self.node[s];
        let next = self.node.get(s + 1).copied().unwrap_or(path.len());
        let choices = &path[k + 1..next];
        // A step that ends inside an atomic block stands for the whole
        // block (see Blocks): a sleeping step that showed only the block's
        // entry would sleep through a write to what the block reads.
        let span_range = self.span(s);
        let span_end = span_range.end;
        let span = &events[span_range];
        // a value chosen inside the block shapes its footprint too; and the
        // step that ended the execution (main's end, exit, an error) stops
        // every other process, whatever its events show (main's end has none)
        let ends = self.ends_execution(s, last_ends);
        // (nodes come in event order: the scan stops at the span's end)
        let open = ends || !choices.is_empty() || path[next..].iter().take_while(|n| (n.event as usize) < span_end).any(|n| !n.schedule);
        let failed = self.in_block(s) && span.iter().any(|e| e.kind == crate::channel::EV_ASSUME_FAILED);
        Description { choices, span, open, failed }
    }
}

/// Step s of an execution as `Steps::describe` sees it.
struct Description<'p> {
    /// the value choice nodes inside the step
    choices: &'p [Node],
    /// its events (an atomic block's to its end)
    span: &'p [Event],
    open: bool,
    /// an atomic block whose assume failed
    failed: bool,
}

impl Description<'_> {
    fn values(&self) -> impl Iterator<Item = u32> + '_ {
        self.choices.iter().map(|n| n.chosen)
    }
    fn fps(&self) -> impl Iterator<Item = Footprint> + '_ {
        self.span.iter().map(|e| e.fp)
    }
}

/// The step descriptions the wakeup sequences of the last executions were
/// made of, by step index. The next execution replays a prefix of the
/// last one, so most of its steps are the same again: a kept description
/// is used again when it is exactly what `describe` would make
/// (`Steps::describes`), which saves making it and lets the branches of
/// many executions share one (the pending wakeup trees are most of the
/// search's memory: lastzero N=14 grew to 135 MB).
#[derive(Default)]
struct Described {
    steps: Vec<Option<Rc<Step>>>,
}

impl Described {
    /// Step s's description, the kept one when it still holds.
    fn get(&mut self, s: usize, x: &Execution, path: &[Node], events: &[Event]) -> Rc<Step> {
        if let Some(Some(step)) = self.steps.get(s) {
            if x.steps.describes(s, step, path, events, x.last_ends) {
                return step.clone();
            }
        }
        if self.steps.len() <= s {
            self.steps.resize(s + 1, None);
        }
        self.steps[s].insert(Rc::new(x.steps.describe(s, path, events, x.last_ends))).clone()
    }
}

/// The step the execution took at scheduling node `k` of `path`. A step
/// with value choices is open (dependent with everything) unless all its
/// alternatives have run and `seen_footprints` gathered them all:
/// then it is the union of what they touched, which sleeps soundly (an
/// event independent of every alternative leaves the step's choices and
/// each alternative's effect as they were).
/// `steps`: the execution's, when the search has them (made again if not).
pub fn step_at(path: &[Node], events: &[Event], k: usize, steps: Option<&Steps>) -> Rc<Step> {
    let mut made = None;
    let steps = match steps {
        Some(s) => s,
        None => made.insert(Steps::new(path, events)),
    };
    let s = steps.node.iter().position(|&n| n == k).expect("a scheduling node");
    let mut step = steps.describe(s, path, events, true);
    if step.open && !path[k].variants_cut && !path[k].variants.is_empty() {
        step.fps = path[k].variants.clone();
        step.touched = OnceCell::new();
        step.open = false;
    }
    Rc::new(step)
}

/// After an execution: add the footprint of each step with value choices
/// to what its node has seen (`Node::variants`).
pub fn seen_footprints(path: &mut [Node], steps: &Steps, events: &[Event]) {
    if path.iter().all(|n| n.schedule) {
        return; // no value choice: no open step
    }
    for s in 0..steps.node.len() {
        let step = steps.describe(s, path, events, true);
        if !step.open {
            continue;
        }
        let seen = &mut path[steps.node[s]].variants;
        for f in step.fps {
            if !seen.contains(&f) {
                seen.push(f);
            }
        }
    }
}

/// An assume that fails makes its execution infeasible, and the runtime
/// stops its thread for good while the others run on. A violation they
/// reach afterwards is still real when it does not depend on a failed
/// assume: what is infeasible is the assume and what follows it, or, in
/// an atomic block, the whole block (it happens entirely or not at all).
/// Dropping those and every event that happens after one of them leaves a
/// prefix closed under happens-before: an execution in which no assume
/// failed and that reaches the violation. Neither reduction would try that
/// order on its own (a failed assume that conflicts with nothing has no
/// race to reverse), and without reduction a thread's operations up to an
/// assume can be one step, with no schedule between them. Returns the
/// events of that execution, or None when the violation needs a failed
/// assume (or there is no violation event).
pub fn beside_failed_assumes(events: &[Event]) -> Option<Vec<Event>> {
    use crate::channel::{EV_ASSUME_FAILED, EV_ERROR};
    let v = events.iter().rposition(|e| e.kind == EV_ERROR)?;
    let blocks = Blocks::new(events);
    // where each infeasible part begins: it happens before the rest of it
    let failed: Vec<usize> = (0..events.len()).filter(|&f| events[f].kind == EV_ASSUME_FAILED).map(|f| blocks.start(f)).collect();
    if failed.is_empty() {
        return None;
    }
    let a = Analysis::of(events);
    let after_a_failed_step = |i: usize| failed.iter().any(|&x| a.clocks.hb(events, x, i));
    if after_a_failed_step(v) {
        return None;
    }
    Some((0..events.len()).filter(|&i| !after_a_failed_step(i)).map(|i| events[i]).collect())
}

