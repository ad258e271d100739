//! The explorer: depth-first search over the choice tree of the program.
//!
//! Each execution replays a prefix of choices and then takes alternative 0 at
//! every new choice point; the runtime reports the trail (alternative taken
//! and number of alternatives at each point). The next prefix flips the
//! deepest choice that still has an untried alternative. This visits every
//! leaf of the tree exactly once: every schedule, every buffer flush order,
//! every enumerated nondet value.

use crate::channel::{self, Event, Server, Status};
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
    pub max_depth: u32,
    pub seconds: f64,
    pub exhausted: bool,
    pub stopped_by: Option<&'static str>,
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
    }
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
        stats.max_depth = stats.max_depth.max(s.trail_len);
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
            if status.is_violation() {
                e.1 += 1;
            }
        }
        if status.is_violation() && violation.is_none() {
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
        // next prefix: flip the deepest choice with an untried alternative
        let mut k = trail_len;
        while k > 0 && s.choices[k - 1].chosen + 1 >= s.choices[k - 1].count {
            k -= 1;
        }
        if k == 0 {
            stats.exhausted = true;
            break;
        }
        s.choices[k - 1].chosen += 1;
        s.prefix_len = k as u32;
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
