//! Robustness: is an execution under TSO or PSO equivalent to an SC one?
//!
//! Method (a comparison of the relaxed execution with SC happens-before):
//! an execution is SC-equivalent exactly when some interleaving of its
//! accesses, in each thread's program order, gives every load the value it
//! read; that is, when the union of program order (po), reads-from (rf),
//! coherence (co: the order in which writes reach each byte of memory) and
//! from-read (fr: a read before the write that overwrote what it read) is
//! acyclic. A store buffer adds nothing else, so a cycle needs a store that
//! was still buffered when a later access of its thread ran: that po edge is
//! the reordering the report names.
//!
//! Everything is byte-precise: a load may read each byte from a different
//! store. Synchronising calls (lock, unlock, create, join, atomic blocks)
//! take part as accesses of their object, and thread creation and join add
//! their edges, so a cycle through them counts too.
//!
//! Why checking the explored executions suffices: equivalent executions
//! (the same steps reordered without swapping dependent ones) have the same
//! po, rf and co, so they are robust or not together; partial order
//! reduction explores at least one execution per class, and await blocking
//! only leaves out iterations that repeat the one before (the same reads
//! from the same stores). So the answer is exact for the buffer bound in
//! use: a program is robust when every execution the search visits is.

use crate::channel::Event;
use std::collections::{HashMap, VecDeque};

/// The reordering that makes an execution not SC-equivalent.
#[derive(Clone, Debug)]
pub struct Reordering {
    /// event index of the store that was still buffered
    pub store: usize,
    /// event index of the later access of the same thread that passed it
    pub access: usize,
    /// the events on the cycle, in order (event indices)
    pub cycle: Vec<usize>,
}

const INIT: usize = usize::MAX;

#[derive(Default)]
struct Graph {
    /// event index of each node
    event: Vec<usize>,
    succ: Vec<Vec<usize>>,
}

impl Graph {
    fn node(&mut self, e: usize) -> usize {
        self.event.push(e);
        self.succ.push(vec![]);
        self.event.len() - 1
    }
    fn edge(&mut self, a: usize, b: usize) {
        if a != INIT && a != b && !self.succ[a].contains(&b) {
            self.succ[a].push(b);
        }
    }
}

/// Memory as the execution built it: for each byte, the node that wrote it
/// last, and who read each (writer, byte) pair since.
#[derive(Default)]
struct Memory {
    writer: HashMap<u64, usize>,
    readers: HashMap<(usize, u64), Vec<usize>>,
}

impl Memory {
    fn read(&mut self, g: &mut Graph, node: usize, byte: u64, from: usize) {
        g.edge(from, node); // rf
        self.readers.entry((from, byte)).or_default().push(node);
    }
    fn read_memory(&mut self, g: &mut Graph, node: usize, byte: u64) {
        let from = self.writer.get(&byte).copied().unwrap_or(INIT);
        self.read(g, node, byte, from);
    }
    fn write(&mut self, g: &mut Graph, node: usize, byte: u64) {
        let prev = self.writer.insert(byte, node).unwrap_or(INIT);
        g.edge(prev, node); // co
        for r in self.readers.remove(&(prev, byte)).unwrap_or_default() {
            g.edge(r, node); // fr
        }
    }
}

/// Buffered stores per flush process, oldest first, matched with their
/// flushes as the execution goes.
#[derive(Default)]
struct Pending(HashMap<u32, VecDeque<usize>>);

impl Pending {
    fn buffered(&mut self, i: usize, e: &Event) {
        self.0.entry(e.aux2).or_default().push_back(i);
    }
    /// The stores flush `e` takes out of its buffer, the one it writes last:
    /// the oldest pending store of its process with the flush's range, after
    /// any older ones that never flushed (dropped with their memory by free
    /// or the end of a frame). Empty if none matches.
    fn flushed(&mut self, events: &[Event], e: &Event) -> Vec<usize> {
        let Some(q) = self.0.get_mut(&e.aux) else { return vec![] };
        match q.iter().position(|&s| events[s].addr == e.addr && events[s].size == e.size) {
            Some(k) => q.drain(..=k).collect(),
            None => vec![],
        }
    }
}

fn bytes(e: &Event) -> std::ops::Range<u64> {
    e.addr..e.addr + (e.size.max(1) as u64)
}

