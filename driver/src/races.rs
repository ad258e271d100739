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
//! is not the store-buffer happens-before the reduction uses (dpor/analysis.rs),
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

/// The positions of the set bits of `mask`, lowest first.
fn bits(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let u = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            u
        })
    })
}

/// Kinds of access kept per byte and thread: index `write * 2 + atomic`.
fn kind(write: bool, atomic: bool) -> usize {
    write as usize * 2 + atomic as usize
}

/// What the check knows after some prefix of an execution.
#[derive(Default)]
struct State {
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
    /// per byte of memory: the write whose value it holds (by 8-byte word,
    /// `NO_WRITE` for a byte not written: one lookup for an aligned access)
    memory: HashMap<u64, [usize; 8]>,
    /// per flush process: its buffered stores (write id, event) not yet
    /// written to memory, oldest first
    buffered: HashMap<u32, VecDeque<(usize, usize)>>,
    /// per byte: per thread, the last access of each kind
    /// (the `threads` entries of a byte lie together in `lasts`, from
    /// `threads` times the slot `history` holds for it, by 8-byte word:
    /// one lookup for an aligned access; `NO_SLOT` for a byte not accessed)
    history: HashMap<u64, [u32; 8]>,
    lasts: Vec<[Last; 4]>,
    /// per byte (by its slot): the threads that have accessed it, so a
    /// check looks at those rows only (a bit may stay set after a rewind;
    /// its row then holds no access, which the check sees). Unused with
    /// more than 128 threads.
    accessed: Vec<u128>,
    threads: usize,
    races: Vec<Race>,
    /// how to take back each change since the log was last cut (only
    /// while `logging`: the incremental check rewinds to a shared prefix)
    undo: Vec<Undo>,
    logging: bool,
}

/// A byte of `State::memory` no write has reached.
const NO_WRITE: usize = usize::MAX;
/// A byte of `State::history` no access has reached.
const NO_SLOT: u32 = u32::MAX;

/// The bytes `lo..hi` word by word: each 8-byte word's number and the
/// part of the range in it (the per-byte tables are kept by word).
fn words(lo: u64, hi: u64) -> impl Iterator<Item = (u64, std::ops::Range<u64>)> {
    let mut b = lo;
    std::iter::from_fn(move || {
        (b < hi).then(|| {
            let stop = hi.min(((b >> 3) + 1) << 3);
            let part = (b >> 3, b..stop);
            b = stop;
            part
        })
    })
}

/// Which clock a change replaced.
#[derive(Clone, Copy)]
enum ClockSlot {
    Thread(usize),
    FenceRelease(usize),
    FenceAcquire(usize),
    Lock(u64),
    Block,
}

/// One change to the state, with what it replaced.
enum Undo {
    /// the per-thread tables had this many threads
    Threads(usize),
    Clock(ClockSlot, Option<Clock>),
    /// a thread's own entry went up by one
    Tick(usize),
    InBlock(usize, bool),
    /// a byte got its first history entries, in this slot (`accessed`
    /// had this length)
    History(u64, usize),
    Last(usize, usize, Last),
    Race,
    /// a new write id (its sequence and writer)
    Write,
    Sequence(usize, Vec<(u16, Clock)>),
    /// a byte's writer before (`NO_WRITE`: none)
    Memory(u64, usize),
    Buffered(u32),
    Flushed(u32, usize, (usize, usize)),
    AllBuffered(HashMap<u32, VecDeque<(usize, usize)>>),
}

impl State {
    fn new(threads: usize, bytes: usize, logging: bool) -> State {
        State {
            history: HashMap::with_capacity_and_hasher(bytes / 4, Default::default()),
            lasts: Vec::with_capacity(bytes * threads),
            accessed: Vec::with_capacity(bytes),
            threads,
            logging,
            ..State::default()
        }
    }

    fn log(&mut self, u: impl FnOnce(&Self) -> Undo) {
        if self.logging {
            let u = u(self);
            self.undo.push(u);
        }
    }

    fn clock_mut(&mut self, slot: ClockSlot) -> &mut Clock {
        match slot {
            ClockSlot::Thread(t) => &mut self.clocks[t],
            ClockSlot::FenceRelease(t) => &mut self.fence_release[t],
            ClockSlot::FenceAcquire(t) => &mut self.fence_acquire[t],
            ClockSlot::Lock(a) => self.locks.entry(a).or_default(),
            ClockSlot::Block => &mut self.block,
        }
    }

