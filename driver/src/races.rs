//! Data races, as C11 (and SV-COMP's no-data-race) defines them: two
//! accesses to overlapping bytes by different threads, at least one a
//! write, at least one not atomic, that happens-before does not order.
//!
//! Happens-before here is C11's, computed over one execution's event log
//! with vector clocks (one per thread): program order, thread creation and
//! join, mutex unlock before the next lock of the same mutex (a condition
//! wait unlocks too), an atomic block's end before the next block's start
//! (SV-COMP's `__VERIFIER_atomic_*` blocks act as one global lock, and
//! accesses inside one count as atomic), and synchronises-with: a release
//! store (or a store after a release fence, or a read-modify-write
//! continuing a release sequence) read by an acquire load (or by a load
//! followed by an acquire fence). Under TSO and PSO a store is the
//! program's access where it executes, and a load reads from the store
//! whose flush last wrote its bytes (or from its own buffer, in program
//! order); that is the C11 execution the hardware run corresponds to. It
//! is not the store-buffer happens-before the reduction uses (dpor.rs),
//! which orders every pair of conflicting accesses.
//!
//! Whether an access is atomic comes from the pass: the location table
//! holds each site's ordering (`Loc::order`, 0 = plain or volatile).
//!
//! The check is per execution and trace-invariant (equivalent
//! interleavings give the same clocks), so a search that covers every
//! class of executions (any `--por`) finds a race if one exists. It keeps,
//! per byte and thread, the last access of each kind (read or write,
//! atomic or not): an earlier access of the same thread and kind that
//! happens-before the new one is covered by the later one.

use crate::channel::{
    Event, EV_ASSUME_FAILED, EV_ATOMIC_BEGIN, EV_ATOMIC_END, EV_C11_FENCE, EV_CMPXCHG, EV_COND_WAIT, EV_FENCE, EV_FLUSH, EV_FREE, EV_JOIN, EV_LOAD,
    EV_LOCK, EV_RMW, EV_SPAWN, EV_STORE, EV_UNLOCK, LOCK_FAILED,
};
use crate::info::ProgramInfo;
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;


/// LLVM AtomicOrdering numbers (runtime/ABI.md).
fn acquires(order: u32) -> bool {
    matches!(order, 4 | 6 | 7)
}
fn releases(order: u32) -> bool {
    matches!(order, 5..=7)
}

/// One side of a race.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// index of its event in the execution's log
    pub event: usize,
    pub thread: u16,
    pub loc: u32,
    pub write: bool,
    pub atomic: bool,
    pub addr: u64,
    pub size: u8,
}

/// Two accesses that happens-before does not order; `first` came first in
/// the execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub first: Access,
    pub second: Access,
}

impl Race {
    /// The pair of program locations, unordered: races between the same
    /// two sites in other executions or on other bytes are the same race.
    pub fn sites(&self) -> (u32, u32) {
        let (a, b) = (self.first.loc, self.second.loc);
        (a.min(b), a.max(b))
    }
}

type Clock = Vec<u32>;

fn join(a: &mut Clock, b: &[u32]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(*y);
    }
}

fn at(c: &[u32], t: usize) -> u32 {
    c.get(t).copied().unwrap_or(0)
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Writer {
    thread: u16,
    atomic: bool,
    rmw: bool,
}

/// The last access of one kind by one thread to one byte: its epoch (the
/// thread's own clock entry then; 0 = none) and event.
#[derive(Clone, Copy, Default)]
struct Last {
    epoch: u32,
    event: usize,
}

/// Kinds of access kept per byte and thread: index `write * 2 + atomic`.
fn kind(write: bool, atomic: bool) -> usize {
    write as usize * 2 + atomic as usize
}

struct Checker<'a> {
    events: &'a [Event],
    info: &'a ProgramInfo,
    clocks: Vec<Clock>,
    /// each thread's clock at its last release fence
    fence_release: Vec<Clock>,
    /// what a thread's relaxed loads read since, for its next acquire fence
    fence_acquire: Vec<Clock>,
    in_block: Vec<bool>,
    locks: HashMap<u64, Clock>,
    block: Clock,
    /// each write's release sequences, by write id: (the head's thread,
    /// what the head releases); an acquire that reads the write gets all of
    /// them (none: it releases nothing)
    sequences: Vec<Vec<(u16, Clock)>>,
    /// each write's maker: thread, atomic, read-modify-write (by write id)
    writers: Vec<Writer>,
    /// per byte of memory: the write whose value it holds
    memory: HashMap<u64, usize>,
    /// per flush process: its buffered stores (write id, event) not yet
    /// written to memory, oldest first
    buffered: HashMap<u32, VecDeque<(usize, usize)>>,
    /// per byte: per thread, the last access of each kind
    /// (the `threads` entries of a byte lie together in `lasts`, from the
    /// offset `history` holds for it)
    history: HashMap<u64, usize>,
    lasts: Vec<[Last; 4]>,
    threads: usize,
    races: Vec<Race>,
}

