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
use serde::Serialize;
use std::path::Path;
use std::time::Duration;

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

/// The limits and reduction every configuration runs with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `--por`; PSO always runs without reduction (as plain `verify` does)
    pub por: Por,
    pub max_steps: u32,
    /// --unroll (0 = unbounded)
    pub unroll: u32,
    pub no_await: bool,
    pub spurious_wakeups: u32,
    pub max_executions: Option<u64>,
    /// per configuration
    pub timeout: Option<Duration>,
    pub hang_seconds: u32,
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
    let bar = settings.progress.then(|| {
        let b = indicatif::ProgressBar::new(configs.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:20} {pos}/{len} {elapsed} {msg}")
                .unwrap()
                .progress_chars("=> "),
        );
        b
    });
    let mut rows = vec![];
    let mut counterexample = None;
    for &(model, bound) in &configs {
        let por = settings.por;
        let cfg = Config {
            model,
            bound: bound.unwrap_or(0),
            max_steps: settings.max_steps,
            unroll: settings.unroll,
            no_await: settings.no_await,
            spurious_wakeups: settings.spurious_wakeups,
            max_executions: settings.max_executions,
            timeout: settings.timeout,
            hang_seconds: settings.hang_seconds,
            all: false,
            por,
            property: Default::default(),
            robustness: false,
            races: crate::explore::RaceCheck::Off,
        };
        let name = config_name(model, bound);
        if let Some(b) = &bar {
            b.set_message(name.clone());
        }
        let x = explore::explore(program, args, info, &cfg, |s| {
            if let Some(b) = &bar {
                b.set_message(format!("{name}: {} executions", s.executions));
            }
        })
        .with_context(|| name.clone())?;
        if counterexample.is_none() {
            counterexample = x.violation.clone().map(|violation| Counterexample { model, bound, violation });
        }
        rows.push(Row {
            model,
            bound,
            verdict: report::verdict(&x),
            executions: x.stats.executions,
            assume_blocked: x.stats.assume_blocked,
            seconds: x.stats.seconds,
            por: x.por,
        });
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(Comparison { rows, warnings: vec![], counterexample })
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

    /// The table a person reads, ending with the smallest violating bounds.
    pub fn table(&self) -> String {
        let w_bound = self.rows.iter().map(|r| bound_label(r.bound).len()).max().unwrap_or(0).max(5);
        let detail = self.rows.iter().any(|r| !r.verdict.reason.is_empty());
        let mut out = format!(
            "{:<5}  {:<w_bound$}  {:<9}  {:>10}  {:>7}{}\n",
            "model",
            "bound",
            "verdict",
            "executions",
            "seconds",
            if detail { "  detail" } else { "" }
        );
        for r in &self.rows {
            let line = format!(
                "{:<5}  {:<w_bound$}  {:<9}  {:>10}  {:>7.2}  {}",
                model_name(r.model),
                bound_label(r.bound),
                r.verdict.verdict,
                r.executions,
                r.seconds,
                r.verdict.reason
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str(&self.summary_line());
        out.push('\n');
        out
    }

    /// `smallest violating bound: tso 1, pso 1 (sc: none)`
    pub fn summary_line(&self) -> String {
        let mut found = vec![];
        let mut none = vec![];
        let mut unknown = vec![];
        for m in self.models() {
            match self.smallest_violating(m) {
                Smallest::At { bound, unknown_below } => {
                    let mut s = format!("{} {}", model_name(m), bound_label(bound));
                    if !unknown_below.is_empty() {
                        let b: Vec<String> = unknown_below.iter().map(|&b| bound_label(Some(b))).collect();
                        s.push_str(&format!(" (or {}: UNKNOWN)", b.join(", ")));
                    }
                    found.push(s);
                }
                Smallest::None => none.push(model_name(m)),
                Smallest::Unknown => unknown.push(model_name(m)),
            }
        }
        let mut s = String::from("smallest violating bound: ");
        s.push_str(&if found.is_empty() { "none".to_string() } else { found.join(", ") });
        let mut notes = vec![];
        if !none.is_empty() && !found.is_empty() {
            notes.push(format!("{}: none", none.join(", ")));
        }
        if !unknown.is_empty() {
            notes.push(format!("{}: none found, some UNKNOWN", unknown.join(", ")));
        }
        if !notes.is_empty() {
            s.push_str(&format!(" ({})", notes.join("; ")));
        }
        s
    }

    /// The table as CSV: a header, then one row per configuration.
    pub fn csv(&self) -> String {
        let mut out = String::from("model,bound,verdict,reason,executions,assume_blocked,seconds,por\n");
        for r in &self.rows {
            let fields = [
                model_name(r.model).to_string(),
                bound_label(r.bound),
                r.verdict.verdict.to_string(),
                r.verdict.reason.clone(),
                r.executions.to_string(),
                r.assume_blocked.to_string(),
                format!("{:.6}", r.seconds),
                Por::name(r.por).to_string(),
            ];
            let fields: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
            out.push_str(&fields.join(","));
            out.push('\n');
        }
        out
    }

    /// The table as JSON: `{"rows": [...], "summary": {...}}`.
    pub fn json(&self) -> serde_json::Value {
        #[derive(Serialize)]
        struct JsonRow<'a> {
            model: &'static str,
            /// null for sc; 0 = unbounded
            bound: Option<u32>,
            bound_label: String,
            verdict: &'static str,
            reason: &'a str,
            executions: u64,
            assume_blocked: u64,
            seconds: f64,
            por: &'static str,
        }
        let rows: Vec<JsonRow> = self
            .rows
            .iter()
            .map(|r| JsonRow {
                model: model_name(r.model),
                bound: r.bound,
                bound_label: bound_label(r.bound),
                verdict: r.verdict.verdict,
                reason: &r.verdict.reason,
                executions: r.executions,
                assume_blocked: r.assume_blocked,
                seconds: r.seconds,
                por: Por::name(r.por),
            })
            .collect();
        let mut smallest = serde_json::Map::new();
        let mut unknown_below = serde_json::Map::new();
        for m in self.models() {
            let s = self.smallest_violating(m);
            smallest.insert(model_name(m).into(), s.label().map_or(serde_json::Value::Null, serde_json::Value::String));
            if let Smallest::At { unknown_below: u, .. } = &s {
                if !u.is_empty() {
                    let labels: Vec<String> = u.iter().map(|&b| bound_label(Some(b))).collect();
                    unknown_below.insert(model_name(m).into(), serde_json::json!(labels));
                }
            }
        }
        serde_json::json!({
            "rows": rows,
            "summary": {
                "smallest_violating_bound": smallest,
                "unknown_below_smallest": unknown_below,
                "exit_code": self.exit_code(),
                "warnings": self.warnings,
            }
        })
    }

    /// Executions (log scale) and seconds against the bound, one line per
    /// model, as two panels of one SVG. SC, which has no bound, is a dashed
    /// level line. Filled markers are violations, hollow ones SAFE, crosses UNKNOWN.
    pub fn plot(&self, path: &Path) -> Result<()> {
        use plotters::prelude::*;
        let bounds = self.bounds();
        // the x axis: categories 0..n-1 labelled with the bounds; SC alone still gets one column
        let labels: Vec<String> =
            if bounds.is_empty() { vec!["-".into()] } else { bounds.iter().map(|&b| bound_label(Some(b))).collect() };
        let n = labels.len() as i32;
        let x_of = |r: &Row| -> Vec<i32> {
            match r.bound {
                None => (0..n).collect(),
                Some(b) => vec![bounds.iter().position(|&x| x == b).unwrap_or(0) as i32],
            }
        };
        // the y ranges leave headroom above the data for the legend
        let max_exec = self.rows.iter().map(|r| r.executions).max().unwrap_or(1).max(1) as f64;
        let max_secs = self.rows.iter().map(|r| r.seconds).fold(0.0, f64::max).max(1e-3);

        let root = SVGBackend::new(path, (1100, 460)).into_drawing_area();
        let err = |e: &dyn std::fmt::Display| anyhow::anyhow!("{}: {e}", path.display());
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let root = root
            .titled(
                "cost against store-buffer bound (filled marker: VIOLATION, hollow: SAFE, cross: UNKNOWN)",
                ("sans-serif", 18),
            )
            .map_err(|e| err(&e))?;
        let (left, right) = root.split_horizontally(550);
        let colour = |m: u32| match m {
            0 => RGBColor(0x44, 0x44, 0x44),
            1 => RGBColor(0x1f, 0x77, 0xb4),
            _ => RGBColor(0xd6, 0x27, 0x28),
        };
        let x_fmt = |v: &SegmentValue<i32>| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            SegmentValue::Last => String::new(),
        };

        // panel 1: executions, log scale
        {
            let mut chart = ChartBuilder::on(&left)
                .caption("executions (log scale)", ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d((0..n - 1).into_segmented(), (0.8f64..max_exec * 30.0).log_scale())
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_labels(labels.len())
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&|v| format!("{v:.0}"))
                .x_desc("store-buffer bound")
                .y_desc("executions")
                .draw()
                .map_err(|e| err(&e))?;
            for m in self.models() {
                let c = colour(m);
                let pts: Vec<(SegmentValue<i32>, f64, &Row)> = self
                    .rows
                    .iter()
                    .filter(|r| r.model == m)
                    .flat_map(|r| x_of(r).into_iter().map(move |x| (SegmentValue::CenterOf(x), r.executions.max(1) as f64, r)))
                    .collect();
                self.draw_model(&mut chart, m, c, &pts).map_err(|e| err(&e))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .border_style(BLACK)
                .background_style(WHITE.mix(0.85))
                .draw()
                .map_err(|e| err(&e))?;
        }
        // panel 2: seconds
        {
            let mut chart = ChartBuilder::on(&right)
                .caption("seconds", ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d((0..n - 1).into_segmented(), 0f64..max_secs * 1.4)
                .map_err(|e| err(&e))?;
            chart
                .configure_mesh()
                .x_labels(labels.len())
                .x_label_formatter(&x_fmt)
                .x_desc("store-buffer bound")
                .y_desc("seconds")
                .draw()
                .map_err(|e| err(&e))?;
            for m in self.models() {
                let c = colour(m);
                let pts: Vec<(SegmentValue<i32>, f64, &Row)> = self
                    .rows
                    .iter()
                    .filter(|r| r.model == m)
                    .flat_map(|r| x_of(r).into_iter().map(move |x| (SegmentValue::CenterOf(x), r.seconds, r)))
                    .collect();
                self.draw_model(&mut chart, m, c, &pts).map_err(|e| err(&e))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .border_style(BLACK)
                .background_style(WHITE.mix(0.85))
                .draw()
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
        Ok(())
    }

    /// One model's line and markers in one panel.
    fn draw_model<'a, DB, Y>(
        &self,
        chart: &mut plotters::chart::ChartContext<
            'a,
            DB,
            plotters::coord::cartesian::Cartesian2d<plotters::coord::ranged1d::SegmentedCoord<plotters::coord::types::RangedCoordi32>, Y>,
        >,
        model: u32,
        colour: plotters::style::RGBColor,
        pts: &[(plotters::coord::ranged1d::SegmentValue<i32>, f64, &Row)],
    ) -> Result<(), plotters::drawing::DrawingAreaErrorKind<DB::ErrorType>>
    where
        DB: plotters::prelude::DrawingBackend + 'a,
        Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    {
        use plotters::prelude::*;
        let line: Vec<(SegmentValue<i32>, f64)> = pts.iter().map(|(x, y, _)| (x.clone(), *y)).collect();
        let name = if model == 0 { "sc (no buffers)".to_string() } else { model_name(model).to_string() };
        let style = colour.stroke_width(2);
        if model == 0 {
            chart.draw_series(DashedLineSeries::new(line, 6, 4, style))?
        } else {
            chart.draw_series(LineSeries::new(line, style))?
        }
        .label(name)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        chart.draw_series(pts.iter().map(|(x, y, r)| -> DynElement<DB, (SegmentValue<i32>, f64)> {
            match r.verdict.verdict {
                "VIOLATION" => Circle::new((x.clone(), *y), 5, colour.filled()).into_dyn(),
                "SAFE" => Circle::new((x.clone(), *y), 5, colour.stroke_width(2)).into_dyn(),
                _ => Cross::new((x.clone(), *y), 5, colour.stroke_width(2)).into_dyn(),
            }
        }))?;
        Ok(())
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
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
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
