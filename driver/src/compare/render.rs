//! The comparison as text: the table a person reads, its summary line,
//! CSV and JSON.

use super::{bound_label, Comparison, Smallest};
use crate::build::model_name;
use crate::explore::Por;
use serde::Serialize;

impl Comparison {
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
}

pub(super) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
