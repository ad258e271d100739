//! Happens-before and races of one execution, as vector clocks, computed
//! incrementally: the next execution the search runs replays a prefix of
//! the last one (everything before the choice it flips), so the clocks and
//! races of those events are kept and only the events after them are
//! analysed. An event's clock and races depend only on the events before
//! it, so the result is the same as analysing the whole execution (debug
//! builds check that after every execution).

use crate::channel::{is_pso_flush_proc, Event, Footprint, EV_DROP, EV_FLUSH, EV_JOIN, EV_SPAWN, EV_STORE};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// Dense indices of the processes of one execution, by process id, in the
/// order they first occur (so a replayed prefix keeps its indices). A
/// lookup in every happens-before test: a plain array, not a hash map.
#[derive(Default, Clone)]
struct ProcIndex {
    slots: Vec<u32>,
    /// per index, its process and the event that gave it (ascending)
    given: Vec<(u32, usize)>,
}

impl ProcIndex {
    const NONE: u32 = u32::MAX;

    /// The index of `proc`, given the next free one if it has none (by
    /// event `at`).
    fn insert(&mut self, proc: u32, at: usize) -> usize {
        let p = proc as usize;
        if p >= self.slots.len() {
            self.slots.resize(p + 1, Self::NONE);
        }
        if self.slots[p] == Self::NONE {
            self.slots[p] = self.given.len() as u32;
            self.given.push((proc, at));
        }
        self.slots[p] as usize
    }

    /// Only the indices the first `events` events gave: those of the
    /// execution that shares them (indices go in order of first
    /// occurrence, so they are the first ones).
    fn cut(&mut self, events: usize) {
        let keep = self.given.partition_point(|&(_, at)| at < events);
        for &(p, _) in &self.given[keep..] {
            self.slots[p as usize] = Self::NONE;
        }
        self.given.truncate(keep);
    }

    fn get(&self, proc: u32) -> usize {
        let i = self.slots[proc as usize];
        debug_assert!(i != Self::NONE, "process {proc} has no index");
        i as usize
    }

    fn len(&self) -> usize {
        self.given.len()
    }
}

/// Happens-before over the events of one execution: one clock (a row of
/// `stride` cells, one per process index) per event.
#[derive(Default)]
pub(super) struct Clocks {
    stride: usize,
    index: ProcIndex,
    cells: Vec<u32>,
}

impl Clocks {
    pub(super) fn row(&self, r: usize) -> &[u32] {
        &self.cells[r * self.stride..(r + 1) * self.stride]
    }

    /// The index of `proc` in every row, if it has one (it has one once
    /// it has an event, or its thread has been spawned).
    pub(super) fn index_of(&self, proc: u32) -> Option<usize> {
        let i = *self.index.slots.get(proc as usize)?;
        (i != ProcIndex::NONE).then_some(i as usize)
    }

    /// The length of a row.
    pub(super) fn width(&self) -> usize {
        self.stride
    }

    /// How many processes have an index (the rest of a row is zeros).
    pub(super) fn procs(&self) -> usize {
        self.index.len()
    }

    /// Event a's own entry: (its process's index, its clock there); b
    /// comes after a exactly when b's row reaches that value there.
    pub(super) fn entry(&self, events: &[Event], a: usize) -> (usize, u32) {
        let q = self.index.get(events[a].fp.proc);
        (q, self.row(a)[q])
    }

    /// event a happens before event b (or is b)
    pub(super) fn hb(&self, events: &[Event], a: usize, b: usize) -> bool {
        let q = self.index.get(events[a].fp.proc);
        self.row(b)[q] >= self.row(a)[q]
    }

    /// Room for `width` process indices in every row.
    fn widen(&mut self, width: usize, rows: usize) {
        if width <= self.stride {
            return;
        }
        let stride = width.max(self.stride * 2).max(8);
        let mut cells = vec![0u32; rows * stride];
        for r in 0..rows {
            cells[r * stride..r * stride + self.stride].copy_from_slice(self.row(r));
        }
        self.cells = cells;
        self.stride = stride;
    }
}

/// The races of an execution, as (earlier event, later event) in the order
/// of the later one, with the happens-before clocks they were found with.
#[derive(Default)]
pub struct Analysis {
    pub(super) clocks: Clocks,
    pub(super) races: Vec<(usize, usize)>,
    /// how many first events this execution had in common with the one
    /// analysed before it (their clocks and races were kept)
    shared: usize,
}