impl<'a> Checker<'a> {
    fn thread(&mut self, t: usize) {
        if self.clocks.len() <= t {
            self.clocks.resize(t + 1, vec![]);
            self.fence_release.resize(t + 1, vec![]);
            self.fence_acquire.resize(t + 1, vec![]);
            self.in_block.resize(t + 1, false);
        }
    }

    fn access(&self, i: usize, write: bool, atomic: bool) -> Access {
        let e = &self.events[i];
        Access { event: i, thread: e.thread, loc: e.loc, write, atomic, addr: e.addr, size: e.size }
    }

    /// Check the access of event `i` against earlier ones, then record it.
    fn check(&mut self, i: usize, write: bool, atomic: bool) {
        let e = self.events[i];
        let t = e.thread as usize;
        let epoch = at(&self.clocks[t], t);
        let mut found: Option<(usize, bool, bool)> = None;
        let n = self.threads;
        for b in e.addr..e.addr + e.size.max(1) as u64 {
            let at_byte = *self.history.entry(b).or_insert_with(|| {
                self.lasts.resize(self.lasts.len() + n, [Last::default(); 4]);
                self.lasts.len() - n
            });
            let per_thread = &mut self.lasts[at_byte..at_byte + n];
            if found.is_none() {
                'threads: for (u, lasts) in per_thread.iter().enumerate() {
                    if u == t {
                        continue;
                    }
                    for (k, last) in lasts.iter().enumerate() {
                        let (w, a) = (k >= 2, k & 1 == 1);
                        if last.epoch != 0 && (w || write) && !(a && atomic) && at(&self.clocks[t], u) < last.epoch {
                            found = Some((last.event, w, a));
                            break 'threads;
                        }
                    }
                }
            }
            per_thread[t][kind(write, atomic)] = Last { epoch, event: i };
        }
        if let Some((j, w, a)) = found {
            let race = Race { first: self.access(j, w, a), second: self.access(i, write, atomic) };
            if !self.races.iter().any(|r| r.sites() == race.sites()) {
                self.races.push(race);
            }
        }
    }

    /// The writes a load by `t` of event `e`'s bytes reads from memory
    /// (bytes its own buffer holds come from its own earlier stores).
    fn read_from(&self, e: &Event) -> Vec<usize> {
        let own = |b: u64| {
            self.buffered.values().flatten().any(|&(_, s)| {
                let st = &self.events[s];
                st.thread == e.thread && st.addr <= b && b < st.addr + st.size as u64
            })
        };
        let mut ws: Vec<usize> = vec![];
        for b in e.addr..e.addr + e.size as u64 {
            if e.aux & 1 != 0 && own(b) {
                continue;
            }
            if let Some(&w) = self.memory.get(&b) {
                if !ws.contains(&w) {
                    ws.push(w);
                }
            }
        }
        ws
    }

    /// A read by `t` that reads `from`: acquire joins what they release now,
    /// a relaxed atomic read keeps it for the next acquire fence.
    fn synchronise(&mut self, t: usize, from: &[usize], order: u32, atomic: bool) {
        let mut got: Clock = vec![];
        for &w in from {
            for (_, released) in &self.sequences[w] {
                join(&mut got, released);
            }
        }
        if atomic {
            if acquires(order) {
                join(&mut self.clocks[t], &got);
            } else {
                join(&mut self.fence_acquire[t], &got);
            }
        }
    }

    /// A new write of event `i`; returns its id. An atomic one that
    /// releases (a release store, or any atomic store after a release
    /// fence) heads a release sequence.
    fn write(&mut self, i: usize, order: u32, atomic: bool, rmw: bool) -> usize {
        let t = self.events[i].thread as usize;
        let head = if atomic && releases(order) {
            self.clocks[t].clone()
        } else if atomic {
            self.fence_release[t].clone()
        } else {
            vec![]
        };
        self.sequences.push(if head.is_empty() { vec![] } else { vec![(t as u16, head)] });
        self.writers.push(Writer { thread: t as u16, atomic, rmw });
        self.writers.len() - 1
    }

    /// Write `w` reaches memory: its place in the modification order. C11's
    /// release sequences go on through it when it is a read-modify-write
    /// (all of them) or an atomic store of a sequence's head thread (that
    /// one); anything else ends them.
    fn write_memory(&mut self, w: usize, e: &Event) {
        let me = self.writers[w];
        if let Some(&p) = self.memory.get(&e.addr).filter(|&&p| p != w && me.atomic) {
            let go_on: Vec<(u16, Clock)> = self.sequences[p].iter().filter(|(head, _)| me.rmw || *head == me.thread).cloned().collect();
            for (head, clock) in go_on {
                match self.sequences[w].iter_mut().find(|(h, _)| *h == head) {
                    Some((_, c)) => join(c, &clock),
                    None => self.sequences[w].push((head, clock)),
                }
            }
        }
        for b in e.addr..e.addr + e.size as u64 {
            self.memory.insert(b, w);
        }
    }

    fn event(&mut self, i: usize) {
        let e = self.events[i];
        let t = e.thread as usize;
        if e.kind == EV_FLUSH {
            // the oldest buffered store of that flush process to these bytes
            if let Some(q) = self.buffered.get_mut(&e.aux) {
                let events = self.events;
                if let Some(k) = q.iter().position(|&(_, s)| events[s].addr == e.addr && events[s].size == e.size) {
                    let (w, _) = q.remove(k).unwrap();
                    self.write_memory(w, &e);
                }
            }
            return;
        }
        self.thread(t);
        let own = &mut self.clocks[t];
        if own.len() <= t {
            own.resize(t + 1, 0);
        }
        own[t] += 1;
        let order = self.info.order(e.loc);
        let in_block = self.in_block[t];
        match e.kind {
            EV_LOAD => {
                let atomic = order != 0 || in_block;
                let from = self.read_from(&e);
                self.synchronise(t, &from, order, atomic);
                self.check(i, false, atomic);
            }
            EV_STORE => {
                let atomic = order != 0 || in_block;
                self.check(i, true, atomic);
                let w = self.write(i, order, atomic, false);
                if e.aux == 0 {
                    self.write_memory(w, &e);
                } else {
                    self.buffered.entry(e.aux2).or_default().push_back((w, i));
                }
            }
            EV_RMW | EV_CMPXCHG => {
                let order = order.max(2);
                let from = self.read_from(&e);
                self.synchronise(t, &from, order, true);
                let writes = e.kind == EV_RMW || e.aux == 1;
                self.check(i, writes, true);
                if writes {
                    let w = self.write(i, order, true, true);
                    self.write_memory(w, &e);
                }
            }
            EV_FENCE | EV_C11_FENCE => {
                // an mfence that drained (a --with-fences one carries its
                // store's location): seq_cst; others say their order
                let order = if e.kind == EV_FENCE { 7 } else { e.aux };
                if releases(order) {
                    self.fence_release[t] = self.clocks[t].clone();
                }
                if acquires(order) {
                    let pending = std::mem::take(&mut self.fence_acquire[t]);
                    join(&mut self.clocks[t], &pending);
                }
            }
            EV_SPAWN => {
                let child = e.aux as usize;
                self.thread(child);
                let c = self.clocks[t].clone();
                join(&mut self.clocks[child], &c);
            }
            EV_JOIN => {
                let u = e.aux as usize;
                self.thread(u);
                let c = self.clocks[u].clone();
                join(&mut self.clocks[t], &c);
            }
            // a failed try took nothing
            EV_LOCK if e.aux & LOCK_FAILED != 0 => {}
            EV_LOCK => {
                if let Some(c) = self.locks.get(&e.addr) {
                    let c = c.clone();
                    join(&mut self.clocks[t], &c);
                }
            }
            EV_UNLOCK => {
                // joined, not replaced: a barrier or a semaphore collects
                // every arrival or post (for a mutex the two are the same)
                let c = self.clocks[t].clone();
                join(self.locks.entry(e.addr).or_default(), &c);
            }
            EV_COND_WAIT => {
                // the wait releases its mutex (the event's value)
                let c = self.clocks[t].clone();
                join(self.locks.entry(e.value).or_default(), &c);
            }
            EV_FREE => {
                // the block's buffered stores of this thread are dropped, never written
                let (lo, hi) = (e.addr, e.addr + e.value.max(1));
                let events = self.events;
                for q in self.buffered.values_mut() {
                    q.retain(|&(_, s)| {
                        let st = &events[s];
                        st.thread != e.thread || st.addr + st.size as u64 <= lo || hi <= st.addr
                    });
                }
            }
            EV_ATOMIC_BEGIN => {
                self.in_block[t] = true;
                let c = self.block.clone();
                join(&mut self.clocks[t], &c);
            }
            EV_ATOMIC_END => {
                self.in_block[t] = false;
                self.block = self.clocks[t].clone();
            }
            _ => {}
        }
    }
}

