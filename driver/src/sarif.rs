//! `verify --sarif FILE`: the verdict as a SARIF 2.1.0 log (OASIS's Static
//! Analysis Results Interchange Format), the form CI systems (GitHub code
//! scanning) and editors read.
//!
//! One run. A violation is one result (rule = its kind, level error) at the
//! failing source line, with the counterexample as a code flow: one thread
//! flow holding every step of every thread and store buffer in execution
//! order (executionOrder = the step number of the text trace), each
//! location's message the step as the text trace shows it, thread and
//! buffer included. One flow rather than one per thread: the bug is the
//! interleaving, viewers show a thread flow as one ordered list, and a
//! flush is a step of a store buffer, not of a thread's code. SAFE (or
//! ROBUST) is a run without results; UNKNOWN is a run without results whose
//! invocation failed, with a notification that says why, so a CI reading it
//! cannot take it for a clean run.
//!
//! Everything comes from what the text report uses (report.rs); nothing
//! here decides a verdict.

use crate::channel::{Event, Status};
use crate::explore::{Exploration, FoundRace, Violation};
use crate::info::ProgramInfo;
use crate::report::{self, TraceStep, Verdict};
use crate::robust::Reordering;
use serde_json::{json, Value};
use std::path::{Component, Path, PathBuf};

/// where OASIS publishes the schema (2.1.0 with its errata)
pub const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The rules: one per kind of violation verify can report.
/// (id, short description, full description)
const RULES: &[(&str, &str, &str)] = &[
    ("assertion-violation", "An assertion fails", "In some execution of the program under the memory model, an assert() fails."),
    ("reach-error", "reach_error() is reached", "In some execution of the program under the memory model, reach_error() (SV-COMP's error function) is called."),
    ("abort", "abort() is called", "In some execution of the program under the memory model, abort() is called."),
    ("crash", "The program crashes", "In some execution of the program under the memory model, the program is killed by a signal (an invalid memory access, an arithmetic error, ...)."),
    ("deadlock", "Deadlock", "In some execution of the program under the memory model, every thread that has not finished is blocked (a mutex, a join, a condition variable, a barrier, ...)."),
    ("livelock", "Livelock", "In some execution of the program under the memory model, every thread that has not finished spins in a loop that only waits, and no thread can change what they wait for."),
    ("use-after-free", "Freed memory is accessed", "In some execution of the program under the memory model, a load, store or read-modify-write touches heap memory after free() (or delete) gave it back, or a store buffered before the free reaches memory after it."),
    ("data-race", "Data race", "Two accesses to the same bytes by different threads, at least one a write and at least one not atomic, that C11 happens-before does not order (verify --races=violation)."),
    ("not-robust", "Execution not equivalent to any SC execution", "An execution under the relaxed memory model has reads no sequentially consistent execution has: a store still waited in its store buffer when a later access of the same thread ran (verify --robustness)."),
];

/// What a run was asked and how it ended, beside the exploration.
pub struct Context<'a> {
    /// the program as given on the command line
    pub program: &'a Path,
    /// memory model (0 sc, 1 tso, 2 pso) and store-buffer bound (0 unbounded)
    pub model: u32,
    pub bound: u32,
    /// verify's arguments (without argv[0])
    pub arguments: Vec<String>,
    /// where relative source names are resolved, and the %SRCROOT% of the log
    pub working_directory: PathBuf,
    /// verify's exit code
    pub exit_code: i32,
    /// unsupported constructs the build allowed (--allow-unsupported)
    pub warnings: &'a [String],
}

/// What a violation result is about.
pub enum Finding<'a> {
    Violation(&'a Violation),
    Race(&'a FoundRace),
    NotRobust(&'a Reordering, &'a [Event]),
}

/// The finding an exploration reports as its violation, if any (as
/// `report::verdict` and `report::robustness_verdict` decide).
pub fn finding(x: &Exploration, robustness: bool) -> Option<Finding<'_>> {
    if robustness {
        return x.not_robust.as_ref().map(|(r, events)| Finding::NotRobust(r, events));
    }
    if let Some(v) = &x.violation {
        return Some(Finding::Violation(v));
    }
    x.races.first().filter(|_| x.races_violate).map(Finding::Race)
}

