//! Dynamic partial order reduction (Flanagan and Godefroid's DPOR, over
//! processes: every thread, and one flush process per store buffer: per
//! thread under TSO, per thread and address under PSO).
//!
//! After an execution, every pair of dependent events of different processes
//! that is not ordered by happens-before is a race; for the last such earlier
//! event `j` of each event `i`, the scheduling node just before `j` gets `i`'s
//! process added to its backtrack set (or, if that process could not be
//! chosen there, every option). Only backtrack entries are explored, so one
//! execution per class of equivalent interleavings is enough, rather than
//! every interleaving.
//!
//! Dependency is over footprints taken from the event log: memory reads and
//! writes (byte ranges; a flush is a write by the flush process; a load
//! reads its whole range even when its own buffer answers, since the own
//! entry may reach memory and be overwritten first), and sync objects
//! (mutex, condition variable, atomic block). Happens-before also has the
//! edges that are not conflicts: a thread's creation before its first step,
//! a joined thread's last step before the join, a buffered store before the
//! flush of its entry (FIFO per flush process), under PSO the flushes of a
//! thread's older overlapping entries and of entries before a store-store
//! barrier before a flush, and a thread's flushes before its next
//! draining step (fence, locked operation, sync call, exit) and before a
//! store that had to evict an entry to make room. Choice nodes that pick a value (nondet, a
//! PSO eviction) are not scheduling choices and are explored in full.

use crate::channel::{Choice, Event};
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
pub struct Node {
    pub count: u32,
    pub chosen: u32,
    pub schedule: bool,
    /// process id of each option (scheduling nodes)
    pub options: Vec<u16>,
    /// option indices to explore / already explored
    pub backtrack: BTreeSet<u32>,
    pub done: BTreeSet<u32>,
    /// first event after the choice
    pub event: u32,
}

impl Node {
    pub fn from_choice(c: &Choice, option_procs: &[u16]) -> Node {
        let schedule = c.kind == crate::channel::CH_SCHEDULE;
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
            backtrack: BTreeSet::from([c.chosen]),
            done: BTreeSet::from([c.chosen]),
            event: c.event,
        }
    }

    /// The next alternative to explore here, if any.
    pub fn next(&self) -> Option<u32> {
        if self.schedule {
            self.backtrack.difference(&self.done).next().copied()
        } else {
            (self.chosen + 1 < self.count).then_some(self.chosen + 1)
        }
    }

    /// Make sure one of `initials` (processes that can start the reversed
    /// race) is explored here; when none of them is an option, explore all.
    /// `preferred` (the racing process) is taken when it is one of them.
    fn want_one_of(&mut self, initials: &[u16], preferred: u16) {
        let index = |q: &u16| self.options.iter().position(|p| p == q).map(|i| i as u32);
        let candidates: Vec<u32> = initials.iter().filter_map(index).collect();
        if candidates.is_empty() {
            self.backtrack.extend(0..self.count);
        } else if !candidates.iter().any(|c| self.backtrack.contains(c)) {
            let pick = index(&preferred).filter(|c| candidates.contains(c)).unwrap_or(candidates[0]);
            self.backtrack.insert(pick);
        }
    }
}

/// What an event touches, for the dependency relation.
#[derive(Clone, Copy, Debug, Default)]
struct Footprint {
    proc: u16,
    read: Option<(u64, u64)>,
    write: Option<(u64, u64)>,
    object: Option<u64>,
    /// a release (mutex unlock, end of an atomic block): it orders later
    /// acquires of its object but does not race with them
    release: bool,
}

const ATOMIC_BLOCK_OBJECT: u64 = 1;