impl Analysis {
    /// How many first events this execution had in common with the one
    /// analysed before it.
    pub fn shared(&self) -> usize {
        self.shared
    }

    /// The analysis of `events` from scratch.
    pub(super) fn of(events: &[Event]) -> Analysis {
        let mut a = Analyzer::default();
        a.analyze(events);
        a.analysis
    }

    /// The same, scanning every earlier event for each event (the
    /// reference the index of `Touches` must agree with).
    #[cfg(debug_assertions)]
    fn by_full_scan(events: &[Event]) -> Analysis {
        let mut a = Analyzer { full_scan: true, ..Analyzer::new(None) };
        a.analyze(events);
        a.analysis
    }
}

/// The analysis of the last execution, kept for the next.
#[derive(Default)]
pub struct Analyzer {
    events: Vec<Event>,
    analysis: Analysis,
    touches: Touches,
    /// the last sweep's buffers, for the next to reuse
    buffers: SweepBuffers,
    /// room for one event's candidates (`Touches::candidates`)
    candidates: Vec<u32>,
    /// when the search must stop (--timeout): one execution can hold a
    /// million events, and its analysis must not run on for minutes
    deadline: Option<std::time::Instant>,
    /// debug builds' reference: no index, no reuse
    #[cfg(debug_assertions)]
    full_scan: bool,
}

/// The earlier events that may be dependent with an event: for memory,
/// those touching the same 8-byte words (an event over more than
/// `WIDE_WORDS` words is kept in one list that every memory event scans,
/// and scans every earlier event itself), for a synchronisation object
/// those using it. Events of one process are ordered without it. Lists
/// hold event indices in increasing order.
///
/// A read depends only on writes, so the writes of each word have a list
/// of their own: a thread spinning on a word reads it thousands of times,
/// and each read scanning every earlier read of it made the analysis of
/// such an execution quadratic (sv-benchmarks ring_2w1r-2 never finished).
///
/// Each word's lists also count their entries per process
/// (`ProcCounts`): the scan of an event's candidates stops once every
/// process in them is done, where it waited for every process of the
/// execution, and ran to the start of the list whenever one never touched
/// the word (an execution of 100,000 steps of two threads spinning on two
/// flags took seconds to analyse under PSO).
#[derive(Default)]
struct Touches {
    words: FxHashMap<u64, (Vec<u32>, ProcCounts)>,
    written: FxHashMap<u64, (Vec<u32>, ProcCounts)>,
    objects: FxHashMap<u64, Vec<u32>>,
    wide: Vec<u32>,
    /// every list entry in the order it was added, to take the lists back
    /// to a prefix of the events (`truncate`) without building them again
    log: Vec<Touch>,
}

/// The processes with entries in a list, each with its number of entries.
type ProcCounts = Vec<(u32, u32)>;

fn count_in(procs: &mut ProcCounts, proc: u32) {
    match procs.iter_mut().find(|(p, _)| *p == proc) {
        Some((_, n)) => *n += 1,
        None => procs.push((proc, 1)),
    }
}

fn count_out(procs: &mut ProcCounts, proc: u32) {
    let k = procs.iter().position(|(p, _)| *p == proc).expect("a counted process");
    procs[k].1 -= 1;
    if procs[k].1 == 0 {
        procs.swap_remove(k);
    }
}

/// Where `Touches::add` put an event.
#[derive(Clone, Copy)]
enum Touch {
    Word(u64),
    Written(u64),
    Object(u64),
    Wide,
}

const WIDE_WORDS: u64 = 16;

/// What `Footprint::memory_conflict` takes for a memory access.
fn is_memory(f: &Footprint) -> bool {
    !f.sync() && (f.reads() || f.writes())
}

/// The words `f` overlaps by `Footprint::overlaps` (an empty range at lo
/// overlaps the ranges around lo).
pub(super) fn words(f: &Footprint) -> std::ops::Range<u64> {
    let first = f.lo >> 3;
    first..((f.hi.saturating_add(7)) >> 3).max(first + 1)
}

