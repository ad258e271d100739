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

use crate::channel::{Choice, Event, Footprint, Input, CH_BRANCH, CH_ROOM_WAIT, CH_SCHEDULE, EV_ATOMIC_BEGIN, EV_ATOMIC_END, EV_FLUSH, EV_SPAWN};
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;
use std::cell::OnceCell;
use std::rc::Rc;
use summary::FootprintSummary;

mod analysis;
mod options;
mod summary;
pub use analysis::{forget_dropped, Analysis, Analyzer};
pub use options::OptionSet;

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

/// A wakeup tree branch: a run of steps, each the only branch after the
/// one before it, then the subtrees after the last. (A branch inserted for
/// a race is a chain as long as the rest of its execution; kept one node
/// per step, each in its own allocation, `place` chased two pointers per
/// step down every such chain.)
#[derive(Clone, Debug)]
pub struct WNode {
    /// never empty (a deque: following a branch takes its steps from the
    /// front one by one, `hand_down`, and a run can be hundreds long)
    steps: VecDeque<Rc<Step>>,
    /// each step's process and `covers_nothing` (`Head`), kept beside
    /// `steps`: `place` asks for them at every branch it passes and at every
    /// step down a run, and reaching them through `steps` cost a cache miss
    /// per step (a third of its time, then a fifth of `insert_wakeups`')
    heads: VecDeque<Head>,
    pub children: Vec<WNode>,
    /// the nondet inputs of the execution the branch was made from (its
    /// steps take the same sides of branches on nondet values with them)
    pub inputs: Inputs,
}

/// A step's process and whether it covers nothing (`Step::covers_nothing`),
/// in one word: the top bit is `covers_nothing`.
#[derive(Clone, Copy, Debug)]
struct Head(u32);

impl Head {
    const COVERS_NOTHING: u32 = 1 << 31;

    fn of(step: &Step) -> Head {
        debug_assert!(step.proc < Head::COVERS_NOTHING);
        Head(step.proc | if step.covers_nothing { Head::COVERS_NOTHING } else { 0 })
    }

    fn proc(self) -> u32 {
        self.0 & !Head::COVERS_NOTHING
    }

    fn covers_nothing(self) -> bool {
        self.0 & Head::COVERS_NOTHING != 0
    }
}

impl WNode {
    fn new(steps: VecDeque<Rc<Step>>, children: Vec<WNode>, inputs: Inputs) -> WNode {
        debug_assert!(!steps.is_empty());
        let heads = steps.iter().map(|z| Head::of(z)).collect();
        WNode { steps, heads, children, inputs }
    }

    /// The process of the branch's first step.
    pub fn first_proc(&self) -> u32 {
        self.heads[0].proc()
    }

    /// The branch's first step.
    pub fn first(&self) -> &Step {
        &self.steps[0]
    }

    /// The subtrees after the first step: the rest of the run, or the children.
    fn after_first(self) -> Vec<WNode> {
        let WNode { mut steps, mut heads, children, inputs } = self;
        if steps.len() == 1 {
            return children;
        }
        steps.pop_front();
        heads.pop_front();
        vec![WNode { steps, heads, children, inputs }]
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

/// What the reductions need to know about one execution.
struct Execution<'a> {
    events: &'a [Event],
    steps: &'a Steps,
    a: &'a Analysis,
    /// the last step ended the execution (see `Steps::ends_execution`)
    last_ends: bool,
    /// the per-step tables, in buffers the search keeps for the next execution
    b: &'a StepTables,
}

/// What the reductions keep from one execution's analysis to the next:
/// the per-step tables, and the free steps after each race's first step.
#[derive(Default)]
pub struct Scratch {
    tables: StepTables,
    free: FreeAfter,
    described: Described,
    /// how many first steps the next execution analysed shares with the
    /// last one (`Scratch::shares`)
    shared_steps: usize,
}

impl Scratch {
    /// The execution about to be analysed shares its first `n` steps with
    /// the last one analysed (`Steps::shared_with`): their tables are kept.
    pub fn shares(&mut self, n: usize) {
        self.shared_steps = n;
    }
}

/// The free steps after each step (`Execution::not_after` up to the end of
/// the execution), as far as the last execution's analysis found them.
/// The next execution replays a prefix of its steps, and for a step in
/// that prefix what it found among the replayed steps still holds; only
/// the rest of the execution is scanned again. Within one execution the
/// races from one step share its list; across executions it is kept only
/// where the new one has no atomic blocks (see `Execution::not_after_from`).
#[derive(Default)]
struct FreeAfter {
    lists: Vec<Vec<usize>>,
    /// per step: its list holds the free steps before this one (0: nothing kept)
    upto: Vec<usize>,
}

impl FreeAfter {
    /// For a new execution of `n` steps whose first `keep` are the last
    /// one's (`Steps::shared_with`), which had `last_steps` steps.
    fn keep(&mut self, keep: usize, last_steps: usize, n: usize, cacheable: bool) {
        // the last step of either execution ended it and is never free
        // in it: what was kept must hold neither
        let keep = if cacheable { keep.min(last_steps.saturating_sub(1)).min(n.saturating_sub(1)) } else { 0 };
        for (sj, (list, upto)) in self.lists.iter_mut().zip(&mut self.upto).enumerate() {
            if sj < keep && *upto > 0 {
                list.truncate(list.partition_point(|&s| s < keep));
                *upto = (*upto).min(keep);
            } else {
                list.clear();
                *upto = 0;
            }
        }
        self.lists.resize_with(n, Vec::new);
        self.upto.resize(n, 0);
    }

