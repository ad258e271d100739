//! Which flush made room in a full bounded PSO buffer, and when that choice
//! needs exploring.
//!
//! A store into a full buffer waits until one of its thread's entries
//! leaves. Under TSO that is the oldest; under PSO any address's oldest
//! entry may go, and which one decides what stays buffered. Flushes of
//! different addresses commute as events, so no ordinary race shows the
//! choice: the analysis reports a *room race* between the waiting store and
//! each flush that made room (analysis.rs), and `room_makers` tries the
//! other flushes where the thread waited.
//!
//! Which entry left matters only if another thread touches its bytes later
//! in the execution. Where no one does, the entries still buffered are seen
//! as they would be had another left instead: a later access to one of them
//! races with its later flush, whose reversal flushes it just before that
//! access, and an entry that left unobserved could as well have stayed.
//! Exploring every choice regardless made the executions grow with the ways
//! to choose which stores stay buffered, though no thread could tell them
//! apart (16 stores nobody reads, PSO K = 2: 195,025 executions for one).

use super::{add_first_steps, Node};
use crate::channel::{flush_owner, is_pso_flush_proc, Event, EV_STORE};
use std::collections::HashMap;

/// A store into a bounded buffer that fits only because earlier flushes
/// made room (runtime memmodel.c, aux 4 | m << 8), against one of those
/// flushes under PSO.
fn is_room_race(events: &[Event], j: usize, i: usize) -> bool {
    let (flush, store) = (&events[j], &events[i]);
    store.kind == EV_STORE && store.aux & 0xff == 4 && flush.fp.flush() && is_pso_flush_proc(flush.fp.proc) && flush.fp.owner == store.fp.owner
}

/// The races worth reversing: all of them but the room races whose flush
/// no other thread observes later in the execution.
pub(super) fn races_to_reverse(events: &[Event], races: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut flushes: Vec<usize> = races.iter().filter(|&&(j, i)| is_room_race(events, j, i)).map(|&(j, _)| j).collect();
    if flushes.is_empty() {
        return races.to_vec();
    }
    flushes.sort_unstable();
    flushes.dedup();
    let observed = observed_later(events, &flushes);
    races.iter().copied().filter(|&(j, i)| !is_room_race(events, j, i) || observed[flushes.binary_search(&j).unwrap()]).collect()
}

/// Where a thread waited for room and a flush of its buffer ran, if that
/// flush is observed later (see the module header), every other flush of
/// that buffer is tried there too (source DPOR: backtracked unless asleep;
/// optimal: a synthetic one-step branch).
pub fn room_makers(path: &mut [Node], events: &[Event], optimal: bool) {
    for k in 0..path.len() {
        let node = &path[k];
        if !node.room_wait || !node.schedule {
            continue;
        }
        let Some(owner) = flush_owner(node.options[node.chosen as usize]) else {
            continue; // no flush ran here: the one that makes room runs at a later node
        };
        let at = node.event as usize;
        // where the log does not show the flush at its node (a guard), it counts as seen
        let seen = match events.get(at) {
            Some(e) if e.fp.flush() && e.fp.proc == node.options[node.chosen as usize] => observed_later(events, &[at])[0],
            _ => true,
        };
        if !seen {
            continue;
        }
        let node = &mut path[k];
        let flushes: Vec<u32> =
            (0..node.count).filter(|&o| flush_owner(node.options[o as usize]) == Some(owner) && !node.asleep(node.options[o as usize])).collect();
        add_first_steps(node, flushes, optimal, false);
    }
}

/// Bytes per cell of the map `observed_later` keeps (accesses are compared
/// by the cells they touch: a false match only explores more).
const CELL: u64 = 8;
/// An access wider than this many cells is kept in a list instead.
const WIDE: u64 = 64;

/// For each flush of `flushes` (event indices, ascending): does an event of
/// another thread read or write its bytes later in the execution? One pass
/// from the end, keeping per cell who touched it.
fn observed_later(events: &[Event], flushes: &[usize]) -> Vec<bool> {
    // per cell: the one owner that touched it so far, or None for several
    let mut cells: HashMap<u64, Option<u16>> = HashMap::new();
    let mut wide: Vec<(u64, u64, u16)> = vec![];
    let mut out = vec![false; flushes.len()];
    let mut next = flushes.len();
    for k in (0..events.len()).rev() {
        let f = &events[k].fp;
        if next > 0 && flushes[next - 1] == k {
            next -= 1;
            let other = |o: &Option<u16>| *o != Some(f.owner);
            out[next] = (f.lo / CELL..f.hi.div_ceil(CELL)).any(|c| cells.get(&c).is_some_and(other))
                || wide.iter().any(|&(lo, hi, o)| o != f.owner && lo < f.hi && f.lo < hi);
        }
        if f.sync() || !(f.reads() || f.writes()) || f.hi <= f.lo {
            continue;
        }
        if (f.hi - f.lo).div_ceil(CELL) > WIDE {
            wide.push((f.lo, f.hi, f.owner));
            continue;
        }
        for c in f.lo / CELL..f.hi.div_ceil(CELL) {
            cells.entry(c).and_modify(|o| *o = o.filter(|&o| o == f.owner)).or_insert(Some(f.owner));
        }
    }
    out
}