impl Touches {
    /// Forget the events from `n` on (the lists are in event order, and so
    /// is the log: the entries to drop are the last ones of both).
    /// `events` are those the lists were made of.
    fn truncate(&mut self, n: usize, events: &[Event]) {
        while let Some(&touch) = self.log.last() {
            let (list, procs) = match touch {
                Touch::Word(w) => self.words.get_mut(&w).map(|(l, c)| (l, Some(c))),
                Touch::Written(w) => self.written.get_mut(&w).map(|(l, c)| (l, Some(c))),
                Touch::Object(o) => self.objects.get_mut(&o).map(|l| (l, None)),
                Touch::Wide => Some((&mut self.wide, None)),
            }
            .expect("a logged list");
            let last = *list.last().expect("a logged entry") as usize;
            if last < n {
                break;
            }
            list.pop();
            if let Some(procs) = procs {
                count_out(procs, events[last].fp.proc);
            }
            self.log.pop();
        }
    }

    fn add(&mut self, f: &Footprint, i: usize) {
        if f.sync() {
            self.objects.entry(f.lo).or_default().push(i as u32);
            self.log.push(Touch::Object(f.lo));
        } else if is_memory(f) {
            let w = words(f);
            if w.end - w.start > WIDE_WORDS {
                self.wide.push(i as u32);
                self.log.push(Touch::Wide);
            } else {
                for word in w {
                    let (list, procs) = self.words.entry(word).or_default();
                    list.push(i as u32);
                    count_in(procs, f.proc);
                    self.log.push(Touch::Word(word));
                    if f.writes() {
                        let (list, procs) = self.written.entry(word).or_default();
                        list.push(i as u32);
                        count_in(procs, f.proc);
                        self.log.push(Touch::Written(word));
                    }
                }
            }
        }
    }

    /// The events before `i` that may be dependent with `f`, latest first,
    /// into `out`; and, where they are one word's list, the processes
    /// they belong to (else None: any process may be among them).
    fn candidates(&self, f: &Footprint, i: usize, out: &mut Vec<u32>) -> Option<&ProcCounts> {
        out.clear();
        if f.sync() {
            if let Some(l) = self.objects.get(&f.lo) {
                out.extend(l.iter().rev());
            }
            return None;
        }
        if !is_memory(f) {
            return None;
        }
        let w = words(f);
        if w.end - w.start > WIDE_WORDS {
            out.extend((0..i as u32).rev());
            return None;
        }
        // a pure read: the writes are its only dependent events
        let by_word = if f.writes() { &self.words } else { &self.written };
        let mut lists = 0;
        let mut procs = None;
        for word in w {
            if let Some((l, p)) = by_word.get(&word) {
                out.extend(l);
                lists += 1;
                procs = Some(p);
            }
        }
        out.extend(&self.wide);
        if lists > 1 || !self.wide.is_empty() {
            out.sort_unstable();
            out.dedup();
            procs = None;
        }
        out.reverse();
        procs
    }
}

impl Analyzer {
    /// An analyzer that gives up on an execution once `deadline` passes.
    pub fn new(deadline: Option<std::time::Instant>) -> Analyzer {
        Analyzer { deadline, ..Default::default() }
    }

    /// The analysis of `events`, reusing what the last one found for the
    /// events the two executions share from the start; None when the
    /// deadline passed first (nothing of it is kept then).
    pub fn analyze(&mut self, events: &[Event]) -> Option<&Analysis> {
        #[allow(unused_mut)]
        let mut shared = self.events.iter().zip(events).take_while(|(a, b)| a == b).count();
        #[cfg(debug_assertions)]
        if self.full_scan {
            shared = 0;
        }
        // the lists hold the last execution's events: keep the shared ones
        self.touches.truncate(shared, &self.events);
        self.analysis.shared = shared;
        let mut sweep = Sweep::resume(&mut self.analysis, std::mem::take(&mut self.buffers), events, shared);
        let mut candidates = std::mem::take(&mut self.candidates);
        for i in shared..events.len() {
            if (i - shared) % 4096 == 4095 && self.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                self.events.clear();
                return None;
            }
            #[allow(unused_mut)]
            let mut procs = self.touches.candidates(&events[i].fp, i, &mut candidates);
            #[cfg(debug_assertions)]
            if self.full_scan {
                candidates = (0..i as u32).rev().collect();
                procs = None;
            }
            sweep.add(events, i, &candidates, procs);
            self.touches.add(&events[i].fp, i);
        }
        self.buffers = sweep.into_buffers();
        self.candidates = candidates;
        self.events.truncate(shared);
        self.events.extend_from_slice(&events[shared..]);
        #[cfg(debug_assertions)]
        if !self.full_scan {
            self.check_against_full_scan(events);
        }
        Some(&self.analysis)
    }

    /// The result equals the one from scratch by full scans.
    #[cfg(debug_assertions)]
    fn check_against_full_scan(&self, events: &[Event]) {
        let fresh = Analysis::by_full_scan(events);
        let (a, b) = (&self.analysis, &fresh);
        assert_eq!(a.races, b.races, "incremental race analysis differs from the analysis from scratch");
        let width = b.clocks.index.len();
        assert_eq!(a.clocks.index.len(), width);
        for i in 0..events.len() {
            assert_eq!(&a.clocks.row(i)[..width], &b.clocks.row(i)[..width], "incremental clock of event {i} differs");
        }
    }
}

