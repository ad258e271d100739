//! Optimal DPOR's wakeup trees. For each race of an execution, the
//! sequence of steps that reverses it is inserted into the wakeup tree of
//! the node before the race's first step, unless a sleeping or explored
//! step there or an existing branch already covers it (`insert_wakeups`,
//! `place`); later executions follow a branch step by step (`guide_for`
//! gives the runtime its guide, `hand_down` the nodes below their subtrees).

use super::*;

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

/// What `place` asks of a step before anything else: its process and
/// whether it covers nothing (`Step::covers_nothing`).
#[derive(Clone, Copy, Debug)]
struct Head {
    proc: u32,
    covers_nothing: bool,
}

impl Head {
    fn of(step: &Step) -> Head {
        Head { proc: step.proc, covers_nothing: step.covers_nothing }
    }
}

impl WNode {
    pub(super) fn new(steps: VecDeque<Rc<Step>>, children: Vec<WNode>, inputs: Inputs) -> WNode {
        debug_assert!(!steps.is_empty());
        let heads = steps.iter().map(|z| Head::of(z)).collect();
        WNode { steps, heads, children, inputs }
    }

    /// The process of the branch's first step.
    pub fn first_proc(&self) -> u32 {
        self.heads[0].proc
    }

    /// The branch's first step.
    pub fn first(&self) -> &Step {
        &self.steps[0]
    }

    /// The subtrees after the first step: the rest of the run, or the children.
    pub(super) fn after_first(self) -> Vec<WNode> {
        let mut after = vec![];
        self.after_first_into(&mut after);
        after
    }

