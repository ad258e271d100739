//! `verify --compare`: run one built program under several memory models and
//! store-buffer bounds, and put the answers side by side: a table (text, CSV,
//! JSON), the smallest bound at which each model shows a violation, and a
//! plot of executions and seconds against the bound.
//!
//! Model and bound are runtime parameters of the instrumented program, so the
//! program is built once and every configuration is one `explore::explore`.

use crate::build::model_name;
use crate::explore::{self, Config, Por};
use crate::report::{self, Verdict};
use anyhow::{Context, Result};
use std::path::Path;

mod plot;
mod render;

/// The models compared when `--models` is not given.
pub const DEFAULT_MODELS: [u32; 3] = [0, 1, 2];
/// The bounds compared when `--bounds` is not given (0 = unbounded).
pub const DEFAULT_BOUNDS: [u32; 6] = [1, 2, 4, 8, 32, 0];

/// Parse one `--bounds` entry: a positive number of buffered stores per
/// thread, or `unbounded` / `0` for no bound.
pub fn parse_bound(s: &str) -> Result<u32, String> {
    match s.trim() {
        "unbounded" | "0" => Ok(0),
        t => t
            .parse::<u32>()
            .map_err(|_| format!("`{t}` is not a store-buffer bound (expected a number of stores, or `unbounded`)")),
    }
}

/// The order in which bounds are listed and plotted: ascending, unbounded last.
fn bound_key(b: u32) -> u64 {
    if b == 0 { u64::MAX } else { b as u64 }
}

/// How a bound is shown: `-` for SC (no store buffers), `unbounded` for 0.
pub fn bound_label(bound: Option<u32>) -> String {
    match bound {
        None => "-".into(),
        Some(0) => "unbounded".into(),
        Some(b) => b.to_string(),
    }
}

/// The configurations to run, in table order: models sc, tso, pso (those
/// asked for), each with the bounds ascending and unbounded last; SC once,
/// without a bound. Duplicates are dropped.
pub fn configurations(models: &[u32], bounds: &[u32]) -> Vec<(u32, Option<u32>)> {
    let mut models = models.to_vec();
    models.sort_unstable();
    models.dedup();
    let mut bounds = bounds.to_vec();
    bounds.sort_unstable_by_key(|&b| bound_key(b));
    bounds.dedup();
    let mut out = vec![];
    for m in models {
        if m == 0 {
            out.push((0, None));
        } else {
            out.extend(bounds.iter().map(|&b| (m, Some(b))));
        }
    }
    out
}

/// What every configuration runs with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// the search (limits, reduction, --unroll, ...) each configuration
    /// starts from; `config_for` sets its model and bound and turns off
    /// what a comparison does not report (outcomes, robustness, races)
    pub search: Config,
    /// show an indicatif progress bar on stderr
    pub progress: bool,
}

/// One configuration's answer.
#[derive(Clone, Debug)]
pub struct Row {
    pub model: u32,
    /// None for SC, which has no store buffers; Some(0) is unbounded
    pub bound: Option<u32>,
    pub verdict: Verdict,
    pub executions: u64,
    pub assume_blocked: u64,
    pub seconds: f64,
    pub por: Por,
}

/// Every row of a comparison, in table order.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub rows: Vec<Row>,
    /// constructs the build allowed with --allow-unsupported
    pub warnings: Vec<String>,
    /// the violation of the first configuration (in table order) that found
    /// one, for `--html` to draw
    pub counterexample: Option<Counterexample>,
}

/// A configuration's violation.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub model: u32,
    pub bound: Option<u32>,
    pub violation: explore::Violation,
}

