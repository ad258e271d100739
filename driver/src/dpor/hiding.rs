//! Writes a load cannot see because its own thread's store hides them.
//!
//! A load of thread p whose bytes p itself stored earlier (a store that
//! covers the whole load, the latest of p's stores there) reads that store
//! (from p's buffer, or from memory after its flush) or a write that
//! reached memory after that flush. A write of another thread that reached
//! memory before the flush is overwritten by it before the load can see
//! it, whichever of the load and that write comes first: the two commute.
//! Chronological traces (Abdulla et al., "Stateless model checking for TSO
//! and PSO", rule 2 of section 2) leave out exactly that edge; with it, the
//! race analysis told apart executions that differ only in where such a
//! hidden write went relative to the load (CoWR: store x=1; load x in one
//! thread, store x=2 in another had 4 executions under TSO against 3 under
//! SC; a program without relaxed behaviour must cost no more under TSO).
//!
//! The race analysis (happens-before and races) uses this per event; the
//! runtime's sleep sets (choice.c `hidden_write`) and the wakeup trees
//! (`Seq::hidden` in mod.rs) apply the same rule to a step from another
//! execution, in the state where they decide.
//!
//! Whether a write is hidden depends on the state: once the own store
//! leaves (a flush that commutes with the load), later writes are seen.
//! So a sleeping load, or one in a wakeup tree, must not be carried across
//! that flush as if nothing changed: for sleep sets and wakeup sequences
//! the load and the flush of its own thread's buffer over its bytes count
//! as dependent (choice.c `uncovering_flush`, `Seq::uncovers`). Without
//! that, a sleeping load stood for a sequence in which, past its own flush,
//! it would have read another thread's write: optimal DPOR answered SAFE on
//! tests/programs/reduction/uncovering-flush.c (unsafe under SC) under TSO
//! and PSO with unbounded buffers, and on hidden-writes-bounded.c at buffer
//! size 1. The race analysis keeps the load and the flush independent.

use super::analysis::{owner_of_flush, words};
use crate::channel::{Event, EV_CMPXCHG, EV_FLUSH, EV_LOAD, EV_RMW, EV_STORE};
use rustc_hash::FxHashMap;

const NONE: u32 = u32::MAX;

/// For the events of one execution so far: which own store covers each
/// load, and where each store's bytes reached memory.
#[derive(Default)]
pub(super) struct Hiding {
    /// (thread, 8-byte word) -> the thread's latest write touching it
    latest: FxHashMap<(u16, u64), u32>,
    /// per event: for a load, the own store covering it (else NONE)
    cover: Vec<u32>,
    /// per event: for a write of the thread (a store, read-modify-write,
    /// compare-exchange), the event that put its bytes in memory (itself
    /// unless buffered; NONE while buffered; 0 once dropped unflushed,
    /// which hides nothing)
    update: Vec<u32>,
    /// a buffered store occurred: before one, no write hides anything (a
    /// write that is not buffered is in memory before the thread's next
    /// load, so what it overwrote happens before that load anyway), and
    /// SC executions, which buffer nothing, skip the bookkeeping
    buffering: bool,
    /// the rule is off (bounded buffers: see `Analyzer::new`): no load
    /// is covered
    pub(super) off: bool,
}

/// A store, read-modify-write or compare-exchange of the event's thread.
pub(super) fn own_write(e: &Event) -> bool {
    matches!(e.kind, EV_STORE | EV_RMW | EV_CMPXCHG)
}

/// An event that puts a thread's bytes in memory: a flush, or an own write
/// that is not buffered (a free is none: a load after it is a use after
/// free, so it never commutes with one).
pub(super) fn writes_memory(e: &Event) -> bool {
    e.kind == EV_FLUSH || (own_write(e) && !e.is_buffered_store())
}

/// The thread whose bytes a memory write puts there.
pub(super) fn writer(e: &Event) -> u16 {
    if e.kind == EV_FLUSH {
        owner_of_flush(e) as u16
    } else {
        e.thread
    }
}

impl Hiding {
    pub(super) fn clear(&mut self) {
        self.latest.clear();
        self.cover.clear();
        self.update.clear();
        self.buffering = false;
    }

    /// Take in event i (the ones before it taken in already); call before
    /// its flush (if it is one) is matched with its store (`flushed`).
    pub(super) fn add(&mut self, events: &[Event], i: usize) {
        debug_assert_eq!(self.cover.len(), i);
        let e = &events[i];
        let mut cover = NONE;
        self.buffering |= e.is_buffered_store() && !self.off;
        if e.kind == EV_LOAD && self.buffering {
            // the latest own write to any of its words, if it holds all its bytes
            let latest = words(&e.fp).filter_map(|w| self.latest.get(&(e.thread, w))).max();
            if let Some(&s) = latest {
                let s_fp = &events[s as usize].fp;
                if s_fp.lo <= e.fp.lo && e.fp.hi <= s_fp.hi {
                    cover = s;
                }
            }
        }
        self.cover.push(cover);
        self.update.push(if own_write(e) && !e.is_buffered_store() { i as u32 } else { NONE });
        if own_write(e) && self.buffering {
            for w in words(&e.fp) {
                self.latest.insert((e.thread, w), i as u32);
            }
        }
    }

    /// Where the bytes of own write `store` reached memory: an event index,
    /// u32::MAX while buffered, 0 once dropped.
    pub(super) fn update_of(&self, store: usize) -> u32 {
        self.update[store]
    }

    /// The buffered store `store` reached memory at event `at`.
    pub(super) fn flushed(&mut self, store: usize, at: usize) {
        self.update[store] = at as u32;
    }

    /// The buffered store `store` was dropped with its memory.
    pub(super) fn dropped(&mut self, store: usize) {
        self.update[store] = 0;
    }

    /// Whether events a and b (of the execution so far, in either order)
    /// are a load and another thread's write that its own store hides.
    pub(super) fn hides(&self, events: &[Event], a: usize, b: usize) -> bool {
        self.hidden(events, a, b) || self.hidden(events, b, a)
    }

    fn hidden(&self, events: &[Event], load: usize, write: usize) -> bool {
        let s = self.cover[load];
        if s == NONE {
            return false;
        }
        let w = &events[write];
        // the own store's bytes reach memory after the write (or not yet)
        writes_memory(w) && writer(w) != events[load].thread && self.update[s as usize] > write as u32
    }
}