    /// The free steps after sj to the end of `x`.
    fn get(&mut self, x: &Execution, sj: usize) -> &[usize] {
        let n = x.steps.node.len();
        let (list, upto) = (&mut self.lists[sj], &mut self.upto[sj]);
        if *upto == 0 {
            list.clear();
            x.not_after_from(sj, sj + 1, n, list);
        } else if *upto < n {
            x.not_after_from(sj, *upto, n, list);
        }
        // (with blocks `keep` drops it before the next execution)
        *upto = n;
        debug_assert_eq!(*list, x.not_after(sj, n), "kept free steps after step {sj} differ");
        list
    }
}

/// The per-step tables of `Execution`, kept by the search from one
/// execution to the next so that each analysis does not allocate them
/// again (`Execution::new` fills them).
#[derive(Default)]
struct StepTables {
    /// per step s, `roots(s)`: entries `roots_at[s]..roots_at[s + 1]`
    root_entries: Vec<(usize, u32)>,
    roots_at: Vec<usize>,
    /// per step, where `reach(s)` is (see `Reach`)
    reach_at: Vec<Reach>,
    /// the joined rows of `Reach::Joined`, `width` cells each, and a row
    /// of zeros at 0 (`Reach::Nothing`)
    joined: Vec<u32>,
    /// per step without events, its `anchor`
    anchors: Vec<Option<usize>>,
    /// per step, `Steps::ends_execution`
    ends: Vec<bool>,
    /// per step, the length of `joined` before its rows
    joined_at: Vec<usize>,
    /// per step, what its events touch (`Seq::summary` joins them)
    touched: Vec<FootprintSummary>,
    /// the clocks' width the tables were made with
    width: usize,
    /// `anchors`' per-process rows
    last_of: Vec<usize>,
    spawn_of: Vec<usize>,
    /// one step's roots while they are gathered
    roots: Vec<(usize, u32)>,
}

impl<'a> Execution<'a> {
    /// The tables of `steps`; those of its first `reuse` steps are kept
    /// from the last execution's (`Steps::shared_with`: the same steps
    /// over the same events, whose clocks the incremental analysis kept).
    fn new(steps: &'a Steps, events: &'a [Event], a: &'a Analysis, ran_out: bool, b: &'a mut StepTables, reuse: usize) -> Execution<'a> {
        let n = steps.node.len();
        let width = a.clocks.width();
        // (a wider clock: every row is laid out anew)
        let keep = if b.width == width { reuse.min(b.reach_at.len()) } else { 0 };
        b.width = width;
        if keep == 0 {
            b.root_entries.clear();
            b.roots_at.clear();
            b.reach_at.clear();
            b.joined_at.clear();
            b.joined.clear();
            b.joined.resize(width, 0);
            b.touched.clear();
        } else {
            b.root_entries.truncate(b.roots_at[keep]);
            b.roots_at.truncate(keep);
            b.reach_at.truncate(keep);
            if keep < b.joined_at.len() {
                b.joined.truncate(b.joined_at[keep]);
            }
            b.joined_at.truncate(keep);
            b.touched.truncate(keep);
        }
        for s in keep..n {
            b.joined_at.push(b.joined.len());
            b.roots_at.push(b.root_entries.len());
            let mut touched = FootprintSummary::default();
            steps.events(s).for_each(|m| touched.add(&events[m].fp));
            b.touched.push(touched);
            b.roots.clear();
            add_roots(&mut b.roots, steps.events(s).map(|m| a.clocks.entry(events, m)));
            b.root_entries.extend_from_slice(&b.roots);
            let span = steps.span(s);
            let reach = if span.is_empty() {
                Reach::Nothing
            } else if events[span.clone()].iter().all(|e| e.fp.proc == events[span.start].fp.proc) {
                // one process's events: the last one's clock is the join
                // (each event's clock includes its process's earlier ones)
                Reach::Row(span.end - 1)
            } else {
                let at = b.joined.len();
                b.joined.resize(at + width, 0);
                for y in span {
                    analysis::join(&mut b.joined[at..], a.clocks.row(y));
                }
                Reach::Joined(at)
            };
            b.reach_at.push(reach);
        }
        b.roots_at.push(b.root_entries.len());
        anchors(steps, events, &a.clocks, b);
        b.ends.clear();
        b.ends.extend((0..n).map(|s| steps.ends_execution(s, !ran_out)));
        #[cfg(debug_assertions)]
        if keep > 0 {
            let mut fresh = StepTables::default();
            Execution::new(steps, events, a, ran_out, &mut fresh, 0);
            assert_eq!((&b.root_entries, &b.roots_at, &b.joined, &b.joined_at, &b.touched), (&fresh.root_entries, &fresh.roots_at, &fresh.joined, &fresh.joined_at, &fresh.touched), "reused step tables differ ({keep} steps kept)");
            assert!(b.reach_at.iter().zip(&fresh.reach_at).all(|(x, y)| x == y) && b.reach_at.len() == fresh.reach_at.len(), "reused reach differs");
        }
        Execution { events, steps, a, last_ends: !ran_out, b }
    }

    /// Event m and, when m is inside an atomic block, the rest of the
    /// block: running m first commits to all of it.
    fn block_rest(&self, m: usize) -> std::ops::RangeInclusive<usize> {
        m..=self.steps.blocks.last(m)
    }

    fn hb(&self, a: usize, b: usize) -> bool {
        self.a.clocks.hb(self.events, a, b)
    }

    /// Some event of some step of `before` happens before some event of
    /// step b, where b stands for the rest of the atomic block it ends in
    /// (see block_rest).
    fn step_hb(&self, before: &[usize], b: usize) -> bool {
        let reach = self.reach(b);
        before.iter().any(|&a| {
            let after = self.roots(a).iter().any(|&(q, v)| reach[q] >= v);
            debug_assert_eq!(after, self.steps.span(b).any(|y| self.steps.events(a).any(|x| self.hb(x, y))));
            after
        })
    }