/// The state of one pass over an execution's events, at some event.
struct Sweep<'a> {
    a: &'a mut Analysis,
    /// processes with an event so far (how many; which: `b.seen`)
    present: usize,
    b: SweepBuffers,
}

/// The per-process state of a `Sweep` and its scratch rows, kept from one
/// execution's analysis to the next so that each analysis does not
/// allocate them again: `Sweep::resume` resets what they hold and keeps
/// their room.
#[derive(Default)]
struct SweepBuffers {
    /// the process index of each event so far
    pidx: Vec<usize>,
    /// each process's clock after its last event (a spawned thread: its spawn's)
    proc_clock: Vec<Vec<u32>>,
    /// per thread: the join of the clocks of its buffers' flushes, and those flushes
    flushed: Vec<Vec<u32>>,
    flushes_of: Vec<Vec<usize>>,
    /// each flush process's buffered stores not yet flushed (FIFO), as event indices
    pending_stores: Vec<VecDeque<usize>>,
    /// processes with an event so far
    seen: Vec<bool>,
    // scratch rows of the per-event loop
    c: Vec<u32>,
    covered: Vec<u32>,
    done: Vec<bool>,
    later: Vec<u32>,
    racing_flushes: Vec<usize>,
}

impl SweepBuffers {
    /// As new for an execution of `threads` threads (the per-process rows
    /// are zeros, as long as before: `Sweep::widen` makes them longer).
    fn reset(&mut self, threads: usize) {
        self.proc_clock.iter_mut().for_each(|v| v.fill(0));
        self.flushed.resize_with(threads, Vec::new);
        self.flushed.iter_mut().for_each(|v| v.fill(0));
        self.flushes_of.resize_with(threads, Vec::new);
        self.flushes_of.iter_mut().for_each(Vec::clear);
        self.pending_stores.iter_mut().for_each(VecDeque::clear);
        self.seen.fill(false);
        self.c.fill(0);
        self.covered.fill(0);
        self.done.fill(false);
        self.later.fill(0);
        self.racing_flushes.clear();
    }
}

impl<'a> Sweep<'a> {
    /// The buffers, for the next sweep.
    fn into_buffers(self) -> SweepBuffers {
        self.b
    }