/// Every race of the execution `events`, one per pair of program
/// locations, in the order they were found. Events after a failed
/// `__VERIFIER_assume` are not looked at (the execution is infeasible from
/// there).
pub fn find(events: &[Event], info: &ProgramInfo) -> Vec<Race> {
    let threads = events.iter().filter(|e| e.kind != EV_FLUSH).map(|e| 1 + if e.kind == EV_SPAWN { e.aux as usize } else { e.thread as usize }).max().unwrap_or(1);
    // room for the bytes the accesses may touch, so the per-byte table
    // does not grow (and copy itself) step by step
    let bytes: usize = events.iter().map(|e| e.size as usize).sum::<usize>().min(1 << 16);
    let mut c = Checker {
        events,
        info,
        clocks: vec![],
        fence_release: vec![],
        fence_acquire: vec![],
        in_block: vec![],
        locks: HashMap::default(),
        block: vec![],
        sequences: vec![],
        writers: vec![],
        memory: HashMap::default(),
        buffered: HashMap::default(),
        history: HashMap::with_capacity_and_hasher(bytes, Default::default()),
        lasts: Vec::with_capacity(bytes * threads),
        // every thread of the execution: those that have events and those spawned
        threads,
        races: vec![],
    };
    for (i, e) in events.iter().enumerate() {
        if e.kind == EV_ASSUME_FAILED {
            break;
        }
        c.event(i);
    }
    c.races
}