    /// The first event of each process among step s's events, as clock
    /// entries (an event happens after one of the step's events exactly
    /// when it happens after one of these: the others follow them in
    /// program order).
    #[inline]
    fn roots(&self, s: usize) -> &[(usize, u32)] {
        &self.b.root_entries[self.b.roots_at[s]..self.b.roots_at[s + 1]]
    }

    /// The join of the clocks of step s's span: some event of the span
    /// happens after event x exactly when this reaches x's entry.
    #[inline]
    fn reach(&self, s: usize) -> &[u32] {
        let reach = match self.b.reach_at[s] {
            Reach::Nothing => &self.b.joined[..self.b.width],
            Reach::Row(y) => self.a.clocks.row(y),
            Reach::Joined(at) => &self.b.joined[at..at + self.b.width],
        };
        #[cfg(debug_assertions)]
        {
            let mut join = vec![0; self.b.width];
            for y in self.steps.span(s) {
                analysis::join(&mut join, self.a.clocks.row(y));
            }
            assert_eq!(reach, &join[..], "reach of step {s}");
        }
        reach
    }

    /// The step a race's first event must be moved behind: its own, or the
    /// first step of the atomic block it is in (nothing runs inside one).
    fn race_step(&self, j: usize) -> Option<usize> {
        let s = self.steps.of_event[self.steps.blocks.start(j)];
        (s != NO_STEP).then_some(s)
    }

    /// Steps after `sj` that need not follow it (no event happens after
    /// one of its events), in execution order, up to `limit` (exclusive).
    /// A step inside an atomic block counts with the rest of its block: a
    /// block whose later part must follow sj cannot begin before it either,
    /// and so whatever follows any part of such a block follows sj too (a
    /// flush after the block's first read, when its last write follows sj:
    /// run before the block, it would change what the block reads).
    fn not_after(&self, sj: usize, limit: usize) -> Vec<usize> {
        let free = self.not_after_by_clocks(sj, limit);
        #[cfg(debug_assertions)]
        assert_eq!(free, self.not_after_by_events(sj, limit), "not_after by clock entries differs");
        free
    }

    /// `not_after` event by event (debug builds check the other against it).
    #[cfg(debug_assertions)]
    fn not_after_by_events(&self, sj: usize, limit: usize) -> Vec<usize> {
        let mut roots: Vec<usize> = self.steps.events(sj).collect();
        let mut free = vec![];
        for s in sj + 1..limit {
            let after = |roots: &[usize], m: usize| roots.iter().any(|&x| self.hb(x, m));
            let span = self.steps.span(s);
            let follows = if span.is_empty() {
                self.steps.proc[s] == self.steps.proc[sj] || self.anchor(s).is_some_and(|m| after(&roots, m))
            } else {
                span.clone().any(|m| after(&roots, m))
            };
            if follows && self.steps.in_block(s) {
                roots.extend(span);
            }
            if !follows && !self.steps.ends_execution(s, self.last_ends) {
                free.push(s);
            }
        }
        free
    }

    fn not_after_by_clocks(&self, sj: usize, limit: usize) -> Vec<usize> {
        let mut free = Vec::with_capacity(limit.saturating_sub(sj + 1));
        self.not_after_from(sj, sj + 1, limit, &mut free);
        free
    }

    /// `not_after` over the steps from `from` on, onto `free`: from sj + 1,
    /// or from any later step in an execution without atomic blocks (a
    /// block that must follow sj makes what follows it follow sj too, so
    /// the scan must have passed it).
    fn not_after_from(&self, sj: usize, from: usize, limit: usize, free: &mut Vec<usize>) {
        debug_assert!(from == sj + 1 || !self.steps.has_blocks());
        // events whatever happens after must follow sj: sj's own, and all
        // of every block that must follow it
        // (as clock entries: see `roots`)
        let mut roots: Vec<(usize, u32)> = self.roots(sj).to_vec();
        let after = |roots: &[(usize, u32)], row: &[u32]| match roots {
            // (the common case: sj is one process's step)
            [(q, v)] => row[*q] >= *v,
            _ => roots.iter().any(|&(q, v)| row[q] >= v),
        };
        for s in from..limit {
            let follows = match self.b.reach_at[s] {
                // A step without events (a wait that passed, main's end)
                // still follows its own process's earlier steps.
                Reach::Nothing => self.steps.proc[s] == self.steps.proc[sj] || self.anchor(s).is_some_and(|m| after(&roots, self.a.clocks.row(m))),
                Reach::Row(y) => after(&roots, self.a.clocks.row(y)),
                Reach::Joined(at) => after(&roots, &self.b.joined[at..at + self.b.width]),
            };
            if follows && self.steps.in_block(s) {
                add_roots(&mut roots, self.steps.span(s).map(|m| self.a.clocks.entry(self.events, m)));
            }
            // the step that ended the execution waits for every other
            // thread (main's return, exit: threads.c rt_end_point), so it
            // never goes before anything
            if !follows && !self.b.ends[s] {
                free.push(s);
            }
        }
    }

    /// The event a step without events is ordered after: the last earlier
    /// event of its process, else the spawn of its thread.
    fn anchor(&self, s: usize) -> Option<usize> {
        debug_assert_eq!(self.b.anchors[s], {
            let p = self.steps.proc[s];
            let before = &self.events[..self.steps.start[s]];
            before.iter().rposition(|e| e.fp.proc == p).or_else(|| before.iter().rposition(|e| e.kind == EV_SPAWN && e.aux == p))
        });
        self.b.anchors[s]
    }
}

/// Where the join of the clocks of a step's span is (`Execution::reach`).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Reach {
    /// no events: nothing (a row of zeros)
    Nothing,
    /// the clock row of this event
    Row(usize),
    /// a joined row at this offset of `Execution::joined`
    Joined(usize),
}