    /// The state after the first `shared` events, which `a` holds the
    /// analysis of: rebuilt from their clocks in one pass, instead of
    /// analysing them again. `buffers`: room to reuse (their contents
    /// are reset here: every row to zeros, every list to empty, as new).
    fn resume(a: &'a mut Analysis, buffers: SweepBuffers, events: &[Event], shared: usize) -> Sweep<'a> {
        let threads = events.iter().map(|e| 1 + thread_of(e)).max().unwrap_or(1);
        let mut b = buffers;
        b.reset(threads);
        // the prefix's processes keep their indices (order of first
        // occurrence), and its events their processes' indices
        a.clocks.index.cut(shared);
        b.pidx.truncate(shared);
        #[cfg(debug_assertions)]
        {
            let mut index = ProcIndex::default();
            let pidx: Vec<usize> = events[..shared].iter().enumerate().map(|(i, e)| {
                let p = index.insert(e.fp.proc, i);
                created(e).for_each(|q| { index.insert(q, i); });
                p
            }).collect();
            assert_eq!((b.pidx.as_slice(), &index.given), (pidx.as_slice(), &a.clocks.index.given), "kept process indices differ");
        }
        a.clocks.cells.truncate(shared * a.clocks.stride);
        let first_new = a.races.partition_point(|&(_, i)| i < shared);
        a.races.truncate(first_new);
        let mut sweep = Sweep { a, present: 0, b };
        let width = sweep.a.clocks.index.len();
        sweep.widen(width);
        let stride = sweep.a.clocks.stride;
        sweep.b.flushed.iter_mut().for_each(|f| f.resize(stride, 0));
        let mut clock_set = vec![false; width];
        for i in (0..shared).rev() {
            let e = &events[i];
            let mut set = |q: usize, sweep: &mut Sweep| {
                if !clock_set[q] {
                    clock_set[q] = true;
                    sweep.b.proc_clock[q].copy_from_slice(sweep.a.clocks.row(i));
                }
            };
            set(sweep.b.pidx[i], &mut sweep);
            if e.kind == EV_SPAWN {
                set(sweep.a.clocks.index.get(e.aux), &mut sweep);
            }
        }
        for (i, e) in events[..shared].iter().enumerate() {
            let p = sweep.b.pidx[i];
            if !sweep.b.seen[p] {
                sweep.b.seen[p] = true;
                sweep.present += 1;
            }
            if e.kind == EV_FLUSH {
                sweep.b.pending_stores[p].pop_front();
                let t = owner_of_flush(e);
                sweep.b.flushes_of[t].push(i);
                join(&mut sweep.b.flushed[t], sweep.a.clocks.row(i));
            }
            if e.is_buffered_store() {
                let q = sweep.a.clocks.index.get(e.aux2);
                sweep.b.pending_stores[q].push_back(i);
            }
            if e.kind == EV_DROP {
                let q = sweep.a.clocks.index.get(e.aux);
                forget_dropped(&mut sweep.b.pending_stores[q], events, e);
            }
        }
        sweep
    }

    /// Room for `width` process indices everywhere.
    fn widen(&mut self, width: usize) {
        let rows = self.b.pidx.len();
        self.a.clocks.widen(width, rows);
        let stride = self.a.clocks.stride;
        for v in self.b.proc_clock.iter_mut().chain(&mut self.b.flushed) {
            v.resize(stride, 0);
        }
        self.b.proc_clock.resize_with(stride, || vec![0; stride]);
        self.b.pending_stores.resize(stride, VecDeque::new());
        self.b.seen.resize(stride, false);
        self.b.c.resize(stride, 0);
        self.b.covered.resize(stride, 0);
        self.b.later.resize(stride, 0);
        self.b.done.resize(stride, false);
    }

    fn index(&mut self, proc: u32, at: usize) -> usize {
        let q = self.a.clocks.index.insert(proc, at);
        if q >= self.a.clocks.stride {
            self.widen(q + 1);
        }
        q
    }

    /// Analyse event i, every earlier one done; `candidates` are the
    /// earlier events that may be dependent with it, latest first, and
    /// `procs` the processes they belong to where known.
    fn add(&mut self, events: &[Event], i: usize, candidates: &[u32], procs: Option<&ProcCounts>) {
        let e = &events[i];
        let f = &e.fp;
        let p = self.index(f.proc, i);
        for q in created(e) {
            self.index(q, i);
        }
        self.b.pidx.push(p);
        debug_assert_eq!(self.a.clocks.cells.len(), i * self.a.clocks.stride);
        let Sweep { a, present, b } = self;
        let SweepBuffers { pidx, proc_clock, flushed, flushes_of, pending_stores, seen, c, covered, done, later, racing_flushes } = b;
        let Analysis { clocks: ev, races, .. } = &mut **a;
        c.copy_from_slice(&proc_clock[p]);
        if e.kind == EV_FLUSH {
            if let Some(store) = pending_stores[p].pop_front() {
                join(c, ev.row(store));
            }
            // PSO: after the flushes of older entries it may not overtake:
            // overlapping ones, and those before a store-store barrier
            // (under TSO the thread's one flush process orders them already)
            let t = owner_of_flush(e);
            let older: &[usize] = if is_pso_flush_proc(f.proc) { &flushes_of[t] } else { &[] };
            for &j in older {
                if events[j].fp.write_write(f) || epoch_of_flush(&events[j]) < epoch_of_flush(e) {
                    join(c, ev.row(j));
                }
            }
        } else if let Some(m) = room_needed(e, flushes_of[e.thread as usize].len()) {
            // a store into a bounded buffer that fits because the thread's
            // first m flushes made room: after those, not the later ones.
            // Under PSO they race with it: other entries of the thread could
            // have left instead (flushes of different addresses commute, so
            // no other race shows which ones left first).
            // (one pass from the latest back, with the join of the later
            // ones: the scan of every pair made long bounded runs cubic)
            let needed = &flushes_of[e.thread as usize][..m];
            match needed.last() {
                Some(&last) if !is_pso_flush_proc(events[last].fp.proc) => join(c, ev.row(last)), // TSO: one flush process, its last flush knows the others
                _ => {
                    later.iter_mut().for_each(|x| *x = 0);
                    let first_race = racing_flushes.len();
                    for &j in needed.iter().rev() {
                        let q = pidx[j];
                        let row = ev.row(j);
                        // a needed flush that another one follows is no race
                        if later[q] < row[q] && row[q] > c[q] {
                            racing_flushes.push(j);
                        }
                        join(later, row);
                    }
                    join(c, later);
                    racing_flushes[first_race..].reverse();
                    races.extend(racing_flushes.drain(first_race..).map(|j| (j, i)));
                }
            }
        } else if f.after_flushes() {
            join(c, &flushed[e.thread as usize]);
        }
        // races: dependent earlier events of other processes that happen
        // before i through no other race or edge (the latest ones). An
        // event of q that `covered` knows makes every earlier one of q
        // known too, so the scan stops once that holds for every process.
        covered.copy_from_slice(c);
        done.iter_mut().for_each(|d| *d = false);
        let mut n_done = 0;
        // the processes among the candidates: once each is done, the rest
        // of the list holds nothing more
        let in_list = procs.map_or(*present, |l| l.len());
        for &j in candidates {
            let j = j as usize;
            let q = pidx[j];
            if done[q] {
                continue;
            }
            if ev.row(j)[q] <= covered[q] {
                done[q] = true;
                n_done += 1;
                if n_done == in_list {
                    break;
                }
                continue;
            }
            let g = &events[j].fp;
            if g.proc == f.proc || !racing(g, f) {
                continue;
            }
            races.push((j, i));
            join(covered, ev.row(j));
        }
        // happens-before from conflicts: the latest dependent event of each
        // other process dominates that process's earlier ones
        done.iter_mut().for_each(|d| *d = false);
        let mut n_done = 0;
        let mut to_do = in_list;
        if seen[p] {
            done[p] = true;
            n_done = 1;
            if procs.is_some_and(|l| !l.iter().any(|&(q, _)| q == f.proc)) {
                to_do += 1;
            }
        }
        for &j in candidates {
            if n_done == to_do {
                break;
            }
            let j = j as usize;
            let q = pidx[j];
            if done[q] {
                continue;
            }
            if ev.row(j)[q] <= c[q] {
                done[q] = true;
                n_done += 1;
            } else if events[j].fp.dependent(f) {
                done[q] = true;
                n_done += 1;
                join(c, ev.row(j));
            }
        }
        if !seen[p] {
            seen[p] = true;
            *present += 1;
        }
        c[p] += 1;
        match e.kind {
            EV_SPAWN => {
                // the child starts after this event
                let child = ev.index.get(e.aux);
                proc_clock[child].copy_from_slice(c);
            }
            EV_JOIN => {
                // after everything the joined thread and its buffers did
                let u = ev.index.get(e.aux);
                join(c, &proc_clock[u]);
                join(c, &flushed[e.aux as usize]);
            }
            EV_FLUSH => {
                let t = owner_of_flush(e);
                join(&mut flushed[t], c);
                flushes_of[t].push(i);
            }
            _ => {}
        }
        if e.is_buffered_store() {
            pending_stores[ev.index.get(e.aux2)].push_back(i);
        }
        if e.kind == EV_DROP {
            forget_dropped(&mut pending_stores[ev.index.get(e.aux)], events, e);
        }
        proc_clock[p].copy_from_slice(c);
        // (event i's row, the next one: the rows of earlier events only
        // are read above)
        ev.cells.extend_from_slice(c);
    }
}

/// The thread an event belongs to (a flush: the thread whose buffer it empties).
fn thread_of(e: &Event) -> usize {
    let t = if e.kind == EV_FLUSH { owner_of_flush(e) } else { e.thread as usize };
    if e.kind == EV_SPAWN || e.kind == EV_JOIN {
        t.max(e.aux as usize)
    } else {
        t
    }
}

/// Processes an event brings into being besides its own: a spawned
/// thread, the flush process of a buffered store.
fn created(e: &Event) -> impl Iterator<Item = u32> {
    let spawned = (e.kind == EV_SPAWN).then_some(e.aux);
    let flusher = e.is_buffered_store().then_some(e.aux2);
    spawned.into_iter().chain(flusher)
}

fn racing(a: &Footprint, b: &Footprint) -> bool {
    a.proc != b.proc && (a.memory_conflict(b) || (a.same_object(b) && ((!a.release() && !b.release()) || a.try_use() || b.try_use())))
}

/// A buffered store that has room in its bounded buffer only because the
/// thread's first m flushes made it (of `flushes_so_far`): Some(m).
fn room_needed(e: &Event, flushes_so_far: usize) -> Option<usize> {
    (e.kind == EV_STORE && e.aux & 0xff == 4).then(|| ((e.aux >> 8) as usize).min(flushes_so_far))
}

/// a = max(a, b), element by element: the join of two vector clocks.
pub(super) fn join(a: &mut [u32], b: &[u32]) {
    // Rows are as wide as the execution has processes, and under PSO each
    // (thread, address) buffer is one: hundreds in a program that stores
    // to an array. The baseline x86-64 build has no unsigned 32-bit max
    // (five SSE2 instructions per four entries), AVX2 has one for eight;
    // it pays from two of those (lastzero at N = 9, 32-entry rows: 3% of
    // verify's instructions with the threshold at 16 instead of 64).
    #[cfg(target_arch = "x86_64")]
    if a.len() >= 16 && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just now
        return unsafe { join_avx2(a, b) };
    }
    join_entries(a, b)
}

