//! One execution as the reductions see it: its steps, happens-before
//! between them (from the analysis' clocks) and, for each race's first
//! step, the later steps that need not follow it (`FreeAfter`). Tables
//! that depend only on a prefix of the execution are kept for the next
//! one, which replays that prefix (`Scratch`).

use super::*;

/// What the reductions need to know about one execution.
pub(super) struct Execution<'a> {
    pub(super) events: &'a [Event],
    pub(super) steps: &'a Steps,
    pub(super) a: &'a Analysis,
    /// the last step ended the execution (see `Steps::ends_execution`)
    pub(super) last_ends: bool,
    /// the per-step tables, in buffers the search keeps for the next execution
    pub(super) b: &'a StepTables,
}

/// What the reductions keep from one execution's analysis to the next:
/// the per-step tables, and the free steps after each race's first step.
#[derive(Default)]
pub struct Scratch {
    pub(super) tables: StepTables,
    pub(super) free: FreeAfter,
    pub(super) described: Described,
    /// how many first steps the next execution analysed shares with the
    /// last one (`Scratch::shares`)
    pub(super) shared_steps: usize,
    /// per race of the last execution (by its place in `Analysis::races`),
    /// the sleeper found to cover its wakeup sequence, when that answer
    /// holds for the next execution too (see `SleeperCover`)
    pub(super) sleeper_covers: Vec<Option<SleeperCover>>,
}

/// A race's wakeup sequence was covered by sleeping or explored step `z`
/// (`Seq::covered_by_sleeper`). The sequence of the same race in the next
/// execution is the same over the free steps the two executions share
/// (`FreeAfter::keep`), and only its rest differs. Where `z`'s process
/// first runs in the sequence at a shared step (`first`), the answer rests
/// on the steps up to there only and holds again; where it runs first at
/// the race's own step or not at all, the answer is a conjunction over the
/// sequence's steps, and only the rest needs asking. (lastzero at N = 9
/// under TSO: 4,607 of its 16,640 races answered so; 2% of verify's
/// instructions at N = 12.)
#[derive(Clone)]
pub(super) struct SleeperCover {
    pub(super) z: Rc<Step>,
    /// the step of the sequence where `z`'s process first runs
    pub(super) first: Option<usize>,
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
pub(super) struct FreeAfter {
    lists: Vec<Vec<usize>>,
    /// per step: its list holds the free steps before this one (0: nothing kept)
    upto: Vec<usize>,
}

impl FreeAfter {
    /// For a new execution of `n` steps whose first `keep` are the last
    /// one's (`Steps::shared_with`), which had `last_steps` steps.
    /// Returns how many first steps' lists, and free steps in them, were kept.
    pub(super) fn keep(&mut self, keep: usize, last_steps: usize, n: usize, cacheable: bool) -> usize {
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
        keep
    }