/// `Execution::anchor` of every step without events (None for the others),
/// in one pass over the events, into `b.anchors`.
fn anchors(steps: &Steps, events: &[Event], clocks: &analysis::Clocks, b: &mut StepTables) {
    // per process index: its last event so far, and the spawn of its thread
    const NONE: usize = usize::MAX;
    let StepTables { anchors, last_of, spawn_of, .. } = b;
    last_of.clear();
    last_of.resize(clocks.width(), NONE);
    spawn_of.clear();
    spawn_of.resize(clocks.width(), NONE);
    let mut seen = 0;
    anchors.clear();
    anchors.resize(steps.node.len(), None);
    for (s, anchor) in anchors.iter_mut().enumerate() {
        if !steps.events(s).is_empty() {
            continue;
        }
        for (i, e) in events.iter().enumerate().take(steps.start[s]).skip(seen) {
            last_of[clocks.index_of(e.fp.proc).expect("an event's process has an index")] = i;
            if e.kind == EV_SPAWN {
                if let Some(q) = clocks.index_of(e.aux) {
                    spawn_of[q] = i;
                }
            }
        }
        seen = seen.max(steps.start[s]);
        *anchor = clocks.index_of(steps.proc[s]).and_then(|q| [last_of[q], spawn_of[q]].into_iter().find(|&i| i != NONE));
    }
}

/// Add clock entries to a set of roots, keeping the earliest per process.
fn add_roots(roots: &mut Vec<(usize, u32)>, entries: impl Iterator<Item = (usize, u32)>) {
    for (q, v) in entries {
        match roots.iter_mut().find(|r| r.0 == q) {
            Some(r) => r.1 = r.1.min(v),
            None => roots.push((q, v)),
        }
    }
}

/// Source DPOR: add backtrack points to `path` for every race.
pub fn add_backtracks(path: &mut [Node], steps: &Steps, events: &[Event], analysis: &Analysis, ran_out: bool, scratch: &mut Scratch) {
    let x = Execution::new(steps, events, analysis, ran_out, &mut scratch.tables, scratch.shared_steps);
    let proc = |m: usize| x.steps.proc[x.steps.of_event[m]];
    for &(j, i) in &x.a.races {
        let (Some(sj), si) = (x.race_step(j), x.steps.of_event[i]) else { continue };
        if si == NO_STEP || si <= sj {
            continue;
        }
        let k = x.steps.node[sj];
        // the events after step sj that need not follow it, then i; a
        // process whose first such event has no predecessor among them can
        // start an execution in which i comes before j
        let mut seq: Vec<usize> = x.not_after(sj, si).into_iter().flat_map(|s| x.steps.events(s)).collect();
        seq.push(i);
        let mut initials: Vec<u32> = vec![];
        for (n, &m) in seq.iter().enumerate() {
            let p = proc(m);
            if initials.contains(&p) || seq[..n].iter().any(|&l| proc(l) == p) {
                continue;
            }
            // a step runs as a whole, and an atomic block too: it goes
            // first only if none of its events needs an earlier one (its
            // first event may need nothing while a later one does)
            let s = x.steps.of_event[m];
            if x.steps.events(s).chain(x.block_rest(m)).any(|m2| seq[..n].iter().any(|&l| x.hb(l, m2))) {
                continue;
            }
            // a block that sleeps here having done something else does not
            // cover the reversal, and cannot be run instead: not an initial
            // to count on (without another one, every option is explored)
            if x.steps.in_block(s) && sleeps_differently(&path[k], &x.steps.describe(s, path, events, x.last_ends)) {
                if debug_por() {
                    eprintln!("stale sleeper {p}: race {j} -> {i} at node {k}");
                }
                continue;
            }
            initials.push(p);
        }
        if debug_por() {
            eprintln!("  race {j} -> {i}: steps {sj} -> {si}, node {k}, seq {seq:?}, initials {initials:?}");
        }
        path[k].want_one_of(&initials, proc(i), x.steps.in_block(sj));
    }
}