/// The memory model and, for TSO and PSO, the buffer bound: ("TSO",
/// Some("buffer size 32")), ("SC", None).
fn model_words(model: u32, bound: u32) -> (String, Option<String>) {
    let name = crate::build::model_name(model).to_uppercase();
    match (model, bound) {
        (0, _) => (name, None),
        (_, 0) => (name, Some("unbounded buffers".into())),
        _ => (name, Some(format!("buffer size {bound}"))),
    }
}

/// `under TSO (buffer size 32)`, `under SC`.
fn under(model: u32, bound: u32) -> String {
    match model_words(model, bound) {
        (name, Some(bound)) => format!("under {name} ({bound})"),
        (name, None) => format!("under {name}"),
    }
}

/// `what` and the memory model in one sentence: `assertion ... failed
/// under TSO (buffer size 32)`, `deadlock: 2 threads blocked, none can run
/// (under TSO, buffer size 32)`.
fn with_model(what: &str, model: u32, bound: u32) -> String {
    if !what.contains(": ") {
        return format!("{what} {}", under(model, bound));
    }
    match model_words(model, bound) {
        (name, Some(bound)) => format!("{what} (under {name}, {bound})"),
        (name, None) => format!("{what} (under {name})"),
    }
}

/// The SARIF log of one `verify` run. `races_seen`: data races found but
/// not the property (they become a note, not a result).
pub fn log(ctx: &Context, verdict: &Verdict, finding: Option<Finding>, info: &ProgramInfo, races_seen: usize) -> Value {
    let base = &ctx.working_directory;
    let results: Vec<Value> = finding.map(|f| result(ctx, &f, info, base)).into_iter().collect();
    let mut notifications = vec![];
    let unknown = verdict.verdict == "UNKNOWN";
    if unknown {
        notifications.push(json!({
            "level": "error",
            "descriptor": {"id": "unknown"},
            "message": {"text": format!(
                "UNKNOWN {}. The search was not complete: no result is no proof that no execution fails",
                verdict.reason
            )},
        }));
    }
    if !ctx.warnings.is_empty() {
        notifications.push(json!({
            "level": "warning",
            "descriptor": {"id": "unsupported-constructs"},
            "message": {"text": format!("unsupported constructs allowed (--allow-unsupported), the answer may miss behaviour: {}", ctx.warnings.join("; "))},
        }));
    }
    if races_seen > 0 {
        notifications.push(json!({
            "level": "note",
            "descriptor": {"id": "data-races-seen"},
            "message": {"text": format!(
                "{races_seen} data race(s) seen; not the property checked (verify --races lists them, --races=violation makes a race a result)"
            )},
        }));
    }
    let mut invocation = json!({
        "executionSuccessful": !unknown,
        "exitCode": ctx.exit_code,
        "arguments": ctx.arguments,
        "workingDirectory": {"uri": dir_uri(base)},
    });
    if !notifications.is_empty() {
        invocation["toolExecutionNotifications"] = Value::Array(notifications);
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "tsoify verify",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": RULES.iter().map(|(id, short, full)| json!({
                    "id": id,
                    "shortDescription": {"text": short},
                    "fullDescription": {"text": full},
                    "defaultConfiguration": {"level": "error"},
                })).collect::<Vec<_>>(),
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": dir_uri(base)}},
            "invocations": [invocation],
            "results": results,
            "properties": {
                "verdict": verdict.line(),
                "memoryModel": crate::build::model_name(ctx.model),
                "bufferSize": if ctx.model == 0 { Value::Null } else { json!(ctx.bound) },
            },
        }],
    })
}

/// What a finding becomes in SARIF: the rule, the message, the location id
/// it happened at, related locations (id, message), and the execution shown.
type Described<'a> = (&'a str, String, Option<u32>, Vec<(u32, String)>, Violation);