/// Run `program` once per configuration (see [`configurations`]).
pub fn run(program: &Path, args: &[String], info: &Path, models: &[u32], bounds: &[u32], settings: &Settings) -> Result<Comparison> {
    let configs = configurations(models, bounds);
    let bar = settings.progress.then(|| progress_bar(configs.len()));
    let mut rows = vec![];
    let mut counterexample = None;
    for &(model, bound) in &configs {
        let name = config_name(model, bound);
        if let Some(b) = &bar {
            b.set_message(name.clone());
        }
        let x = explore::explore(program, args, info, &config_for(model, bound, settings), |s, _| {
            if let Some(b) = &bar {
                b.set_message(format!("{name}: {} executions", s.executions));
            }
        })
        .with_context(|| name.clone())?;
        if counterexample.is_none() {
            counterexample = x.violation.clone().map(|violation| Counterexample { model, bound, violation });
        }
        rows.push(row_of(model, bound, &x));
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(Comparison { rows, warnings: vec![], counterexample })
}

/// A bar over the configurations, with the one running and its executions.
fn progress_bar(configs: usize) -> indicatif::ProgressBar {
    let b = indicatif::ProgressBar::new(configs as u64);
    b.set_style(indicatif::ProgressStyle::with_template("{bar:20} {pos}/{len} {elapsed} {msg}").unwrap().progress_chars("=> "));
    b
}

/// One configuration's search: the comparison's limits and reduction,
/// without the per-run extras (outcomes, robustness, races).
fn config_for(model: u32, bound: Option<u32>, settings: &Settings) -> Config {
    Config {
        model,
        bound: bound.unwrap_or(0),
        all: false,
        property: Default::default(),
        robustness: false,
        races: crate::explore::RaceCheck::Off,
        // each bound's own search: the table compares them
        unbounded_first: false,
        ..settings.search.clone()
    }
}

/// The table row of one configuration's answer.
fn row_of(model: u32, bound: Option<u32>, x: &explore::Exploration) -> Row {
    Row {
        model,
        bound,
        verdict: report::verdict(x),
        executions: x.stats.executions,
        assume_blocked: x.stats.assume_blocked,
        seconds: x.stats.seconds,
        por: x.por,
    }
}

fn config_name(model: u32, bound: Option<u32>) -> String {
    match bound {
        None => model_name(model).to_string(),
        Some(b) => format!("{} bound {}", model_name(model), bound_label(Some(b))),
    }
}

/// The smallest bound at which one model showed a violation.
#[derive(Clone, Debug, PartialEq)]
pub enum Smallest {
    /// violated at this bound (None: SC, where no bound applies); `unknown_below`
    /// lists smaller bounds whose verdict was UNKNOWN (the true smallest may be one of them)
    At { bound: Option<u32>, unknown_below: Vec<u32> },
    /// no violation, and every configuration of the model was SAFE
    None,
    /// no violation found, but some configuration was UNKNOWN
    Unknown,
}

impl Smallest {
    /// The bound as the table shows it; None when there is no violation.
    pub fn label(&self) -> Option<String> {
        match self {
            Smallest::At { bound, .. } => Some(bound_label(*bound)),
            _ => None,
        }
    }
}

impl Comparison {
    /// The models in table order.
    pub fn models(&self) -> Vec<u32> {
        let mut m: Vec<u32> = self.rows.iter().map(|r| r.model).collect();
        m.dedup();
        m
    }

    /// The bounds of the buffered models, ascending with unbounded last.
    pub fn bounds(&self) -> Vec<u32> {
        let mut b: Vec<u32> = self.rows.iter().filter_map(|r| r.bound).collect();
        b.sort_unstable_by_key(|&b| bound_key(b));
        b.dedup();
        b
    }

    /// The smallest bound at which `model` showed a violation. Rows are in
    /// ascending bound order, so this is the first violating row.
    pub fn smallest_violating(&self, model: u32) -> Smallest {
        let rows: Vec<&Row> = self.rows.iter().filter(|r| r.model == model).collect();
        match rows.iter().position(|r| r.verdict.verdict == "VIOLATION") {
            Some(i) => Smallest::At {
                bound: rows[i].bound,
                unknown_below: rows[..i].iter().filter(|r| r.verdict.verdict == "UNKNOWN").filter_map(|r| r.bound).collect(),
            },
            None if rows.iter().any(|r| r.verdict.verdict == "UNKNOWN") => Smallest::Unknown,
            None => Smallest::None,
        }
    }

    /// 1 if any configuration found a violation, else 2 if any was UNKNOWN, else 0.
    pub fn exit_code(&self) -> i32 {
        let has = |v: &str| self.rows.iter().any(|r| r.verdict.verdict == v);
        if has("VIOLATION") {
            crate::exit::VIOLATION
        } else if has("UNKNOWN") {
            crate::exit::UNKNOWN
        } else {
            crate::exit::SAFE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(model: u32, bound: Option<u32>, verdict: &'static str) -> Row {
        Row {
            model,
            bound,
            verdict: Verdict { verdict, reason: String::new() },
            executions: 10,
            assume_blocked: 0,
            seconds: 0.5,
            por: Por::Source,
        }
    }

    #[test]
    fn configurations_are_ordered_with_unbounded_last() {
        assert_eq!(
            configurations(&[2, 0, 1], &[0, 4, 1, 4]),
            vec![(0, None), (1, Some(1)), (1, Some(4)), (1, Some(0)), (2, Some(1)), (2, Some(4)), (2, Some(0))]
        );
        assert_eq!(parse_bound("unbounded"), Ok(0));
        assert_eq!(parse_bound("0"), Ok(0));
        assert_eq!(parse_bound("8"), Ok(8));
        assert!(parse_bound("x").is_err());
    }

    #[test]
    fn smallest_violating_bound_and_exit_code() {
        let c = Comparison {
            rows: vec![
                row(0, None, "SAFE"),
                row(1, Some(1), "SAFE"),
                row(1, Some(2), "UNKNOWN"),
                row(1, Some(3), "VIOLATION"),
                row(1, Some(0), "VIOLATION"),
                row(2, Some(1), "UNKNOWN"),
            ],
            warnings: vec![],
            counterexample: None,
        };
        assert_eq!(c.smallest_violating(0), Smallest::None);
        assert_eq!(c.smallest_violating(1), Smallest::At { bound: Some(3), unknown_below: vec![2] });
        assert_eq!(c.smallest_violating(2), Smallest::Unknown);
        assert_eq!(c.exit_code(), 1);
        assert_eq!(
            c.summary_line(),
            "smallest violating bound: tso 3 (or 2: UNKNOWN) (sc: none; pso: none found, some UNKNOWN)"
        );
        assert_eq!(c.json()["summary"]["smallest_violating_bound"]["tso"], "3");
        assert!(c.json()["summary"]["smallest_violating_bound"]["sc"].is_null());
    }

    #[test]
    fn csv_quotes_fields() {
        use render::csv_field;
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