/// A sleeping process (or one explored at a node) stands for the step it
/// took there. For a single access that is enough: whatever it reads, it
/// touches the same thing, and a reversal that starts with it is covered by
/// its explored subtree. An atomic block is several accesses whose later
/// ones depend on the values its earlier ones read (an assume that failed
/// in one execution passes in another and then writes). When a race's
/// reversal starts with such a block and the block that sleeps at the node
/// is a different one (it read other values there), the sleeping block's
/// subtree does not hold the reversal: other processes must go first so
/// that the block reads what it read in the race (the sleeping block would
/// read something else). Such a sleeper is stale for that race.
fn sleeps_differently(node: &Node, step: &Step) -> bool {
    let mut same_proc = node.sleep.iter().chain(&node.explored).filter(|z| z.proc == step.proc).peekable();
    same_proc.peek().is_some() && !same_proc.any(|z| z.same_as(step))
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

/// What optimal DPOR did with the races of one execution.
#[derive(Default, Debug)]
pub struct Insertions {
    pub inserted: u64,
    pub redundant: u64,
    /// races whose reversal could not be written as a step sequence: the
    /// node was opened for every option instead
    pub fallbacks: u64,
}

/// Optimal DPOR: insert a wakeup sequence for every race into the wakeup
/// tree of the node before the race's first step.
pub fn insert_wakeups(path: &mut [Node], steps: &Steps, events: &[Event], analysis: &Analysis, inputs: &Inputs, ran_out: bool, scratch: &mut Scratch) -> Insertions {
    let last_steps = scratch.tables.reach_at.len();
    let reuse = scratch.shared_steps;
    let x = Execution::new(steps, events, analysis, ran_out, &mut scratch.tables, reuse);
    let free_after = &mut scratch.free;
    free_after.keep(reuse, last_steps, x.steps.node.len(), !x.steps.has_blocks());
    let mut out = Insertions::default();
    // each step's description, made (or found kept) when a sequence holding it is inserted
    let described = &mut scratch.described;
    // the steps of each race's sequence (one buffer for them all)
    let mut v: Vec<usize> = vec![];
    // each step's value choices (see `Seq::same_values`), only in an
    // execution that made some
    let step_values: Vec<Vec<u32>> = if path.iter().any(|n| !n.schedule) {
        (0..x.steps.node.len()).map(|s| x.steps.description(s, path, events, x.last_ends).values().collect()).collect()
    } else {
        vec![]
    };
    for &(j, i) in &x.a.races {
        // i in an atomic block: the reversal starts the block (x.race_step)
        let (Some(sj), Some(si)) = (x.race_step(j), x.race_step(i)) else { continue };
        if si <= sj {
            continue;
        }
        let k = x.steps.node[sj];
        // the reversing sequence: every later step that need not follow sj
        // (the rest of the execution, as in the paper), then i's step
        // (races share it; see FreeAfter)
        let free = free_after.get(&x, sj);
        v.clear();
        v.extend(free.iter().copied().filter(|&s| s != si));
        // i's step must be able to go first: nothing in it before i may
        // need sj (what follows i in the step may: it then runs first too)
        if (x.steps.start[si]..i).any(|m| x.steps.events(sj).any(|y| x.hb(y, m))) {
            if debug_por() {
                eprintln!("fallback: race {j} -> {i}, steps {sj} {:?} -> {si} {:?}", x.steps.events(sj), x.steps.events(si));
            }
            out.fallbacks += 1;
            path[k].explore_all = true;
            continue;
        }
        if !room_in_reversal(&x, events, i, sj, si, &v) {
            if debug_por() {
                eprintln!("race {j} -> {i} at node {k}: no room for the store before the flush");
            }
            out.redundant += 1;
            continue;
        }
        v.push(si);
        // A block run last reads other values than it did here (i's value
        // at least), and what it touches after a read depends on the value
        // read: its footprint in the reversal is unknown (see Seq::open).
        let open = x.steps.in_block(si).then_some(si);
        let mut seq = Seq { x: &x, steps: std::mem::take(&mut v), front: 0, open, summary: std::cell::OnceCell::new(), values: &step_values };
        let node = &path[k];
        if node.sleep.iter().chain(&node.explored).any(|z| seq.covered_by_sleeper(z)) {
            if debug_por() {
                eprintln!("redundant (sleeper) race {j} -> {i} at node {k}: v = {:?}", seq.live().iter().map(|&s| (x.steps.proc[s], x.steps.start[s])).collect::<Vec<_>>());
            }
            out.redundant += 1;
            v = seq.steps;
            continue;
        }
        if debug_por() {
            eprintln!("race {j} -> {i} at node {k}: v = {:?}", seq.live().iter().map(|&s| (x.steps.proc[s], x.steps.start[s])).collect::<Vec<_>>());
        }
        let Some(at) = place(&path[k].wut, &mut seq) else {
            if debug_por() {
                eprintln!("redundant (tree) race {j} -> {i} at node {k}");
            }
            out.redundant += 1;
            v = seq.steps;
            continue;
        };
        let rest = &seq;
        let chain = (!rest.live().is_empty()).then(|| {
            let steps = rest.live().iter().map(|&s| {
                let step = described.get(s, &x, path, events);
                if rest.open == Some(s) {
                    Rc::new(Step { open: true, reread: true, values: vec![], ..(*step).clone() })
                } else {
                    step
                }
            });
            WNode::new(steps.collect(), vec![], inputs.clone())
        });
        at.children_of(&mut path[k].wut).extend(chain);
        out.inserted += 1;
        v = seq.steps;
    }
    out
}

/// Can event `i` of step `si` still run when the steps `before` (the rest
/// of a reversing sequence) run ahead of it from step `sj` on? Only a store
/// into a bounded buffer asks: it found room because `m` of its thread's
/// entries had left (aux `4 | m << 8`), so it needs as many of the
/// thread's flushes before it: those before `sj`, in `before` and in its
/// own step before it. Without them the reversal is no execution (the
/// thread waits for room there), and its branch, dropped when it cannot
/// run, would first have covered other sequences that were then lost
/// (n6-3 under PSO with one buffer entry, flushes tried first).
fn room_in_reversal(x: &Execution, events: &[Event], i: usize, sj: usize, si: usize, before: &[usize]) -> bool {
    let store = &events[i];
    if store.kind != crate::channel::EV_STORE || store.aux & 4 == 0 {
        return true;
    }
    let needed = (store.aux >> 8) as usize;
    let own_flush = |m: &usize| events[*m].kind == EV_FLUSH && events[*m].thread == store.thread;
    let earlier = (0..x.steps.start[sj]).filter(own_flush).count();
    let ahead: usize = before.iter().map(|&s| x.steps.events(s).filter(own_flush).count()).sum();
    let own = (x.steps.start[si]..i).filter(own_flush).count();
    earlier + ahead + own >= needed
}

/// A sequence of steps of one execution (a wakeup sequence being inserted).
struct Seq<'a> {
    x: &'a Execution<'a>,
    /// the sequence is `steps[front..]` (`live`): `drop_first_of` takes a
    /// step out by moving the ones before it up one place, and it is called
    /// once per level of a wakeup branch the sequence goes down (`place`),
    /// where the step is nearly always the first. Removing it by shifting
    /// the rest down made a long branch cost its length squared (SV-COMP
    /// pthread/indexer: most of the search's time went into moving step
    /// numbers).
    steps: Vec<usize>,
    front: usize,
    /// the step (an atomic block, the last of a reversal) whose footprint
    /// in the sequence is unknown: it reads other values than in the
    /// execution it comes from. It counts as dependent with every step
    /// before it and with every step not in the sequence, so it goes first
    /// only where nothing precedes it; there it is its process's step in
    /// that state whatever it does.
    open: Option<usize>,
    /// what the sequence's events touch, summarised when first asked
    /// (`weak_initial` of a process not in it)
    summary: std::cell::OnceCell<FootprintSummary>,
    /// the alternatives taken at the value choices inside each step of the
    /// execution (`Step::values`); empty when it made none
    values: &'a [Vec<u32>],
}