    /// `after_first` into `after` (empty), whose room a run's rest reuses:
    /// following a branch step by step allocated a list per step.
    fn after_first_into(self, after: &mut Vec<WNode>) {
        debug_assert!(after.is_empty());
        let WNode { mut steps, mut heads, children, inputs } = self;
        if steps.len() == 1 {
            *after = children;
            return;
        }
        steps.pop_front();
        heads.pop_front();
        after.push(WNode { steps, heads, children, inputs });
    }
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
    let kept = free_after.keep(reuse, last_steps, x.steps.node.len(), !x.steps.has_blocks());
    let covers = &mut scratch.sleeper_covers;
    covers.resize(x.a.races.len(), None);
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
    for (r, &(j, i)) in x.a.races.iter().enumerate() {
        let cover = covers[r].take();
        // i in an atomic block: the reversal starts the block (x.race_step)
        let (Some(sj), Some(si)) = (x.race_step(j), x.race_step(i)) else { continue };
        if si <= sj {
            continue;
        }
        let k = x.steps.node[sj];
        // the last execution's answer for this race, where it still holds
        // (`SleeperCover`): the race's steps are among the shared steps,
        // the sleeper is still there, and the race is no store that needed
        // room (whose check reads the whole sequence)
        if let Some(c) = cover.filter(|c| si < kept && !needs_room(&events[i]) && path[k].sleep.iter().chain(&path[k].explored).any(|z| Rc::ptr_eq(z, &c.z))) {
            let covered = match c.first {
                // the answer rests on shared steps only
                Some(s) if s < kept && s != si => true,
                Some(s) if s != si => false,
                // the sleeper's process is not in the sequence before i's
                // step, and the sequence's shared part was found
                // independent of it: ask about the rest only
                _ => {
                    let free = free_after.get(&x, sj);
                    reversal_into(&mut v, &free[free.partition_point(|&s| s < kept)..], si);
                    let rest = Seq::new(&x, std::mem::take(&mut v), None, &step_values);
                    let covered = rest.first_of(c.z.proc).is_none_or(|n| n + 1 == rest.live().len()) && rest.covered_by_sleeper(&c.z);
                    v = rest.steps;
                    covered
                }
            };
            if covered {
                #[cfg(debug_assertions)]
                {
                    let mut v = vec![];
                    reversal_into(&mut v, free_after.get(&x, sj), si);
                    assert!(Seq::new(&x, v, None, &step_values).covered_by_sleeper(&c.z), "race {j} -> {i}: the kept sleeper no longer covers it");
                }
                out.redundant += 1;
                covers[r] = Some(c);
                continue;
            }
        }
        // the reversing sequence: every later step that need not follow sj
        // (the rest of the execution, as in the paper), then i's step
        // (races share it; see FreeAfter)
        reversal_into(&mut v, free_after.get(&x, sj), si);
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
        if !room_in_reversal(&x, events, i, sj, si, &v[..v.len() - 1]) {
            if debug_por() {
                eprintln!("race {j} -> {i} at node {k}: no room for the store before the flush");
            }
            out.redundant += 1;
            continue;
        }
        // A block run last reads other values than it did here (i's value
        // at least), and what it touches after a read depends on the value
        // read: its footprint in the reversal is unknown (see Seq::open).
        let open = x.steps.in_block(si).then_some(si);
        let mut seq = Seq::new(&x, std::mem::take(&mut v), open, &step_values);
        let node = &path[k];
        if let Some(z) = node.sleep.iter().chain(&node.explored).find(|z| seq.covered_by_sleeper(z)) {
            covers[r] = seq.open.is_none().then(|| SleeperCover { z: z.clone(), first: seq.first_of(z.proc).map(|n| seq.live()[n]) });
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
    if !needs_room(store) {
        return true;
    }
    let needed = (store.aux >> 8) as usize;
    let own_flush = |m: &usize| events[*m].kind == EV_FLUSH && events[*m].thread == store.thread;
    let earlier = (0..x.steps.start[sj]).filter(own_flush).count();
    let ahead: usize = before.iter().map(|&s| x.steps.events(s).filter(own_flush).count()).sum();
    let own = (x.steps.start[si]..i).filter(own_flush).count();
    earlier + ahead + own >= needed
}

/// The reversing sequence of a race into `v`: the free steps after its
/// first step (`free`, or the part of them wanted) but i's step `si`,
/// then `si`.
fn reversal_into(v: &mut Vec<usize>, free: &[usize], si: usize) {
    v.clear();
    v.extend(free.iter().copied().filter(|&s| s != si));
    v.push(si);
}

/// A store that found room in a bounded buffer only because entries of
/// its thread had left (`room_in_reversal`).
fn needs_room(e: &Event) -> bool {
    e.kind == crate::channel::EV_STORE && e.aux & 4 != 0
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
    fn new(x: &'a Execution<'a>, steps: Vec<usize>, open: Option<usize>, values: &'a [Vec<u32>]) -> Seq<'a> {
        Seq { x, steps, front: 0, open, summary: std::cell::OnceCell::new(), values }
    }

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
                // (step by step, a step whose summary shares no bit with
                // z's conflicts with none of it: most of a long sequence
                // the summary of all of it could not clear)
                let may_conflict = |s: usize| z.open || z.touched().meets(&self.x.b.touched[s]);
                self.open.is_none()
                    && ((!z.open && !z.touched().meets(self.summary()))
                        || !self.live().iter().any(|&s| may_conflict(s) && self.x.steps.events(s).any(|m| self.conflicts(z, m))))
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
            if first.covers_nothing {
                continue;
            }
            if w.weak_initial_of(first.proc, || c.first()) && w.same_values(first.proc, || c.first()) {
                w.drop_first_of(first.proc);
                path.push(n);
                for (r, &head) in c.heads.iter().enumerate().skip(1) {
                    // (the step before this one has it as its only child;
                    // the step itself is read only where its head does not
                    // answer)
                    if w.live().is_empty() {
                        return None;
                    }
                    let (proc, z) = (head.proc, || &*c.steps[r]);
                    if head.covers_nothing || !w.weak_initial_of(proc, z) || !w.same_values(proc, z) {
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
        // (the siblings stay here; without any, the list's room goes on)
        node.wut = if children.is_empty() { vec![] } else { std::mem::take(&mut children) };
        first.after_first_into(&mut children);
    }
}
