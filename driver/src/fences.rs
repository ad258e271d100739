//! Fence inference: a smallest set of program points at which a fence makes
//! the program correct (no violation; with --robustness, robust).
//!
//! Iterate: verify with the fences chosen so far; from a failing execution
//! collect the points that would forbid it (each buffered store that a later
//! access of its thread overtook: a fence right after that store keeps it
//! ahead); choose a minimum hitting set over the candidate sets of every
//! failure found so far; repeat until the program passes. Every failure met
//! is then forbidden by some chosen fence, and no smaller set hits them all,
//! so the answer is minimum for the failures seen and verified to suffice.
//! Under PSO a store that only later stores overtook needs only a
//! store-store barrier (a release fence), which is what such a point asks for.

use crate::channel::Event;
use crate::info::ProgramInfo;
use std::collections::BTreeSet;
use tsoify_pass::FencePoint;

/// The points whose fence would forbid this execution's reorderings.
pub fn candidates(events: &[Event], info: &ProgramInfo) -> BTreeSet<FencePoint> {
    let flushed = crate::robust::flush_times(events);
    let effect = |x: usize| if events[x].is_buffered_store() { flushed.get(&x).copied().unwrap_or(usize::MAX) } else { x };
    let mut out = BTreeSet::new();
    for (s, e) in events.iter().enumerate() {
        if !e.is_buffered_store() {
            continue;
        }
        let done = effect(s);
        // later accesses of the thread that took effect before the store did
        let mut by_load = false;
        let mut by_store = false;
        for (a, f) in events.iter().enumerate().skip(s + 1) {
            if f.thread != e.thread || effect(a) >= done {
                continue;
            }
            match f.kind {
                1 | 19 | 5 | 6 => by_load = true,
                2 => by_store = true,
                _ => {}
            }
        }
        if !(by_load || by_store) {
            continue;
        }
        // a fence goes after a store instruction the pass can find again
        // (not one inside memcpy/memset, not one without a source position)
        let Some(l) = info.loc(e.loc).filter(|l| l.op == 2 && l.line > 0) else { continue };
        out.insert(FencePoint { file: l.file.clone(), line: l.line, col: l.col, function: l.func.clone(), store_store: !by_load });
    }
    out
}

/// A smallest set that meets every set in `sets` (exhaustive by size for
/// small unions, which is what programs with a few racy stores give; greedy
/// beyond that, and then said so by the caller through `exact`).
pub fn minimum_hitting_set(sets: &[BTreeSet<FencePoint>]) -> (Vec<FencePoint>, bool) {
    let universe: Vec<FencePoint> = sets.iter().flatten().cloned().collect::<BTreeSet<_>>().into_iter().collect();
    let hits = |chosen: &[usize]| sets.iter().all(|s| chosen.iter().any(|&c| s.contains(&universe[c])));
    if universe.len() <= 20 {
        for size in 0..=universe.len() {
            let mut pick: Vec<usize> = (0..size).collect();
            loop {
                if hits(&pick) {
                    return (pick.iter().map(|&c| universe[c].clone()).collect(), true);
                }
                // next combination of `size` out of universe.len()
                let n = universe.len();
                let mut i = size;
                while i > 0 && pick[i - 1] == n - size + i - 1 {
                    i -= 1;
                }
                if i == 0 {
                    break;
                }
                pick[i - 1] += 1;
                for j in i..size {
                    pick[j] = pick[j - 1] + 1;
                }
            }
        }
    }
    // greedy: the point in most sets not yet hit
    let mut chosen: Vec<usize> = vec![];
    while !hits(&chosen) {
        let best = (0..universe.len())
            .max_by_key(|&c| sets.iter().filter(|s| !chosen.iter().any(|&d| s.contains(&universe[d])) && s.contains(&universe[c])).count())
            .expect("a nonempty universe");
        chosen.push(best);
    }
    (chosen.iter().map(|&c| universe[c].clone()).collect(), false)
}

/// One line for a fence point: where, in which function, after what.
pub fn describe(f: &FencePoint) -> String {
    let kind = if f.store_store { "store-store barrier" } else { "full fence" };
    format!("{}:{}:{} in {}: {kind} after the store there", f.file, f.line, f.col, f.function)
}