impl<'a> Seq<'a> {
    /// The steps of the sequence, in order.
    fn live(&self) -> &[usize] {
        &self.steps[self.front..]
    }

    /// The position in `live` of the first step of `proc`.
    fn first_of(&self, proc: u32) -> Option<usize> {
        self.live().iter().position(|&s| self.x.steps.proc[s] == proc)
    }

    /// Can `z` go first: it is the first step of its process in the
    /// sequence and nothing before it there happens before it, or its
    /// process is not in the sequence and its step is independent of all of it.
    fn weak_initial(&self, z: &Step) -> bool {
        self.weak_initial_of(z.proc, || z)
    }

    /// `weak_initial` of `z`, whose process is `proc`: `z` itself is read
    /// only when `proc` is not in the sequence.
    fn weak_initial_of<'z>(&self, proc: u32, z: impl FnOnce() -> &'z Step) -> bool {
        match self.first_of(proc) {
            Some(n) if self.open == Some(self.live()[n]) => n == 0,
            Some(n) => !self.x.step_hb(&self.live()[..n], self.live()[n]),
            None => {
                let z = z();
                self.open.is_none()
                    && ((!z.open && !z.touched().meets(self.summary()))
                        || !self.live().iter().any(|&s| self.x.steps.events(s).any(|m| self.conflicts(z, m))))
            }
        }
    }

    /// A wakeup branch's step `z` of process `proc` took the same values
    /// at its value choices as that process's step in the sequence (or the
    /// process is not in it). Else, in `place`, `z` is not that step: a
    /// branch that starts with a thread taking one side of a branch on a
    /// nondet value does not cover a sequence where it takes the other (the
    /// branch's continuation reverses races for its side only;
    /// tests/programs/nondet/branch-sides-reversed.c lost an outcome). A
    /// sleeping or explored step covers every value: its value choices
    /// explore all their alternatives below it (checking values there too
    /// made exported programs' searches explode). `z` is read only in an
    /// execution that made value choices.
    fn same_values<'z>(&self, proc: u32, z: impl FnOnce() -> &'z Step) -> bool {
        self.values.is_empty() || self.first_of(proc).is_none_or(|n| self.values[self.live()[n]] == z().values)
    }

    /// What the sequence's events touch (see `FootprintSummary`).
    fn summary(&self) -> &FootprintSummary {
        self.summary.get_or_init(|| {
            let mut t = FootprintSummary::default();
            for &s in self.live() {
                t.union(&self.x.b.touched[s]);
            }
            #[cfg(debug_assertions)]
            {
                let mut by_events = FootprintSummary::default();
                for &s in self.live() {
                    self.x.steps.events(s).for_each(|m| by_events.add(&self.x.events[m].fp));
                }
                assert_eq!(t, by_events, "a sequence's summary by steps differs");
            }
            t
        })
    }

    /// Whether step `z` (of a process not in the sequence) and event m of
    /// the sequence could be dependent: footprints that interfere.
    fn conflicts(&self, z: &Step, m: usize) -> bool {
        let f = &self.x.events[m].fp;
        z.open || z.fps.iter().any(|g| g.interferes(f))
    }

    /// `weak_initial`, event by event where `z` is a proper prefix of its
    /// process's step in the sequence: the rest of that step may well wait
    /// for an earlier step of the sequence (a thread's end waits for its
    /// flushes) while the events `z` ran do not. Then the sequence still
    /// starts, up to equivalence, with `z` (its events are the same: the
    /// same process from the same state, checked footprint by footprint),
    /// so a sequence a sleeping or explored `z` covers is not inserted
    /// again (SB under TSO: 5 executions, now 4 as source DPOR). Falls back
    /// to `weak_initial` for anything else (blocks, value choices, a `z` as
    /// long as the step).
    fn covered_by_sleeper(&self, z: &Step) -> bool {
        let Some(n) = self.first_of(z.proc) else {
            // A sleeping block covers no sequence it is not in: the
            // sequence's process would run it first, and what then follows
            // can need the reversal this one is (the block's subtree
            // deferred it back: fuzz.py --atomic seed 1206, program 40)
            return !z.block && self.weak_initial(z);
        };
        let sn = self.live()[n];
        if self.open == Some(sn) {
            return self.weak_initial(z);
        }
        let ev = self.x.steps.events(sn);
        let m = z.fps.len();
        let prefix = z.values.is_empty() && !z.open && !self.x.steps.in_block(sn) && m > 0 && m < ev.len() && (0..m).all(|d| self.x.events[ev.start + d].fp == z.fps[d]);
        if !prefix {
            return self.weak_initial(z);
        }
        let first = ev.start..ev.start + m;
        !self.live()[..n].iter().any(|&l| self.x.steps.events(l).any(|a| first.clone().any(|b| self.x.hb(a, b))))
    }

    /// Let the next step of `proc` go first: what is left of the sequence after it.
    fn drop_first_of(&mut self, proc: u32) {
        if let Some(n) = self.first_of(proc) {
            let (front, s) = (self.front, self.live()[n]);
            self.steps.copy_within(front..front + n, front + 1);
            self.front += 1;
            if self.open == Some(s) {
                self.open = None;
            }
        }
    }
}

/// Where a new branch goes in a wakeup tree (`place`).
struct Spot {
    /// the child positions taken down the tree
    path: Vec<usize>,
    /// the new branch follows only this many steps of the run of the node
    /// reached (None: all of them, it becomes one of the node's children)
    split: Option<usize>,
}

