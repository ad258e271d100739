//! The explorer: depth-first search over the choice tree of the program.
//!
//! Each execution replays a prefix of choices and then takes alternative 0 at
//! every new choice point; the runtime reports the trail (alternative taken
//! and number of alternatives at each point). The next prefix flips the
//! deepest choice that still has an untried alternative. This visits every
//! leaf of the tree exactly once: every schedule, every buffer flush order,
//! every enumerated nondet value.

use crate::channel::{self, Event, Server, Status};
use crate::dpor::{self, Node};
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Config {
    pub model: u32,
    pub bound: u32,
    pub max_steps: u32,
    pub max_executions: Option<u64>,
    pub timeout: Option<Duration>,
    pub hang_seconds: u32,
    /// keep exploring after a violation (to enumerate outcomes)
    pub all: bool,
    /// partial order reduction
    pub por: Por,
    /// which execution endings are violations
    pub property: Property,
}

/// What counts as a violation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Property {
    /// assertion, reach_error, abort, deadlock and crash (the default of `verify`)
    #[default]
    AnyFailure,
    /// SV-COMP's unreach-call: only reach_error and a failed assert are
    /// violations. abort() and a deadlock end an execution without one (they
    /// are how tasks cut paths, e.g. assume_abort_if_not); a crash makes the
    /// verdict UNKNOWN (the program's behaviour is undefined there).
    UnreachCall,
}

impl Property {
    pub fn is_violation(self, status: Status) -> bool {
        match self {
            Property::AnyFailure => status.is_violation(),
            Property::UnreachCall => matches!(status, Status::Assert | Status::ReachError),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Por {
    /// every interleaving (exhaustive; the reference the reduction is tested against)
    None,
    /// source-set DPOR with sleep sets: one interleaving per class of
    /// equivalent ones, plus a few that a sleep set cuts short
    #[value(alias = "dpor")]
    Source,
}

impl Por {
    pub fn name(self) -> &'static str {
        match self {
            Por::None => "none",
            Por::Source => "source",
        }
    }
}

/// The first violating execution, with what is needed to print it.
#[derive(Clone, Debug)]
pub struct Violation {
    pub status: Status,
    pub message: String,
    pub signal: u32,
    pub thread: u32,
    pub loc: u32,
    pub events: Vec<Event>,
    pub events_truncated: bool,
    pub outcome: String,
}

#[derive(Default, Debug)]
pub struct Stats {
    pub executions: u64,
    /// executions discarded by __VERIFIER_assume(false)
    pub assume_blocked: u64,
    pub step_limited: u64,
    pub hangs: u64,
    pub nondet_sampled: u64,
    pub internal: Vec<String>,
    pub seconds: f64,
    pub exhausted: bool,
    /// executions whose event log overflowed (reduction fell back to exhaustive there)
    pub events_truncated: u64,
    pub stopped_by: Option<&'static str>,
    /// executions ended by abort() or a deadlock that the property does not count
    pub quiet_ends: u64,
    /// executions that crashed when the property does not count a crash as a violation
    pub crashes: u64,
}

pub struct Exploration {
    pub stats: Stats,
    pub violation: Option<Violation>,
    /// outcome text -> (executions, of which violating)
    pub outcomes: BTreeMap<String, (u64, u64)>,
}

pub fn explore(program: &Path, args: &[String], info: &Path, cfg: &Config, mut progress: impl FnMut(&Stats)) -> Result<Exploration> {
    let mut server = Server::start(program, args, info)?;
    {
        let s = server.shm();
        s.model = cfg.model;
        s.bound = cfg.bound;
        s.max_steps = cfg.max_steps;
        s.log_events = 1;
        s.hang_seconds = cfg.hang_seconds;
        s.prefix_len = 0;
        s.por = (cfg.por == Por::Source) as u32;
    }
    let mut path: Vec<Node> = vec![];
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut violation = None;
    let mut outcomes: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut last_progress = Instant::now();
    loop {
        let status = server.run()?;
        stats.executions += 1;
        let s = server.shm();
        let trail_len = s.trail_len as usize;
        if s.flags & channel::FL_NONDET_SAMPLED != 0 {
            stats.nondet_sampled += 1;
        }
        match status {
            Status::Assume => stats.assume_blocked += 1,
            Status::StepLimit => stats.step_limited += 1,
            Status::Hang => stats.hangs += 1,
            Status::Internal | Status::Running => {
                let msg = channel::c_text(&s.message, channel::MESSAGE_BYTES);
                if !stats.internal.contains(&msg) {
                    stats.internal.push(msg);
                }
            }
            _ => {}
        }
        if status != Status::Assume && s.outcome_len > 0 {
            let text = channel::c_text(&s.outcome, s.outcome_len as usize);
            let e = outcomes.entry(text).or_default();
            e.0 += 1;
            if cfg.property.is_violation(status) {
                e.1 += 1;
            }
        }
        if status.is_violation() && !cfg.property.is_violation(status) {
            if status == Status::Crash {
                stats.crashes += 1;
            } else {
                stats.quiet_ends += 1;
            }
        }
        if cfg.property.is_violation(status) && violation.is_none() {
            let n = s.n_events as usize;
            violation = Some(Violation {
                status,
                message: channel::c_text(&s.message, channel::MESSAGE_BYTES),
                signal: s.signal,
                thread: s.status_thread,
                loc: s.status_loc,
                events: s.events[..n].to_vec(),
                events_truncated: s.flags & channel::FL_EVENTS_TRUNC != 0,
                outcome: channel::c_text(&s.outcome, s.outcome_len as usize),
            });
            if !cfg.all {
                break;
            }
        }
        // extend the path with the choice points this execution met first
        let prefix = s.prefix_len as usize;
        path.truncate(prefix);
        for c in &s.choices[prefix..trail_len] {
            let mut node = Node::from_choice(c, &s.option_procs);
            if cfg.por == Por::None {
                node.backtrack = (0..node.count).collect();
            }
            path.push(node);
        }
        if cfg.por == Por::Source {
            if s.flags & channel::FL_EVENTS_TRUNC != 0 {
                // no complete footprint: explore this execution's nodes in full
                stats.events_truncated += 1;
                for node in path.iter_mut() {
                    node.backtrack = (0..node.count).collect();
                }
            } else {
                dpor::add_backtracks(&mut path, &s.events[..s.n_events as usize]);
            }
        }
        // next prefix: the deepest node with an alternative left
        let Some(k) = (0..path.len()).rev().find(|&k| path[k].next().is_some()) else {
            stats.exhausted = true;
            break;
        };
        let alt = path[k].next().unwrap();
        path.truncate(k + 1);
        path[k].chosen = alt;
        path[k].done.insert(alt);
        for (slot, node) in s.choices.iter_mut().zip(&path) {
            slot.chosen = node.chosen;
        }
        s.prefix_len = path.len() as u32;
        if cfg.max_executions.is_some_and(|m| stats.executions >= m) {
            stats.stopped_by = Some("max-executions");
            break;
        }
        if cfg.timeout.is_some_and(|t| start.elapsed() >= t) {
            stats.stopped_by = Some("timeout");
            break;
        }
        if last_progress.elapsed() >= Duration::from_millis(250) {
            stats.seconds = start.elapsed().as_secs_f64();
            progress(&stats);
            last_progress = Instant::now();
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(Exploration { stats, violation, outcomes })
}
