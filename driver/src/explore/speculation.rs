//! Posting the next execution before the last one is analysed.
//!
//! With a CPU of its own for the program's worker (`channel::CpuClaim`),
//! the search need not wait for its analysis to know the next execution
//! most of the time: depth-first, the next one starts at the deepest node
//! with work left, and an analysis only adds work (wakeup sequences,
//! backtrack points). Where it adds none below that node, and the wakeup
//! branch taken there is the one that was first already (insertion never
//! puts a branch before the first), the next execution is the one the
//! search can name before the analysis: `predict`. The search posts it,
//! analyses while the worker runs it, then makes the next execution as
//! always and compares: the worker ran exactly that command (`NextRun`),
//! so its answer is that execution's answer; otherwise the answer is
//! dropped and the real command runs. An execution is a function of its
//! command, so a search that overlaps explores the same executions in the
//! same order as one that does not (tests/overlap.rs). lastzero N = 12:
//! 87% of the posted executions are used.
//!
//! `predict` names the next execution only where that takes no more than a
//! look at the path: optimal or source DPOR (not `--por none`, the
//! reference the others are checked against), no value choices, no wide
//! nondet values, no probe due (`Search::next_prefix` does the rest).

use super::{set_sleepers, Search};
use crate::channel::{self, Event};
use crate::dpor::{self, Inputs, Step};
use std::rc::Rc;

/// What the runtime runs an execution from: the choices of its prefix,
/// the wide nondet values, the sleep set and the guide of a wakeup branch.
pub(super) struct NextRun {
    pub chosen: Vec<u32>,
    pub inputs: Inputs,
    /// the sleepers the runtime gets (`sendable`)
    pub sleepers: Vec<Rc<Step>>,
    pub guide: Vec<u32>,
}

impl NextRun {
    pub fn new(chosen: Vec<u32>, inputs: Inputs, sleepers: &[Rc<Step>], guide: Vec<u32>) -> NextRun {
        NextRun { chosen, inputs, sleepers: sendable(sleepers), guide }
    }

    /// Put it in the channel for the worker.
    pub fn write(&self, s: &mut channel::Shm) {
        for (slot, &chosen) in s.choices.iter_mut().zip(&self.chosen) {
            slot.chosen = chosen;
        }
        s.prefix_len = self.chosen.len() as u32;
        crate::concolic::set_inputs(s, &self.inputs);
        set_sleepers(s, &self.sleepers);
        s.guide_len = self.guide.len().min(channel::MAX_GUIDE) as u32;
        s.guide[..s.guide_len as usize].copy_from_slice(&self.guide[..s.guide_len as usize]);
    }
}

/// Two commands the runtime cannot tell apart.
impl PartialEq for NextRun {
    fn eq(&self, o: &NextRun) -> bool {
        self.chosen == o.chosen
            && self.guide == o.guide
            && *self.inputs == *o.inputs
            && self.sleepers.len() == o.sleepers.len()
            && self.sleepers.iter().zip(&o.sleepers).all(|(a, b)| a.proc == b.proc && a.fps == b.fps)
    }
}

/// The sleepers that fit the channel: the first step of each process
/// with a closed footprint (an open step is not all its process can do,
/// and one that does not fit stays awake: always sound, an awake process
/// is only explored once more).
fn sendable(sleepers: &[Rc<Step>]) -> Vec<Rc<Step>> {
    let mut sent: Vec<Rc<Step>> = vec![];
    let mut fps = 0usize;
    for z in sleepers {
        if z.open || sent.iter().any(|y| y.proc == z.proc) || sent.len() == channel::MAX_SLEEPERS || fps + z.fps.len() > channel::MAX_SLEEP_FPS {
            if dpor::debug_por() && !sent.iter().any(|y| y.proc == z.proc) {
                eprintln!("sleeper {} left awake (open {}, {} footprints)", z.proc, z.open, z.fps.len());
            }
            continue;
        }
        fps += z.fps.len();
        sent.push(z.clone());
    }
    sent
}

/// The next execution, if the analysis of the last one (`events`) adds
/// nothing that changes it; None where it cannot be named cheaply.
pub(super) fn predict(search: &Search, events: &[Event], steps: Option<&dpor::Steps>) -> Option<NextRun> {
    if !search.reduce || !search.inputs.is_empty() || !search.path.iter().all(|n| n.schedule) {
        return None;
    }
    let optimal = search.optimal;
    let k = (0..search.path.len()).rev().find(|&k| search.path[k].next(optimal).is_some())?;
    let node = &search.path[k];
    if node.explore_all || node.branch {
        return None;
    }
    // (optimal: a first branch that cannot start here is dropped by next_prefix)
    let Some(dpor::Next::Option(alt)) = node.next(optimal) else { return None };
    let (guide, inputs) = if optimal {
        let branch = node.wut.first()?;
        if !branch.inputs.is_empty() {
            return None;
        }
        (dpor::guide_for(branch), search.inputs.clone())
    } else {
        // source DPOR: a backtrack point, no guide (an option added to
        // the backtrack set before this one takes its place: compared)
        (vec![], node.inputs.clone())
    };
    // what ran at k sleeps through the branch, as next_prefix has it
    let ran = dpor::step_at(&search.path, events, k, steps);
    let sleepers: Vec<Rc<Step>> = node.sleep.iter().chain(&node.explored).cloned().chain(std::iter::once(ran)).collect();
    let chosen = search.path[..k].iter().map(|n| n.chosen).chain(std::iter::once(alt)).collect();
    Some(NextRun::new(chosen, inputs, &sleepers, guide))
}