/// The result for a violation: where, what, and the counterexample.
fn result(ctx: &Context, f: &Finding, info: &ProgramInfo, base: &Path) -> Value {
    let model = under(ctx.model, ctx.bound);
    let (rule, text, at, related, shown): Described = match f {
        Finding::Violation(v) => {
            let what = report::short_violation(v);
            let at = [v.loc, v.events.iter().rev().find(|e| e.kind == crate::channel::EV_ERROR).map_or(0, |e| e.loc)]
                .into_iter()
                .find(|&l| info.loc(l).is_some());
            (rule_of(v.status), with_model(&what, ctx.model, ctx.bound), at, vec![], (*v).clone())
        }
        Finding::Race(r) => {
            let events = r.events.as_deref().unwrap_or(&[]);
            let text = report::race_text(&r.race, r.events.as_deref(), info);
            let a = &r.race.first;
            let first = (a.loc, format!("the other access: T{} {} ({})", a.thread, if a.write { "write" } else { "read" }, if a.atomic { "atomic" } else { "plain" }));
            ("data-race", with_model(&text, ctx.model, ctx.bound), Some(r.race.second.loc), vec![first], report::as_violation(events))
        }
        Finding::NotRobust(r, events) => {
            let store = (events[r.store].loc, format!("T{}'s store that was still buffered", events[r.store].thread));
            let text = report::reordering_text(r, events, info).replace(" (steps ", ", steps ").replace(" below)", " of the code flow");
            ("not-robust", with_model(&text, ctx.model, ctx.bound), Some(events[r.access].loc), vec![store], report::as_violation(events))
        }
    };
    let steps = report::trace_steps(&shown, info);
    // no location of its own (a deadlock): where the last step with one is
    let at = at.or_else(|| shown.events.iter().rev().map(|e| e.loc).find(|&l| info.loc(l).is_some()));
    let mut result = json!({
        "ruleId": rule,
        "ruleIndex": RULES.iter().position(|r| r.0 == rule).expect("rule listed"),
        "level": "error",
        "message": {"text": text},
        "locations": at.map(|l| vec![location(l, info, base, None)]).unwrap_or_default(),
        "codeFlows": [code_flow(&steps, &shown, info, base, &model, ctx.program)],
    });
    if !related.is_empty() {
        result["relatedLocations"] = related
            .iter()
            .enumerate()
            .map(|(i, (l, m))| {
                let mut loc = location(*l, info, base, Some(m));
                loc["id"] = json!(i + 1);
                loc
            })
            .collect();
    }
    result
}

fn rule_of(s: Status) -> &'static str {
    match s {
        Status::Assert => "assertion-violation",
        Status::ReachError => "reach-error",
        Status::Abort => "abort",
        Status::Crash => "crash",
        Status::Deadlock => "deadlock",
        Status::Livelock => "livelock",
        Status::Freed => "use-after-free",
        _ => "assertion-violation",
    }
}

/// The counterexample: one thread flow, one location per step of the text
/// trace, in its order.
fn code_flow(steps: &[TraceStep], shown: &Violation, info: &ProgramInfo, base: &Path, model: &str, program: &Path) -> Value {
    let locations: Vec<Value> = steps
        .iter()
        .map(|s| {
            let text = if s.buffer.is_empty() {
                format!("T{}: {}", s.thread, s.operation)
            } else {
                format!("T{}: {} ({})", s.thread, s.operation, s.buffer)
            };
            let mut properties = json!({"step": s.step, "thread": format!("T{}", s.thread)});
            if !s.buffer.is_empty() {
                properties["storeBuffer"] = json!(s.buffer);
            }
            json!({
                "location": location(s.loc, info, base, Some(&text)),
                "executionOrder": s.step,
                "properties": properties,
            })
        })
        .collect();
    let threads = steps.iter().map(|s| s.thread).max().map_or(0, |t| t + 1);
    let truncated = if shown.events_truncated { " (truncated)" } else { "" };
    json!({
        "message": {"text": format!(
            "counterexample of {} {model}: {} steps of {threads} threads and their store buffers in execution order{truncated}; T0 is main, T1, T2, ... are created threads in creation order",
            program.display(),
            steps.len()
        )},
        "threadFlows": [{
            "message": {"text": "every thread's steps and every store-buffer flush, interleaved as they ran; each step names its thread"},
            "locations": locations,
        }],
    })
}