impl Spot {
    /// The list the new branch joins, in the tree whose top branches are
    /// `top`: a run the branch leaves in its middle is split there, its
    /// rest becoming the first child.
    fn children_of(self, top: &mut Vec<WNode>) -> &mut Vec<WNode> {
        let Some((&last, above)) = self.path.split_last() else { return top };
        let mut children = top;
        for &n in above {
            children = &mut children[n].children;
        }
        let node = &mut children[last];
        if let Some(r) = self.split {
            let rest = WNode { steps: node.steps.split_off(r), heads: node.heads.split_off(r), children: std::mem::take(&mut node.children), inputs: node.inputs.clone() };
            node.children = vec![rest];
        }
        &mut node.children
    }
}

/// Where `w` goes in the wakeup subtrees `children`: down the leftmost
/// branch whose first step is a weak initial of `w`, recursively; returns
/// where it leaves the tree, and leaves in `w` what is left of it to add
/// as a new branch there. None when a branch already covers `w`: a leaf is reached
/// (from there everything is explored), or `w` is used up along an
/// existing branch. Each step of a run is a node with one child.
fn place(mut children: &[WNode], w: &mut Seq) -> Option<Spot> {
    let mut path = vec![];
    'down: loop {
        for (n, c) in children.iter().enumerate() {
            // (see `Step::covers_nothing`)
            let first = c.heads[0];
            if first.covers_nothing() {
                continue;
            }
            if w.weak_initial_of(first.proc(), || c.first()) && w.same_values(first.proc(), || c.first()) {
                w.drop_first_of(first.proc());
                path.push(n);
                for (r, &head) in c.heads.iter().enumerate().skip(1) {
                    // (the step before this one has it as its only child;
                    // the step itself is read only where its head does not
                    // answer)
                    if w.live().is_empty() {
                        return None;
                    }
                    let (proc, z) = (head.proc(), || &*c.steps[r]);
                    if head.covers_nothing() || !w.weak_initial_of(proc, z) || !w.same_values(proc, z) {
                        return Some(Spot { path, split: Some(r) });
                    }
                    w.drop_first_of(proc);
                }
                // a leaf covers what starts with it: from there everything
                // is explored, with the same sleepers (a block whose
                // footprint is unknown is no such promise: the sequences
                // it was taken to cover once went unexplored, each
                // deferring to another, tests/programs/atomic-por/block-leaf.c)
                let last = c.steps.back().expect("a run has steps");
                if w.live().is_empty() || (c.children.is_empty() && !last.reread) {
                    return None;
                }
                children = &c.children;
                continue 'down;
            }
        }
        return Some(Spot { path, split: None });
    }
}

/// The runtime's guide for following a wakeup branch whose first step is
/// taken at the divergence choice itself: that step's value choices, then
/// for each next step down the leftmost path its process and its values.
pub fn guide_for(branch: &WNode) -> Vec<u32> {
    let mut g: Vec<u32> = branch.first().values.clone();
    let mut next_steps = |steps: &mut dyn Iterator<Item = &Rc<Step>>| {
        for step in steps {
            g.push(crate::channel::GUIDE_PROC | step.proc);
            g.extend(&step.values);
        }
    };
    next_steps(&mut branch.steps.iter().skip(1));
    let mut cur = branch;
    while let Some(next) = cur.children.first() {
        next_steps(&mut next.steps.iter());
        cur = next;
    }
    g
}

/// After an execution that followed `branch` from scheduling node `k`: give
/// the new scheduling nodes below it their wakeup subtrees (the siblings of
/// the branch taken there). Where the execution left the branch because
/// the branch's next process could not run, that node keeps the whole
/// rest of the branch as its wakeup subtrees; where it left it for any
/// other reason, that node explores every option.
pub fn hand_down(path: &mut [Node], k: usize, branch: WNode) {
    // the subtrees move down the path (no copies: the branch is used up)
    let mut children = branch.after_first();
    for node in path[k + 1..].iter_mut().filter(|n| n.schedule) {
        let Some(first) = children.first() else { return };
        let proc = first.first_proc();
        if node.options[node.chosen as usize] != proc {
            if debug_por() {
                eprintln!("guide left at event {}: wanted {proc} among {:?}", node.event, node.options);
            }
            if node.option_of(proc).is_none() {
                // the branch's next process cannot run here: the whole
                // subtree stays to explore, and `drop_disabled_branches`
                // removes the branches that start with it
                node.wut = children;
            } else {
                node.explore_all = true;
            }
            return;
        }
        let first = children.remove(0);
        node.wut = children;
        children = first.after_first();
    }
}