fn footprint(e: &Event) -> Footprint {
    let range = Some((e.addr, e.addr + (e.size as u64).max(1)));
    let mut f = Footprint { proc: e.thread, ..Default::default() };
    match e.kind {
        1 => f.read = range,                           // load
        2 if e.aux == 0 => f.write = range,           // store straight to memory
        3 => {
            f.proc = e.aux as u16; // flush: the buffer's process
            f.write = range;
        }
        5 | 6 => {
            f.read = range;
            f.write = range;
        }
        10 | 16 | 17 => f.object = Some(e.addr),
        11 => {
            f.object = Some(e.addr);
            f.release = true;
        }
        14 => f.object = Some(ATOMIC_BLOCK_OBJECT),
        15 => {
            f.object = Some(ATOMIC_BLOCK_OBJECT);
            f.release = true;
        }
        18 => f.write = Some((e.addr, e.addr + e.value.max(1))),
        _ => {}
    }
    f
}

fn overlap(a: Option<(u64, u64)>, b: Option<(u64, u64)>) -> bool {
    matches!((a, b), (Some((a0, a1)), Some((b0, b1))) if a0 < b1 && b0 < a1)
}

/// Ordered by happens-before when they occur in this order.
fn dependent(a: &Footprint, b: &Footprint) -> bool {
    if a.proc == b.proc {
        return true;
    }
    overlap(a.write, b.write)
        || overlap(a.write, b.read)
        || overlap(a.read, b.write)
        || (a.object.is_some() && a.object == b.object)
}

/// A race worth reversing: dependent, and not a release against an acquire
/// (two acquires of the same lock race; the release before an acquire only
/// orders them, and reversing it would just block the acquirer).
fn racing(a: &Footprint, b: &Footprint) -> bool {
    dependent(a, b) && !(a.object.is_some() && a.object == b.object && (a.release || b.release) && !overlap(a.write, b.write))
}

/// Thread events that wait for the thread's flushes so far: those that
/// drain the buffer, and a store that had to evict the oldest entry of a
/// full buffer first.
fn drains(e: &Event) -> bool {
    matches!(e.kind, 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 14 | 15 | 16 | 17) || (e.kind == 2 && e.aux != 1)
}

/// Vector clocks of all events in one flat table, over the processes that
/// occur in the execution (each process id gets a dense index).
struct Clocks {
    width: usize,
    index: std::collections::HashMap<u16, usize>,
    cells: Vec<u32>,
}

impl Clocks {
    fn index(&self, proc: u16) -> usize {
        self.index[&proc]
    }
    fn row(&self, r: usize) -> &[u32] {
        &self.cells[r * self.width..(r + 1) * self.width]
    }
}