/// A SARIF location for location id `id` (only a message if it has no
/// source position).
fn location(id: u32, info: &ProgramInfo, base: &Path, message: Option<&str>) -> Value {
    let mut out = json!({});
    if let Some(l) = info.loc(id).filter(|l| l.line > 0 && !l.file.is_empty()) {
        let mut region = json!({"startLine": l.line});
        if l.col > 0 {
            region["startColumn"] = json!(l.col);
        }
        out["physicalLocation"] = json!({"artifactLocation": artifact(&l.file, base), "region": region});
        if !l.func.is_empty() {
            out["logicalLocations"] = json!([{"name": l.func, "kind": "function"}]);
        }
    }
    if let Some(m) = message {
        out["message"] = json!({"text": m});
    }
    out
}

/// The artifact location of a source file as debug info names it:
/// relative to %SRCROOT% (the working directory) when it lies below it,
/// else an absolute file URI.
fn artifact(file: &str, base: &Path) -> Value {
    let abs = resolve(file, base);
    let below = abs.strip_prefix(base).map(Path::to_path_buf).ok().or_else(|| {
        let (a, b) = (abs.canonicalize().ok()?, base.canonicalize().ok()?);
        a.strip_prefix(&b).map(Path::to_path_buf).ok()
    });
    match below {
        Some(rel) if !rel.as_os_str().is_empty() => json!({"uri": encode(&rel.to_string_lossy(), true), "uriBaseId": "%SRCROOT%"}),
        _ => json!({"uri": format!("file://{}", encode(&abs.to_string_lossy(), false))}),
    }
}

/// Where a source file that debug info names is. A relative name is
/// relative to the directory clang ran in (tsoify's working directory) or,
/// for a file clang was given by an absolute path, to the longest directory
/// that path and the working directory share: an ancestor of it. verify
/// mostly runs where tsoify ran (always when it builds the program itself),
/// so the first of its directory and their ancestors that holds the file
/// is it; if none does, the name is taken relative to the working directory.
pub(crate) fn resolve(file: &str, base: &Path) -> PathBuf {
    let f = Path::new(file);
    if f.is_absolute() {
        return normalise(f);
    }
    base.ancestors().map(|dir| dir.join(f)).find(|p| p.is_file()).map_or_else(|| normalise(&base.join(f)), |p| normalise(&p))
}

/// `file:///dir/` for a directory.
fn dir_uri(dir: &Path) -> String {
    let s = encode(&dir.to_string_lossy(), false);
    if s.ends_with('/') { format!("file://{s}") } else { format!("file://{s}/") }
}

/// `a/./b/../c` as `a/c`, without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// Percent-encode a path for a URI (RFC 3986: unreserved characters, the
/// sub-delimiters, `@` and `/` stay; `:` too, except in a relative
/// reference, where it could read as a scheme).
fn encode(path: &str, relative: bool) -> String {
    let mut out = String::new();
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@".contains(&b) || (b == b':' && !relative);
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uris() {
        let base = Path::new("/nonexistent-tsoify/repo");
        assert_eq!(artifact("examples/dekker.c", base), json!({"uri": "examples/dekker.c", "uriBaseId": "%SRCROOT%"}));
        assert_eq!(artifact("/nonexistent-tsoify/repo/./a b/x.c", base), json!({"uri": "a%20b/x.c", "uriBaseId": "%SRCROOT%"}));
        assert_eq!(artifact("../other/x.c", base), json!({"uri": "file:///nonexistent-tsoify/other/x.c"}));
        assert_eq!(artifact("/tmp/x#1.c", base), json!({"uri": "file:///tmp/x%231.c"}));
        assert_eq!(dir_uri(base), "file:///nonexistent-tsoify/repo/");
    }
}