/// Stores still buffered when the execution ended never flushed, so no
/// flush event shows their races: a read by another thread of those bytes,
/// after the store, would have seen the store had its flush come first.
/// For each such read, the store's flush process is tried before the read's
/// step (where it is no option, a PSO entry held back by an older one,
/// every flush of that thread is). Source DPOR: backtrack; optimal: a
/// synthetic one-step branch (`add_first_steps`).
pub fn unflushed_at_the_end(path: &mut [Node], steps: &Steps, events: &[Event], optimal: bool) {
    // The common end: as many flushes as buffered stores and none dropped
    // (each flush takes a store of its own process), so none is left. A
    // count is cheaper than the queues below (2% of a short TSO execution).
    let mut left = 0isize;
    for e in events {
        if e.is_buffered_store() {
            left += 1;
        } else if e.kind == EV_FLUSH {
            left -= 1;
        } else if e.kind == crate::channel::EV_DROP {
            left = isize::MIN;
            break;
        }
    }
    if left == 0 && !cfg!(debug_assertions) {
        return;
    }
    // buffered stores by flush process, FIFO; flushes take the oldest
    let mut pending: HashMap<u32, VecDeque<usize>> = HashMap::default();
    for (i, e) in events.iter().enumerate() {
        if e.is_buffered_store() {
            pending.entry(e.aux2).or_default().push_back(i);
        } else if e.kind == EV_FLUSH {
            if let Some(q) = pending.get_mut(&e.fp.proc) {
                q.pop_front();
            }
        } else if e.kind == crate::channel::EV_DROP {
            if let Some(q) = pending.get_mut(&(e.aux)) {
                analysis::forget_dropped(q, events, e);
            }
        }
    }
    let mut unflushed: Vec<(u32, usize)> = pending.into_iter().flat_map(|(p, q)| q.into_iter().map(move |i| (p, i))).collect();
    // in execution order: the branches added below are explored in the
    // order they are added, and a search must not depend on a hash order
    unflushed.sort_unstable_by_key(|&(_, st)| st);
    debug_assert!(left != 0 || unflushed.is_empty(), "stores left buffered where the count says none: {unflushed:?}");
    if unflushed.is_empty() {
        return;
    }
    for (flusher, st) in unflushed {
        let store = &events[st];
        let (lo, hi) = (store.addr, store.addr + store.size.max(1) as u64);
        for (j, e) in events.iter().enumerate().skip(st + 1) {
            let reads = e.fp.reads() && !e.fp.sync() && e.thread != store.thread && e.fp.lo < hi && lo < e.fp.hi;
            let s = steps.of_event[steps.blocks.start(j)];
            if !reads || s == NO_STEP {
                continue;
            }
            let node = &mut path[steps.node[s]];
            let owner = crate::channel::flush_owner(flusher);
            let want: Vec<u32> = match node.option_of(flusher) {
                Some(o) => vec![o],
                None => (0..node.count).filter(|&o| crate::channel::flush_owner(node.options[o as usize]) == owner && owner.is_some()).collect(),
            };
            let awake: Vec<u32> = want.into_iter().filter(|&o| !node.asleep(node.options[o as usize])).collect();
            add_first_steps(node, awake, optimal, false);
        }
    }
}

/// Where a thread waits for room in its full bounded buffer, any flush of
/// it may be the one that makes room, and which entry leaves decides what
/// stays buffered (under PSO several may leave; the flushes commute as
/// events, so no race shows the choice): every flush there of a thread
/// that waits for room is tried (source DPOR: backtracked unless asleep;
/// optimal: a synthetic one-step branch). The runtime names the waiting
/// threads: the flushes of a thread blocked for another reason (at its
/// exit, waiting for its own flushes) make room for no one here, and the
/// reduction finds them where they race as it finds any other.
pub fn room_makers(path: &mut [Node], optimal: bool) {
    for node in path.iter_mut().filter(|n| n.room_waiters != 0 && n.schedule) {
        let waiting = |owner: u32| owner < 64 && node.room_waiters >> owner & 1 != 0;
        let flushes: Vec<u32> = (0..node.count).filter(|&o| crate::channel::flush_owner(node.options[o as usize]).is_some_and(waiting) && !node.asleep(node.options[o as usize])).collect();
        add_first_steps(node, flushes, optimal, false);
    }
}

/// Make sure each of `options` is explored first at `node`: source DPOR's
/// backtrack set, or for optimal DPOR a one-step wakeup branch whose step
/// this execution did not show (open: dependent with everything).
fn add_first_steps(node: &mut Node, options: Vec<u32>, optimal: bool, covering: bool) {
    if optimal {
        for o in options {
            let proc = node.options[o as usize];
            if o != node.chosen && !node.done.contains(o) && !node.wut.iter().any(|w| w.first_proc() == proc) {
                let step = Rc::new(Step { proc, fps: vec![], values: vec![], open: true, covers_nothing: !covering, reread: false, block: false, touched: OnceCell::new() });
                node.wut.push(WNode::new(VecDeque::from([step]), vec![], node.inputs.clone()));
            }
        }
    } else {
        node.backtrack.extend(options);
    }
}

/// The last step of an execution ended it: every other process enabled
/// where that step began is tried there too (see the caller in explore.rs):
/// every other thread, and the flush processes of other threads' buffers (a
/// flush may be what a thread waits for before it can run: a fence, an
/// atomic block, a locked instruction). The step begins at the last
/// scheduling node where another thread could run: later nodes offer only
/// the ending thread and flushes (inside an atomic block, or with the
/// others blocked), so from there on its run is forced, unless a flush
/// there would let another thread run. Source DPOR adds them to the
/// backtrack set unless they sleep; optimal DPOR adds a one-step wakeup
/// branch for each (a step this execution never ran, so it is taken as
/// dependent with everything).
pub fn other_threads_before_the_end(path: &mut [Node], optimal: bool) {
    use crate::channel::flush_owner;
    let mut ending: Option<u32> = None;
    for k in (0..path.len()).rev() {
        let node = &mut path[k];
        if !node.schedule {
            continue;
        }
        let chosen = node.chosen;
        let mine = node.options[chosen as usize];
        if flush_owner(mine).is_some() {
            continue; // a flush step in between
        }
        let ender = *ending.get_or_insert(mine);
        if mine != ender {
            return; // another thread ran after this one's last chance: its run was not forced
        }
        // (a flush of the ender's own buffer enables no other thread, and
        // no one is left to read what it writes)
        let other = |p: u32| p != ender && flush_owner(p) != Some(ender);
        let others: Vec<u32> = (0..node.count).filter(|&o| o != chosen && other(node.options[o as usize])).collect();
        if others.is_empty() {
            continue;
        }
        let awake: Vec<u32> = others.into_iter().filter(|&o| !node.asleep(node.options[o as usize])).collect();
        add_first_steps(node, awake, optimal, true);
        return;
    }
}