#[inline(always)]
fn join_entries(a: &mut [u32], b: &[u32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn join_avx2(a: &mut [u32], b: &[u32]) {
    join_entries(a, b)
}

pub(super) fn owner_of_flush(e: &Event) -> usize {
    (e.aux2 & 0xff) as usize
}

fn epoch_of_flush(e: &Event) -> u32 {
    e.aux2 >> 8
}

/// A buffered store dropped with its memory (EV_DROP) never flushes: take it
/// out of its flush process's queue, or the process's next flush would be
/// matched with it instead of its own store (and ordered after the wrong
/// one: a reversal could then start with the flush of an entry not yet
/// stored). The oldest pending store with the entry's range is the one;
/// returns it.
pub fn forget_dropped(queue: &mut std::collections::VecDeque<usize>, events: &[Event], drop: &Event) -> Option<usize> {
    let k = queue.iter().position(|&s| events[s].addr == drop.addr && events[s].size == drop.size)?;
    queue.remove(k)
}

#[cfg(test)]
mod join_tests {
    use super::join;

    /// Wide rows take the AVX2 path where the CPU has it: the join is the
    /// unsigned maximum there too (a signed one would lose clocks from
    /// 2^31 on), at every length around the vector width.
    #[test]
    fn join_is_the_unsigned_maximum_at_every_width() {
        let mut seed = 0x2545f4914f6cdd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // small clocks mostly, and some with the top bit set
            if seed % 5 == 0 { (seed >> 32) as u32 | 0x8000_0000 } else { (seed % 1000) as u32 }
        };
        for width in [0, 1, 7, 8, 9, 63, 64, 65, 100, 511, 512, 1000] {
            let a: Vec<u32> = (0..width).map(|_| next()).collect();
            let b: Vec<u32> = (0..width).map(|_| next()).collect();
            let mut got = a.clone();
            join(&mut got, &b);
            let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| if x > y { *x } else { *y }).collect();
            assert_eq!(got, want, "width {width}");
        }
    }
}