    /// Note the clock in `slot` is about to change.
    fn save(&mut self, slot: ClockSlot) {
        self.log(|s| {
            Undo::Clock(
                slot,
                match slot {
                    ClockSlot::Lock(a) => s.locks.get(&a).cloned(),
                    ClockSlot::Thread(t) => Some(s.clocks[t].clone()),
                    ClockSlot::FenceRelease(t) => Some(s.fence_release[t].clone()),
                    ClockSlot::FenceAcquire(t) => Some(s.fence_acquire[t].clone()),
                    ClockSlot::Block => Some(s.block.clone()),
                },
            )
        });
    }

    fn join_into(&mut self, slot: ClockSlot, c: &[u32]) {
        self.save(slot);
        join(self.clock_mut(slot), c);
    }

    fn set(&mut self, slot: ClockSlot, c: Clock) {
        self.save(slot);
        *self.clock_mut(slot) = c;
    }

    /// The history slots of the bytes of `word`, by their place in it;
    /// made for those of `bytes` (all in the word) that have none yet.
    fn slots(&mut self, word: u64, bytes: std::ops::Range<u64>) -> [u32; 8] {
        let mut slots = self.history.get(&word).copied().unwrap_or([NO_SLOT; 8]);
        let mut made = false;
        for x in bytes {
            let byte = &mut slots[(x & 7) as usize];
            if *byte == NO_SLOT {
                let slot = self.accessed.len();
                *byte = slot as u32;
                self.log(|_| Undo::History(x, slot));
                self.lasts.resize((slot + 1) * self.threads, [Last::default(); 4]);
                self.accessed.push(0);
                made = true;
            }
        }
        if made {
            self.history.insert(word, slots);
        }
        slots
    }

    /// The write whose value byte `b` holds.
    fn memory_at(&self, b: u64) -> Option<usize> {
        self.memory.get(&(b >> 3)).map(|word| word[(b & 7) as usize]).filter(|&w| w != NO_WRITE)
    }

    /// Take back the changes logged after the first `mark` ones.
    fn rewind(&mut self, mark: usize) {
        while self.undo.len() > mark {
            match self.undo.pop().unwrap() {
                Undo::Threads(n) => {
                    self.clocks.truncate(n);
                    self.fence_release.truncate(n);
                    self.fence_acquire.truncate(n);
                    self.in_block.truncate(n);
                }
                Undo::Clock(ClockSlot::Lock(a), None) => {
                    self.locks.remove(&a);
                }
                Undo::Clock(slot, old) => *self.clock_mut(slot) = old.unwrap_or_default(),
                Undo::Tick(t) => self.clocks[t][t] -= 1,
                Undo::InBlock(t, b) => self.in_block[t] = b,
                Undo::History(b, slot) => {
                    if let Some(word) = self.history.get_mut(&(b >> 3)) {
                        word[(b & 7) as usize] = NO_SLOT;
                    }
                    self.lasts.truncate(slot * self.threads);
                    self.accessed.truncate(slot);
                }
                Undo::Last(at, k, last) => self.lasts[at][k] = last,
                Undo::Race => {
                    self.races.pop();
                }
                Undo::Write => {
                    self.sequences.pop();
                    self.writers.pop();
                }
                Undo::Sequence(w, old) => self.sequences[w] = old,
                Undo::Memory(b, old) => {
                    if let Some(word) = self.memory.get_mut(&(b >> 3)) {
                        word[(b & 7) as usize] = old;
                    }
                }
                Undo::Buffered(p) => {
                    self.buffered.get_mut(&p).and_then(|q| q.pop_back());
                }
                Undo::Flushed(p, k, store) => self.buffered.entry(p).or_default().insert(k, store),
                Undo::AllBuffered(all) => self.buffered = all,
            }
        }
    }
}

/// The check of one execution's events against the state.
struct Checker<'a, 's> {
    events: &'a [Event],
    info: &'a ProgramInfo,
    st: &'s mut State,
}