    /// The free steps after sj to the end of `x`.
    pub(super) fn get(&mut self, x: &Execution, sj: usize) -> &[usize] {
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
pub(super) struct StepTables {
    /// per step s, `roots(s)`: entries `roots_at[s]..roots_at[s + 1]`
    root_entries: Vec<(usize, u32)>,
    roots_at: Vec<usize>,
    /// per step, where `reach(s)` is (see `Reach`)
    pub(super) reach_at: Vec<Reach>,
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
    pub(super) touched: Vec<FootprintSummary>,
    /// per step s, `reach(s)` cut to the processes with an index (`procs`
    /// cells), or for a step without events its anchor's clock (zeros
    /// without one), all in one run: `not_after_from` asks the same
    /// process's entry of every later step, and found each step's row in
    /// one of three places (`reach_at`, `anchors`) at several times the cost
    reach_rows: Vec<u32>,
    /// the cells per row of `reach_rows`
    procs: usize,
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
    pub(super) fn new(steps: &'a Steps, events: &'a [Event], a: &'a Analysis, ran_out: bool, b: &'a mut StepTables, reuse: usize) -> Execution<'a> {
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
        reach_rows(keep, n, &a.clocks, b);
        b.ends.clear();
        b.ends.extend((0..n).map(|s| steps.ends_execution(s, !ran_out)));
        #[cfg(debug_assertions)]
        if keep > 0 {
            let mut fresh = StepTables::default();
            Execution::new(steps, events, a, ran_out, &mut fresh, 0);
            assert_eq!((&b.root_entries, &b.roots_at, &b.joined, &b.joined_at, &b.touched), (&fresh.root_entries, &fresh.roots_at, &fresh.joined, &fresh.joined_at, &fresh.touched), "reused step tables differ ({keep} steps kept)");
            assert!(b.reach_at.iter().zip(&fresh.reach_at).all(|(x, y)| x == y) && b.reach_at.len() == fresh.reach_at.len(), "reused reach differs");
            assert_eq!(b.reach_rows, fresh.reach_rows, "reused reach rows differ ({keep} steps kept)");
        }
        Execution { events, steps, a, last_ends: !ran_out, b }
    }

    /// Event m and, when m is inside an atomic block, the rest of the
    /// block: running m first commits to all of it.
    pub(super) fn block_rest(&self, m: usize) -> std::ops::RangeInclusive<usize> {
        m..=self.steps.blocks.last(m)
    }

    pub(super) fn hb(&self, a: usize, b: usize) -> bool {
        self.a.clocks.hb(self.events, a, b)
    }

    /// Some event of some step of `before` happens before some event of
    /// step b, where b stands for the rest of the atomic block it ends in
    /// (see block_rest).
    pub(super) fn step_hb(&self, before: &[usize], b: usize) -> bool {
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
        let reach = self.b.reach_at[s].row(&self.a.clocks, &self.b.joined);
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
    pub(super) fn race_step(&self, j: usize) -> Option<usize> {
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
    pub(super) fn not_after(&self, sj: usize, limit: usize) -> Vec<usize> {
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
        // (the common case: sj is one process's step, and nothing joins
        // the roots on the way)
        let single_root = match self.roots(sj) {
            &[(q, v)] if !self.steps.has_blocks() => Some((q, v)),
            _ => None,
        };
        if let Some((q, v)) = single_root {
            let (procs, proc) = (self.b.procs, self.steps.proc[sj]);
            for s in from..limit {
                // a step without events follows its own process's earlier steps
                let follows = self.b.reach_rows[s * procs + q] >= v || (self.b.reach_at[s] == Reach::Nothing && self.steps.proc[s] == proc);
                if !follows && !self.b.ends[s] {
                    free.push(s);
                }
            }
            return;
        }
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
pub(super) enum Reach {
    /// no events: nothing (a row of zeros)
    Nothing,
    /// the clock row of this event
    Row(usize),
    /// a joined row at this offset of `Execution::joined`
    Joined(usize),
}

impl Reach {
    /// The row itself, in the clocks or in `joined` (`StepTables::joined`).
    fn row<'r>(self, clocks: &'r analysis::Clocks, joined: &'r [u32]) -> &'r [u32] {
        let width = clocks.width();
        match self {
            Reach::Nothing => &joined[..width],
            Reach::Row(y) => clocks.row(y),
            Reach::Joined(at) => &joined[at..at + width],
        }
    }
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

/// `StepTables::reach_rows` from step `keep` on (those before it are
/// kept, unless the number of processes changed), for the `n` steps of
/// the execution; `b.anchors` made already.
fn reach_rows(keep: usize, n: usize, clocks: &analysis::Clocks, b: &mut StepTables) {
    let procs = clocks.procs();
    let keep = if b.procs == procs { keep } else { 0 };
    b.procs = procs;
    let StepTables { joined, anchors, reach_at, reach_rows, .. } = b;
    reach_rows.truncate(keep * procs);
    for s in keep..n {
        let row = match (reach_at[s], anchors[s]) {
            (Reach::Nothing, Some(m)) => clocks.row(m),
            (reach, _) => reach.row(clocks, joined),
        };
        reach_rows.extend_from_slice(&row[..procs]);
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