fn join(a: &mut [u32], b: &[u32]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

fn owner_of_flush(e: &Event) -> usize {
    (e.aux2 & 0xff) as usize
}

fn epoch_of_flush(e: &Event) -> u32 {
    e.aux2 >> 8
}

/// Add backtrack points to `path` for every race in the execution `events`.
pub fn add_backtracks(path: &mut [Node], events: &[Event]) {
    let fps: Vec<Footprint> = events.iter().map(footprint).collect();
    // every process of the execution: threads (incl. spawned ones) and flush processes
    let mut index = std::collections::HashMap::new();
    let mut threads = 0usize;
    for (e, f) in events.iter().zip(&fps) {
        let n = index.len();
        index.entry(f.proc).or_insert(n);
        if e.kind == 7 {
            let n = index.len();
            index.entry(e.aux as u16).or_insert(n);
        }
        if e.kind == 2 && e.aux != 0 {
            let n = index.len();
            index.entry(e.aux2 as u16).or_insert(n);
        }
        threads = threads.max(1 + if e.kind == 3 { owner_of_flush(e) } else { e.thread as usize });
        if e.kind == 7 || e.kind == 8 {
            threads = threads.max(1 + e.aux as usize);
        }
    }
    for t in 0..threads {
        let n = index.len();
        index.entry(t as u16).or_insert(n);
    }
    let width = index.len();
    let mut ev = Clocks { width, index, cells: vec![0; events.len() * width] };
    let mut proc_clock = vec![vec![0u32; width]; width];
    // join of the clocks of every flush of each thread's buffer(s) so far
    let mut flushed = vec![vec![0u32; width]; threads];
    let mut flushes_of: Vec<Vec<usize>> = vec![vec![]; threads];
    // the scheduling node deciding what runs before event j
    let sched_nodes: Vec<usize> = (0..path.len()).filter(|&k| path[k].schedule).collect();
    let node_before = |j: usize| -> Option<usize> {
        let pos = sched_nodes.partition_point(|&k| path[k].event as usize <= j);
        pos.checked_sub(1).map(|i| sched_nodes[i])
    };
    let mut races: Vec<(usize, usize, usize)> = vec![]; // (node, j, i)
    // each flush process's buffered stores not yet flushed (FIFO), as event indices
    let mut pending_stores: Vec<std::collections::VecDeque<usize>> = vec![Default::default(); width];
    let mut c = vec![0u32; width];
    let mut merged = vec![false; width];
    for (i, e) in events.iter().enumerate() {
        let f = fps[i];
        let p = ev.index(f.proc);
        c.copy_from_slice(&proc_clock[p]);
        if e.kind == 3 {
            if let Some(store) = pending_stores[p].pop_front() {
                join(&mut c, ev.row(store));
            }
            // PSO: after the flushes of older entries it may not overtake:
            // overlapping ones, and those before a store-store barrier
            let t = owner_of_flush(e);
            for &j in &flushes_of[t] {
                let g = &events[j];
                if overlap(fps[j].write, f.write) || epoch_of_flush(g) < epoch_of_flush(e) {
                    join(&mut c, ev.row(j));
                }
            }
        } else if drains(e) {
            join(&mut c, &flushed[e.thread as usize]);
        }
        // the last earlier dependent event that does not happen before i
        for j in (0..i).rev() {
            let g = &fps[j];
            if g.proc == f.proc || !racing(g, &f) {
                continue;
            }
            let q = ev.index(g.proc);
            if ev.row(j)[q] <= c[q] {
                continue;
            }
            if let Some(k) = node_before(j) {
                races.push((k, j, i));
            }
            break;
        }
        // happens-before from conflicts: the latest dependent event of each
        // other process dominates that process's earlier ones
        merged.iter_mut().for_each(|m| *m = false);
        merged[p] = true;
        for j in (0..i).rev() {
            let q = ev.index(fps[j].proc);
            if !merged[q] && dependent(&fps[j], &f) {
                merged[q] = true;
                let src = ev.row(j).to_vec();
                join(&mut c, &src);
            }
        }
        c[p] += 1;
        match e.kind {
            7 => {
                // spawn: the child starts after this event
                let child = ev.index(e.aux as u16);
                proc_clock[child].copy_from_slice(&c);
            }
            8 => {
                // join: after everything the joined thread and its buffers did
                let u = ev.index(e.aux as u16);
                let a = proc_clock[u].clone();
                join(&mut c, &a);
                join(&mut c, &flushed[e.aux as usize]);
            }
            3 => {
                let t = owner_of_flush(e);
                join(&mut flushed[t], &c);
                flushes_of[t].push(i);
            }
            _ => {}
        }
        if e.kind == 2 && e.aux != 0 {
            pending_stores[ev.index(e.aux2 as u16)].push_back(i);
        }
        proc_clock[p].copy_from_slice(&c);
        ev.cells[i * width..(i + 1) * width].copy_from_slice(&c);
    }
    let hb = |a: usize, b: usize| {
        let q = ev.index(fps[a].proc);
        ev.row(b)[q] >= ev.row(a)[q]
    };
    for (k, j, i) in races {
        // Source sets: the events after node k that need not follow j, then
        // i; a process whose first such event has no predecessor among them
        // can start an execution in which i comes before j.
        let start = path[k].event as usize;
        let mut seq: Vec<usize> = (start..i).filter(|&m| m != j && fps[m].proc != fps[j].proc && !hb(j, m)).collect();
        seq.push(i);
        let mut initials: Vec<u16> = vec![];
        for (x, &m) in seq.iter().enumerate() {
            let p = fps[m].proc;
            if initials.contains(&p) || seq[..x].iter().any(|&l| fps[l].proc == p) {
                continue;
            }
            if !seq[..x].iter().any(|&l| hb(l, m)) {
                initials.push(p);
            }
        }
        path[k].want_one_of(&initials, fps[i].proc);
    }
}