impl Checker<'_, '_> {
    fn thread(&mut self, t: usize) {
        let st = &mut *self.st;
        if st.clocks.len() <= t {
            st.log(|s| Undo::Threads(s.clocks.len()));
            st.clocks.resize(t + 1, vec![]);
            st.fence_release.resize(t + 1, vec![]);
            st.fence_acquire.resize(t + 1, vec![]);
            st.in_block.resize(t + 1, false);
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
        let st = &mut *self.st;
        let epoch = at(&st.clocks[t], t);
        let mut found: Option<(usize, bool, bool)> = None;
        let n = st.threads;
        for (word, bytes) in words(e.addr, e.addr + e.size.max(1) as u64) {
            let slots = st.slots(word, bytes.clone());
            for b in bytes {
                let slot = slots[(b & 7) as usize] as usize;
                let at_byte = slot * n;
                // the other threads that accessed the byte (None: too many threads to say)
                let others = (n <= 128).then(|| {
                    let accessed = &mut st.accessed[slot];
                    let others = *accessed & !(1u128 << t);
                    *accessed |= 1u128 << t;
                    others
                });
                if found.is_none() {
                    // thread u's last accesses of each kind that race with this one
                    let racing = |u: usize| {
                        st.lasts[at_byte + u].iter().enumerate().find_map(|(k, last)| {
                            let (w, a) = (k >= 2, k & 1 == 1);
                            (last.epoch != 0 && (w || write) && !(a && atomic) && at(&st.clocks[t], u) < last.epoch).then_some((last.event, w, a))
                        })
                    };
                    found = match others {
                        Some(others) => bits(others).find_map(racing),
                        None => (0..n).filter(|&u| u != t).find_map(racing),
                    };
                }
                let (row, k) = (at_byte + t, kind(write, atomic));
                st.log(|s| Undo::Last(row, k, s.lasts[row][k]));
                st.lasts[row][k] = Last { epoch, event: i };
            }
        }
        if let Some((j, w, a)) = found {
            let race = Race { first: self.access(j, w, a), second: self.access(i, write, atomic) };
            if !self.st.races.iter().any(|r| r.sites() == race.sites()) {
                self.st.log(|_| Undo::Race);
                self.st.races.push(race);
            }
        }
    }

    /// The writes a load by `t` of event `e`'s bytes reads from memory
    /// (bytes its own buffer holds come from its own earlier stores).
    fn read_from(&self, e: &Event) -> Vec<usize> {
        let own = |b: u64| {
            self.st.buffered.values().flatten().any(|&(_, s)| {
                let st = &self.events[s];
                st.thread == e.thread && st.addr <= b && b < st.addr + st.size as u64
            })
        };
        let mut ws: Vec<usize> = vec![];
        for b in e.addr..e.addr + e.size as u64 {
            if e.aux & 1 != 0 && own(b) {
                continue;
            }
            if let Some(w) = self.st.memory_at(b) {
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
            for (_, released) in &self.st.sequences[w] {
                join(&mut got, released);
            }
        }
        if atomic && !got.is_empty() {
            let slot = if acquires(order) { ClockSlot::Thread(t) } else { ClockSlot::FenceAcquire(t) };
            self.st.join_into(slot, &got);
        }
    }

    /// A new write of event `i`; returns its id. An atomic one that
    /// releases (a release store, or any atomic store after a release
    /// fence) heads a release sequence.
    fn write(&mut self, i: usize, order: u32, atomic: bool, rmw: bool) -> usize {
        let t = self.events[i].thread as usize;
        let st = &mut *self.st;
        let head = if atomic && releases(order) {
            st.clocks[t].clone()
        } else if atomic {
            st.fence_release[t].clone()
        } else {
            vec![]
        };
        st.log(|_| Undo::Write);
        st.sequences.push(if head.is_empty() { vec![] } else { vec![(t as u16, head)] });
        st.writers.push(Writer { thread: t as u16, atomic, rmw });
        st.writers.len() - 1
    }

    /// Write `w` reaches memory: its place in the modification order. C11's
    /// release sequences go on through it when it is a read-modify-write
    /// (all of them) or an atomic store of a sequence's head thread (that
    /// one); anything else ends them.
    fn write_memory(&mut self, w: usize, e: &Event) {
        let st = &mut *self.st;
        let me = st.writers[w];
        if let Some(p) = st.memory_at(e.addr).filter(|&p| p != w && me.atomic) {
            let go_on: Vec<(u16, Clock)> = st.sequences[p].iter().filter(|(head, _)| me.rmw || *head == me.thread).cloned().collect();
            if !go_on.is_empty() {
                st.log(|s| Undo::Sequence(w, s.sequences[w].clone()));
            }
            for (head, clock) in go_on {
                match st.sequences[w].iter_mut().find(|(h, _)| *h == head) {
                    Some((_, c)) => join(c, &clock),
                    None => st.sequences[w].push((head, clock)),
                }
            }
        }
        // word by word: one lookup for an aligned store (the log is
        // written beside the table, which `State::log` cannot borrow)
        let State { memory, undo, logging, .. } = st;
        for (word, bytes) in words(e.addr, e.addr + e.size as u64) {
            let word = memory.entry(word).or_insert([NO_WRITE; 8]);
            for b in bytes {
                let old = std::mem::replace(&mut word[(b & 7) as usize], w);
                if *logging {
                    undo.push(Undo::Memory(b, old));
                }
            }
        }
    }

    fn event(&mut self, i: usize) {
        let e = self.events[i];
        let t = e.thread as usize;
        if e.kind == EV_FLUSH || e.kind == crate::channel::EV_DROP {
            // the oldest buffered store of that flush process to these
            // bytes leaves the buffer: written by a flush, unwritten when
            // dropped with its memory
            let events = self.events;
            let left = self.st.buffered.get_mut(&e.aux).and_then(|q| {
                let k = q.iter().position(|&(_, s)| events[s].addr == e.addr && events[s].size == e.size)?;
                Some((k, q.remove(k).unwrap()))
            });
            if let Some((k, store)) = left {
                self.st.log(|_| Undo::Flushed(e.aux, k, store));
                if e.kind == EV_FLUSH {
                    self.write_memory(store.0, &e);
                }
            }
            return;
        }
        self.thread(t);
        if self.st.clocks[t].len() <= t {
            let mut own = self.st.clocks[t].clone();
            own.resize(t + 1, 0);
            self.st.set(ClockSlot::Thread(t), own);
        }
        self.st.clocks[t][t] += 1;
        self.st.log(|_| Undo::Tick(t));
        let order = self.info.order(e.loc);
        let in_block = self.st.in_block[t];
        match e.kind {
            EV_LOAD => {
                let atomic = order != 0 || in_block;
                // (a plain load synchronises with nothing)
                if atomic {
                    let from = self.read_from(&e);
                    self.synchronise(t, &from, order, atomic);
                }
                self.check(i, false, atomic);
            }
            EV_STORE => {
                let atomic = order != 0 || in_block;
                self.check(i, true, atomic);
                let w = self.write(i, order, atomic, false);
                if e.aux == 0 {
                    self.write_memory(w, &e);
                } else {
                    self.st.buffered.entry(e.aux2).or_default().push_back((w, i));
                    self.st.log(|_| Undo::Buffered(e.aux2));
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
                    let own = self.st.clocks[t].clone();
                    self.st.set(ClockSlot::FenceRelease(t), own);
                }
                if acquires(order) {
                    let pending = self.st.fence_acquire[t].clone();
                    if !pending.is_empty() {
                        self.st.set(ClockSlot::FenceAcquire(t), vec![]);
                        self.st.join_into(ClockSlot::Thread(t), &pending);
                    }
                }
            }
            EV_SPAWN => {
                let child = e.aux as usize;
                self.thread(child);
                let c = self.st.clocks[t].clone();
                self.st.join_into(ClockSlot::Thread(child), &c);
            }
            EV_JOIN => {
                let u = e.aux as usize;
                self.thread(u);
                let c = self.st.clocks[u].clone();
                self.st.join_into(ClockSlot::Thread(t), &c);
            }
            // a failed try took nothing
            EV_LOCK if e.aux & LOCK_FAILED != 0 => {}
            EV_LOCK => {
                if let Some(c) = self.st.locks.get(&e.addr) {
                    let c = c.clone();
                    self.st.join_into(ClockSlot::Thread(t), &c);
                }
            }
            EV_UNLOCK => {
                // joined, not replaced: a barrier or a semaphore collects
                // every arrival or post (for a mutex the two are the same)
                let c = self.st.clocks[t].clone();
                self.st.join_into(ClockSlot::Lock(e.addr), &c);
            }
            EV_COND_WAIT => {
                // the wait releases its mutex (the event's value)
                let c = self.st.clocks[t].clone();
                self.st.join_into(ClockSlot::Lock(e.value), &c);
            }
            EV_FREE => {
                // the block's buffered stores of this thread are dropped, never written
                let (lo, hi) = (e.addr, e.addr + e.value.max(1));
                let events = self.events;
                self.st.log(|s| Undo::AllBuffered(s.buffered.clone()));
                for q in self.st.buffered.values_mut() {
                    q.retain(|&(_, s)| {
                        let st = &events[s];
                        st.thread != e.thread || st.addr + st.size as u64 <= lo || hi <= st.addr
                    });
                }
            }
            EV_ATOMIC_BEGIN => {
                self.st.log(|s| Undo::InBlock(t, s.in_block[t]));
                self.st.in_block[t] = true;
                let c = self.st.block.clone();
                self.st.join_into(ClockSlot::Thread(t), &c);
            }
            EV_ATOMIC_END => {
                self.st.log(|s| Undo::InBlock(t, s.in_block[t]));
                self.st.in_block[t] = false;
                let c = self.st.clocks[t].clone();
                self.st.set(ClockSlot::Block, c);
            }
            _ => {}
        }
    }
}

/// Threads of an execution (those with events and those spawned), and the
/// bytes its accesses may touch (room for the per-byte tables, so they do
/// not grow and copy themselves step by step).
fn extent(events: &[Event]) -> (usize, usize) {
    let threads = events.iter().filter(|e| e.kind != EV_FLUSH).map(|e| 1 + if e.kind == EV_SPAWN { e.aux as usize } else { e.thread as usize }).max().unwrap_or(1);
    let bytes: usize = events.iter().map(|e| e.size as usize).sum::<usize>().min(1 << 16);
    (threads, bytes)
}

/// Every race of the execution `events`, one per pair of program
/// locations, in the order they were found. Events after a failed
/// `__VERIFIER_assume` are not looked at (the execution is infeasible from
/// there).
pub fn find(events: &[Event], info: &ProgramInfo) -> Vec<Race> {
    let (threads, bytes) = extent(events);
    let mut st = State::new(threads, bytes, false);
    let mut c = Checker { events, info, st: &mut st };
    for (i, e) in events.iter().enumerate() {
        if e.kind == EV_ASSUME_FAILED {
            break;
        }
        c.event(i);
    }
    st.races
}

/// A load or store whose site is not atomic: only such an access can take
/// part in a race (inside an atomic block a plain one counts as atomic, so
/// this over-approximates).
fn plain_access(e: &Event, info: &ProgramInfo) -> bool {
    (e.kind == EV_LOAD || e.kind == EV_STORE) && info.order(e.loc) == 0
}

/// `find` for execution after execution of one search: the next execution
/// replays a prefix of the last one, and the check of an event depends
/// only on the events before it, so the state after the shared prefix is
/// kept (the changes made after it are taken back) and only the rest is
/// checked. The result is `find`'s (debug builds compare the two).
#[derive(Default)]
pub struct Incremental {
    st: State,
    /// the last execution's events (those checked)
    events: Vec<Event>,
    /// per checked event: the length of the undo log before it
    marks: Vec<usize>,
}

impl Incremental {
    pub fn find(&mut self, events: &[Event], info: &ProgramInfo) -> &[Race] {
        let end = events.iter().position(|e| e.kind == EV_ASSUME_FAILED).unwrap_or(events.len());
        // A race needs a plain access; an execution of atomics only (most
        // lock-free tests) has none, and is not checked at all: the state
        // stays the last checked execution's, which the next one is
        // compared with as usual.
        if !events[..end].iter().any(|e| plain_access(e, info)) {
            #[cfg(debug_assertions)]
            assert!(find(events, info).is_empty(), "an execution without plain accesses has a race");
            return &[];
        }
        let mut shared = self.events.iter().zip(&events[..end]).take_while(|(a, b)| a == b).count();
        // the per-byte tables have a row per thread: when the events not
        // checked yet have more threads, start over (those checked fit)
        if extent(&events[shared..]).0 > self.st.threads {
            let (threads, bytes) = extent(events);
            self.st = State::new(threads.max(self.st.threads * 2), bytes, true);
            shared = 0;
        }
        self.st.rewind(self.marks.get(shared).copied().unwrap_or(self.st.undo.len()));
        self.marks.truncate(shared);
        self.events.truncate(shared);
        let mut c = Checker { events, info, st: &mut self.st };
        for i in shared..end {
            self.marks.push(c.st.undo.len());
            c.event(i);
        }
        self.events.extend_from_slice(&events[shared..end]);
        #[cfg(debug_assertions)]
        assert_eq!(self.st.races, find(events, info), "incremental race check differs from the check from scratch");
        &self.st.races
    }
}