/// Check one execution; `None` when it is SC-equivalent.
pub fn check(events: &[Event]) -> Option<Reordering> {
    let mut g = Graph::default();
    let mut mem = Memory::default();
    let mut last_of_thread: HashMap<u16, usize> = HashMap::new();
    let mut spawned_by: HashMap<u16, usize> = HashMap::new();
    // buffered stores: per flush process, and per thread (for its own reads)
    let mut pending = Pending::default();
    let mut own: HashMap<u16, Vec<usize>> = HashMap::new();
    // the node of each store event (to find it again at its flush)
    let mut node_of: HashMap<usize, usize> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        let is_node = matches!(e.kind, 1 | 2 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 14 | 15 | 16 | 17 | 19);
        if e.kind == crate::channel::EV_FLUSH {
            // a flush: the store it writes reaches memory now
            let gone = pending.flushed(events, e);
            let Some(&s) = gone.last() else { continue };
            if let Some(list) = own.get_mut(&events[s].thread) {
                list.retain(|x| !gone.contains(x));
            }
            let n = node_of[&s];
            for b in bytes(&events[s]) {
                mem.write(&mut g, n, b);
            }
            continue;
        }
        if e.kind == crate::channel::EV_DROP {
            // a buffered store dropped with its memory: neither flushed nor
            // read back by its thread from now on
            if let Some(s) = pending.0.get_mut(&e.aux).and_then(|q| crate::dpor::forget_dropped(q, events, e)) {
                if let Some(list) = own.get_mut(&e.thread) {
                    list.retain(|&x| x != s);
                }
            }
            continue;
        }
        if !is_node {
            continue;
        }
        let n = g.node(i);
        node_of.insert(i, n);
        match last_of_thread.insert(e.thread, n) {
            Some(prev) => g.edge(prev, n), // po
            None => {
                if let Some(&sp) = spawned_by.get(&e.thread) {
                    g.edge(sp, n);
                }
            }
        }
        match e.kind {
            1 | 19 => {
                let mine = own.get(&e.thread);
                for b in bytes(e) {
                    // the newest own buffered store covering the byte, else memory
                    let src = mine.and_then(|l| l.iter().rev().find(|&&s| bytes(&events[s]).contains(&b)).copied());
                    match src {
                        Some(s) => mem.read(&mut g, n, b, node_of[&s]),
                        None => mem.read_memory(&mut g, n, b),
                    }
                }
            }
            2 if e.aux == 0 => bytes(e).for_each(|b| mem.write(&mut g, n, b)),
            2 => {
                pending.buffered(i, e);
                own.entry(e.thread).or_default().push(i);
            }
            5 | 6 => {
                for b in bytes(e) {
                    mem.read_memory(&mut g, n, b);
                    mem.write(&mut g, n, b);
                }
            }
            7 => {
                spawned_by.insert(e.aux as u16, n);
                // thread ids are handed out in order
                mem.read_memory(&mut g, n, e.fp.lo);
                mem.write(&mut g, n, e.fp.lo);
            }
            8 => {
                if let Some(&x) = last_of_thread.get(&(e.aux as u16)) {
                    g.edge(x, n);
                }
            }
            10 | 11 | 14 | 15 | 16 | 17 => {
                // a sync call is a locked access of its object
                mem.read_memory(&mut g, n, e.fp.lo);
                mem.write(&mut g, n, e.fp.lo);
            }
            _ => {}
        }
    }
    // stores still buffered when the execution ended reach memory after
    // everything it did (each buffer in its order)
    let mut procs: Vec<u32> = pending.0.keys().copied().collect();
    procs.sort();
    for p in procs {
        for &s in &pending.0[&p] {
            let n = node_of[&s];
            for b in bytes(&events[s]) {
                mem.write(&mut g, n, b);
            }
        }
    }
    let cycle = find_cycle(&g)?;
    let cycle: Vec<usize> = cycle.iter().map(|&n| g.event[n]).collect();
    // the po edge on the cycle from a buffered store to a later access of
    // its thread that took effect before the store reached memory
    let k = cycle.len();
    let flushed_at = flush_times(events);
    let effect = |x: usize| if events[x].is_buffered_store() { flushed_at.get(&x).copied().unwrap_or(usize::MAX) } else { x };
    let buffered = |a: usize| events[a].is_buffered_store();
    // the cycle's stretches of one thread's program order, as (first, last):
    // a stretch whose first store took effect after its last access is the
    // reordering (the nodes in between are just program order)
    let same = |x: usize, y: usize| events[cycle[x % k]].thread == events[cycle[y % k]].thread;
    let start = (0..k).find(|&x| !same(x + k - 1, x)).unwrap_or(0);
    let mut stretches = vec![];
    let mut x = start;
    while x < start + k {
        let mut y = x;
        while y + 1 < start + k && same(y, y + 1) {
            y += 1;
        }
        stretches.push((cycle[x % k], cycle[y % k]));
        x = y + 1;
    }
    let (store, access) = stretches
        .iter()
        .copied()
        .find(|&(a, b)| a != b && buffered(a) && effect(a) > effect(b))
        .or_else(|| stretches.iter().copied().find(|&(a, b)| a != b && buffered(a)))
        .unwrap_or((cycle[0], cycle[1 % k]));
    Some(Reordering { store, access, cycle })
}

/// A cycle of the graph, as nodes in edge order, if there is one.
fn find_cycle(g: &Graph) -> Option<Vec<usize>> {
    let n = g.succ.len();
    // 0 unvisited, 1 on the stack, 2 done
    let mut state = vec![0u8; n];
    let mut parent = vec![usize::MAX; n];
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&w) = g.succ[v].get(*k) {
                *k += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        parent[w] = v;
                        stack.push((w, 0));
                    }
                    1 => {
                        // back edge v -> w: the cycle is w .. v
                        let mut cycle = vec![v];
                        let mut x = v;
                        while x != w {
                            x = parent[x];
                            cycle.push(x);
                        }
                        cycle.reverse();
                        return Some(cycle);
                    }
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    None
}

/// When each buffered store of an execution reached memory: event index of
/// its flush, or `usize::MAX` when it was still buffered at the end (or was
/// dropped with its memory).
pub fn flush_times(events: &[Event]) -> HashMap<usize, usize> {
    let mut pending = Pending::default();
    let mut at = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            2 if e.aux != 0 => {
                pending.buffered(i, e);
                at.insert(i, usize::MAX);
            }
            3 => {
                if let Some(&s) = pending.flushed(events, e).last() {
                    at.insert(s, i);
                }
            }
            _ => {}
        }
    }
    at
}
