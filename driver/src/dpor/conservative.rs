//! Branches both reductions add where no race of the execution shows
//! them: the flush of a store still buffered at the end before each read
//! of its bytes, every flush where a thread waits for room in its full
//! buffer, and every other process before the step that ends the
//! execution (see each function).

use super::*;

/// Stores still buffered when the execution ended never flushed, so no
/// flush event shows their races: a read by another thread of those bytes,
/// after the store, would have seen the store had its flush come first.
/// For each such read, the store's flush process is tried before the read's
/// step (where it is no option, a PSO entry held back by an older one,
/// every flush of that thread is). Source DPOR: backtrack; optimal: a
/// synthetic one-step branch (`add_first_steps`).
pub fn unflushed_at_the_end(path: &mut [Node], steps: &Steps, events: &[Event], optimal: bool) {
    // The common end: as many flushes as buffered stores and none dropped
    // (each flush takes a store of its own process), so none is left. A
    // count is cheaper than the queues below (2% of a short TSO execution).
    let mut left = 0isize;
    for e in events {
        if e.is_buffered_store() {
            left += 1;
        } else if e.kind == EV_FLUSH {
            left -= 1;
        } else if e.kind == crate::channel::EV_DROP {
            left = isize::MIN;
            break;
        }
    }
    if left == 0 && !cfg!(debug_assertions) {
        return;
    }
    // buffered stores by flush process, FIFO; flushes take the oldest
    let mut pending: HashMap<u32, VecDeque<usize>> = HashMap::default();
    for (i, e) in events.iter().enumerate() {
        if e.is_buffered_store() {
            pending.entry(e.aux2).or_default().push_back(i);
        } else if e.kind == EV_FLUSH {
            if let Some(q) = pending.get_mut(&e.fp.proc) {
                q.pop_front();
            }
        } else if e.kind == crate::channel::EV_DROP {
            if let Some(q) = pending.get_mut(&(e.aux)) {
                analysis::forget_dropped(q, events, e);
            }
        }
    }
    let mut unflushed: Vec<(u32, usize)> = pending.into_iter().flat_map(|(p, q)| q.into_iter().map(move |i| (p, i))).collect();
    // in execution order: the branches added below are explored in the
    // order they are added, and a search must not depend on a hash order
    unflushed.sort_unstable_by_key(|&(_, st)| st);
    debug_assert!(left != 0 || unflushed.is_empty(), "stores left buffered where the count says none: {unflushed:?}");
    if unflushed.is_empty() {
        return;
    }
    for (flusher, st) in unflushed {
        let store = &events[st];
        let (lo, hi) = (store.addr, store.addr + store.size.max(1) as u64);
        for (j, e) in events.iter().enumerate().skip(st + 1) {
            let reads = e.fp.reads() && !e.fp.sync() && e.thread != store.thread && e.fp.lo < hi && lo < e.fp.hi;
            let s = steps.of_event[steps.blocks.start(j)];
            if !reads || s == NO_STEP {
                continue;
            }
            let node = &mut path[steps.node[s]];
            let owner = crate::channel::flush_owner(flusher);
            let want: Vec<u32> = match node.option_of(flusher) {
                Some(o) => vec![o],
                None => (0..node.count).filter(|&o| crate::channel::flush_owner(node.options[o as usize]) == owner && owner.is_some()).collect(),
            };
            let awake: Vec<u32> = want.into_iter().filter(|&o| !node.asleep(node.options[o as usize])).collect();
            add_first_steps(node, awake, optimal, false);
        }
    }
}

/// Where a thread waits for room in its full bounded buffer, any flush of
/// it may be the one that makes room, and which entry leaves decides what
/// stays buffered (under PSO several may leave; the flushes commute as
/// events, so no race shows the choice): every flush there of a thread
/// that waits for room is tried (source DPOR: backtracked unless asleep;
/// optimal: a synthetic one-step branch). The runtime names the waiting
/// threads: the flushes of a thread blocked for another reason (at its
/// exit, waiting for its own flushes) make room for no one here, and the
/// reduction finds them where they race as it finds any other.
pub fn room_makers(path: &mut [Node], optimal: bool) {
    for node in path.iter_mut().filter(|n| n.room_waiters != 0 && n.schedule) {
        let waiting = |owner: u32| owner < 64 && node.room_waiters >> owner & 1 != 0;
        let flushes: Vec<u32> = (0..node.count).filter(|&o| crate::channel::flush_owner(node.options[o as usize]).is_some_and(waiting) && !node.asleep(node.options[o as usize])).collect();
        add_first_steps(node, flushes, optimal, false);
    }
}

/// Make sure each of `options` is explored first at `node`: source DPOR's
/// backtrack set, or for optimal DPOR a one-step wakeup branch whose step
/// this execution did not show (open: dependent with everything).
fn add_first_steps(node: &mut Node, options: Vec<u32>, optimal: bool, covering: bool) {
    if optimal {
        for o in options {
            let proc = node.options[o as usize];
            if o != node.chosen && !node.done.contains(o) && !node.wut.iter().any(|w| w.first_proc() == proc) {
                let step = Rc::new(Step { proc, fps: vec![], values: vec![], open: true, covers_nothing: !covering, reread: false, block: false, touched: OnceCell::new() });
                node.wut.push(WNode::new(VecDeque::from([step]), vec![], node.inputs.clone()));
            }
        }
    } else {
        node.backtrack.extend(options);
    }
}

/// The last step of an execution ended it: every other process enabled
/// where that step began is tried there too (see the caller in explore/mod.rs):
/// every other thread, and the flush processes of other threads' buffers (a
/// flush may be what a thread waits for before it can run: a fence, an
/// atomic block, a locked instruction). The step begins at the last
/// scheduling node where another thread could run: later nodes offer only
/// the ending thread and flushes (inside an atomic block, or with the
/// others blocked), so from there on its run is forced, unless a flush
/// there would let another thread run. Source DPOR adds them to the
/// backtrack set unless they sleep; optimal DPOR adds a one-step wakeup
/// branch for each (a step this execution never ran, so it is taken as
/// dependent with everything).
pub fn other_threads_before_the_end(path: &mut [Node], optimal: bool) {
    use crate::channel::flush_owner;
    let mut ending: Option<u32> = None;
    for k in (0..path.len()).rev() {
        let node = &mut path[k];
        if !node.schedule {
            continue;
        }
        let chosen = node.chosen;
        let mine = node.options[chosen as usize];
        if flush_owner(mine).is_some() {
            continue; // a flush step in between
        }
        let ender = *ending.get_or_insert(mine);
        if mine != ender {
            return; // another thread ran after this one's last chance: its run was not forced
        }
        // (a flush of the ender's own buffer enables no other thread, and
        // no one is left to read what it writes)
        let other = |p: u32| p != ender && flush_owner(p) != Some(ender);
        let others: Vec<u32> = (0..node.count).filter(|&o| o != chosen && other(node.options[o as usize])).collect();
        if others.is_empty() {
            continue;
        }
        let awake: Vec<u32> = others.into_iter().filter(|&o| !node.asleep(node.options[o as usize])).collect();
        add_first_steps(node, awake, optimal, true);
        return;
    }
}
