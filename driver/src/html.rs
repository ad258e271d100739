//! `verify --html FILE`: the answer as one self-contained HTML page (inline
//! CSS and script, no network, no external assets) that a person opens in a
//! browser.
//!
//! A counterexample is drawn as a timeline: one row per step of the trace
//! (the text trace's steps and numbers), one column per thread and one per
//! store buffer. A buffered store is a bar in its buffer's column from the
//! step that buffered it to the step whose flush wrote it to memory. Loads
//! (and locked reads) that read memory while another thread's store to the
//! same bytes, with a different value, was still buffered are marked stale;
//! the pair of steps of one thread that the buffer reordered (the
//! robustness witness, or for a violation the reordering robust.rs finds in
//! it) and a racing pair are marked too. Each step's source line is in its
//! row, in its tooltip, and with its neighbours in the source panel when
//! the step is clicked.
//!
//! This module gathers the data (from what report.rs and robust.rs already
//! compute; nothing here decides a verdict) and embeds it as JSON in the
//! page; `html/page.js` draws it, `html/page.css` styles it, and
//! `html/page.html` is the skeleton they are put into.

use crate::build::model_name;
use crate::channel::{Event, EV_CMPXCHG, EV_FLUSH, EV_LOAD, EV_RMW, EV_STORE};
use crate::compare::{bound_label, Comparison};
use crate::explore::{Exploration, Violation};
use crate::info::ProgramInfo;
use crate::report::{self, Verdict};
use crate::robust::{self, Reordering};
use crate::sarif::Finding;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

const PAGE: &str = include_str!("html/page.html");
const STYLE: &str = include_str!("html/page.css");
const SCRIPT: &str = include_str!("html/page.js");

/// Source lines shown around a step's own line in the source panel.
const CONTEXT_LINES: u32 = 1;

/// What a run was asked, beside what it found.
pub struct Context<'a> {
    /// the program as given on the command line
    pub program: &'a Path,
    /// memory model (0 sc, 1 tso, 2 pso) and store-buffer bound (0 unbounded)
    pub model: u32,
    pub bound: u32,
    /// where relative source names are resolved (verify's working directory)
    pub working_directory: PathBuf,
    /// unsupported constructs the build allowed (--allow-unsupported)
    pub warnings: &'a [String],
}

/// The timeline of one execution, as page.js reads it.
#[derive(Serialize)]
struct Timeline {
    caption: String,
    threads: Vec<u32>,
    buffers: Vec<Buffer>,
    steps: Vec<Step>,
    stores: Vec<Store>,
    marks: Vec<Mark>,
    /// `file:line` -> the line and its neighbours (readable files only)
    sources: BTreeMap<String, Snippet>,
    truncated: bool,
}

/// A store buffer column: its thread and how many stores it held at once
/// (one lane each).
#[derive(Serialize)]
struct Buffer {
    thread: u32,
    lanes: usize,
}

/// One row of the timeline.
#[derive(Serialize)]
struct Step {
    step: usize,
    thread: u32,
    /// the event's kind as a word (load, store, flush, ...), for styling
    kind: &'static str,
    operation: String,
    /// the text trace's store-buffer column (read memory, buffered in T1, ...)
    buffer: String,
    location: String,
    function: String,
    /// key into `sources`, when the file was readable
    source: Option<String>,
    /// a flush: the thread whose buffer it empties
    flush_of: Option<u32>,
    /// why the value read is stale, when it is
    stale: Option<String>,
    /// a stale read: the step of the buffered store it missed
    hidden_by: Option<usize>,
    violation: bool,
}

/// A buffered store: a bar in its buffer's column from the step that
/// buffered it to the step that flushed it (or the last step, if it was
/// still buffered).
#[derive(Serialize)]
struct Store {
    buffer: u32,
    lane: usize,
    from: usize,
    to: usize,
    label: String,
    flushed: bool,
}

/// A pair of steps the page points out.
#[derive(Serialize)]
struct Mark {
    /// "reordered" (a store and a later access of its thread that passed
    /// it) or "race"
    kind: &'static str,
    steps: [usize; 2],
    text: String,
}

#[derive(Serialize)]
struct Snippet {
    file: String,
    line: u32,
    /// (line number, text), the step's own line among them
    lines: Vec<(u32, String)>,
}

/// The page of one `verify` run: the verdict, the timeline of the
/// execution it shows (if any) and the statistics.
pub fn verdict_page(ctx: &Context, verdict: &Verdict, x: Option<&Exploration>, robustness: bool, info: &ProgramInfo) -> String {
    let under = under(ctx.model, ctx.bound);
    let mut data = json!({
        "title": format!("{} under {}: {}", file_name(ctx.program), model_name(ctx.model).to_uppercase(), verdict.line()),
        "program": ctx.program.display().to_string(),
        "model": under,
        "verdict": verdict.verdict,
        "reason": verdict.reason,
        "warnings": ctx.warnings,
    });
    if let Some(x) = x {
        data["statistics"] = statistics(x, ctx.model, ctx.bound);
        data["notes"] = json!(notes(x));
        if let Some(f) = crate::sarif::finding(x, robustness) {
            let (summary, timeline) = finding_timeline(ctx, &f, info, robustness);
            data["summary"] = json!(summary);
            data["timeline"] = json!(timeline);
        }
    }
    render(&data)
}

/// The page of `verify --compare`: the table, the plot (an SVG document),
/// and the timeline of the first configuration that found a violation.
pub fn compare_page(program: &Path, c: &Comparison, plot_svg: Option<&str>, info: &ProgramInfo, base: &Path) -> String {
    let rows: Vec<Value> = c
        .rows
        .iter()
        .map(|r| {
            json!({
                "model": model_name(r.model),
                "bound": bound_label(r.bound),
                "verdict": r.verdict.verdict,
                "reason": r.verdict.reason,
                "executions": r.executions,
                "seconds": format!("{:.2}", r.seconds),
            })
        })
        .collect();
    let mut data = json!({
        "title": format!("{}: memory models compared", file_name(program)),
        "program": program.display().to_string(),
        "verdict": Value::Null,
        "reason": "",
        "warnings": c.warnings,
        "comparison": {"rows": rows, "summary": c.summary_line(), "svg": plot_svg.map(strip_xml_prolog)},
    });
    if let Some(cx) = &c.counterexample {
        let ctx = Context { program, model: cx.model, bound: cx.bound.unwrap_or(0), working_directory: base.to_path_buf(), warnings: &[] };
        let (summary, timeline) = finding_timeline(&ctx, &Finding::Violation(&cx.violation), info, false);
        data["comparison"]["shown"] = json!(format!("{} bound {}", model_name(cx.model), bound_label(cx.bound)));
        data["comparison"]["shown_summary"] = json!(summary);
        data["timeline"] = json!(timeline);
    }
    render(&data)
}

/// The skeleton with the style, the script and the data put in. The data
/// is JSON inside a script element: every `<` is written as `\u003c`, so no
/// string in it can end the element.
fn render(data: &Value) -> String {
    let json = serde_json::to_string(data).expect("page data serialises").replace('<', "\\u003c");
    let title = escape(data["title"].as_str().unwrap_or("tsoify"));
    PAGE.replace("{{title}}", &title).replace("{{style}}", STYLE).replace("{{script}}", SCRIPT).replace("{{data}}", &json)
}

/// Text for an HTML element's content.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// An SVG file as an element to put in a page (without `<?xml ...?>`).
fn strip_xml_prolog(svg: &str) -> String {
    let s = svg.trim_start();
    match s.strip_prefix("<?xml").and_then(|rest| rest.split_once("?>")) {
        Some((_, rest)) => rest.trim_start().to_string(),
        None => s.to_string(),
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |f| f.to_string_lossy().into_owned())
}

/// `TSO, buffer size 32`, `PSO, unbounded buffers`, `SC`.
fn under(model: u32, bound: u32) -> String {
    let name = model_name(model).to_uppercase();
    match (model, bound) {
        (0, _) => name,
        (_, 0) => format!("{name}, unbounded buffers"),
        _ => format!("{name}, buffer size {bound}"),
    }
}

/// The search's counters as (label, value) rows.
fn statistics(x: &Exploration, model: u32, bound: u32) -> Value {
    let s = &x.stats;
    json!([
        ["executions", s.executions.to_string()],
        ["complete", s.complete().to_string()],
        ["sleep-blocked", s.sleep_blocked.to_string()],
        ["discarded by assume or await", s.assume_blocked.to_string()],
        ["time", format!("{:.3} s ({:.1} µs/execution)", s.seconds, s.seconds * 1e6 / s.executions.max(1) as f64)],
        ["reduction", format!("--por {}", x.por.name())],
        ["memory model", under(model, bound)],
    ])
}

/// What a reader should know beside the verdict: data races that were
/// seen but are not the property.
fn notes(x: &Exploration) -> Vec<String> {
    let mut out = vec![];
    if !x.races_violate && !x.races.is_empty() {
        let n = x.races.len();
        out.push(format!("{n} data race{} seen (verify --races lists {})", if n == 1 { "" } else { "s" }, if n == 1 { "it" } else { "them" }));
    }
    out
}

/// The sentence that says what went wrong, and the timeline of the
/// execution that shows it, with the pair of steps that matters marked.
fn finding_timeline(ctx: &Context, f: &Finding, info: &ProgramInfo, robustness: bool) -> (String, Timeline) {
    let (summary, shown, marks) = match f {
        Finding::Violation(v) => {
            // a relaxed-memory violation comes from a reordering: show it
            let marks = if ctx.model == 0 { vec![] } else { robust::check(&v.events).map(|r| vec![reordered(&r, &v.events, info)]).unwrap_or_default() };
            (report::violation_text(v), (*v).clone(), marks)
        }
        Finding::NotRobust(r, events) => {
            let mark = reordered(r, events, info);
            (mark.text.clone(), report::as_violation(events), vec![mark])
        }
        Finding::Race(r) => {
            let events = r.events.as_deref().unwrap_or(&[]);
            let text = report::race_text(&r.race, Some(events), info);
            let steps = [r.race.first.event, r.race.second.event].map(|i| report::step_number(events, i));
            (text.clone(), report::as_violation(events), vec![Mark { kind: "race", steps, text }])
        }
    };
    let what = if robustness { "execution that no SC execution matches" } else { "counterexample" };
    let caption = format!("{what} ({} under {})", ctx.program.display(), under(ctx.model, ctx.bound));
    (summary, timeline(&shown, info, &ctx.working_directory, marks, caption))
}

/// A reordering as a mark: the store and the access that passed it.
fn reordered(r: &Reordering, events: &[Event], info: &ProgramInfo) -> Mark {
    let steps = [r.store, r.access].map(|i| report::step_number(events, i));
    // the page names the steps beside the sentence
    let text = report::reordering_text(r, events, info);
    let text = text.split_once(" (steps ").map_or(text.clone(), |(t, _)| t.to_string());
    Mark { kind: "reordered", steps, text }
}

/// The timeline of execution `shown`.
fn timeline(shown: &Violation, info: &ProgramInfo, base: &Path, marks: Vec<Mark>, caption: String) -> Timeline {
    let events = &shown.events;
    let trace = report::trace_steps(shown, info);
    // event index of each step (the trace leaves out bookkeeping events)
    let index: Vec<usize> = (0..events.len()).filter(|&i| !report::bookkeeping(&events[i])).collect();
    let step_of: HashMap<usize, usize> = index.iter().enumerate().map(|(s, &i)| (i, s + 1)).collect();
    let flushes = robust::flush_times(events);
    let stale = stale_reads(events, &flushes, &step_of, info);
    let mut sources = Sources::new(base);
    let steps: Vec<Step> = trace
        .iter()
        .zip(&index)
        .map(|(t, &i)| {
            let e = &events[i];
            Step {
                step: t.step,
                thread: t.thread,
                kind: kind_name(e.kind),
                operation: t.operation.clone(),
                buffer: t.buffer.clone(),
                location: t.location.clone(),
                function: t.function.clone(),
                source: sources.snippet(e.loc, info),
                flush_of: (e.kind == EV_FLUSH).then_some(e.aux2 & 0xff),
                stale: stale.get(&i).map(|(why, _)| why.clone()),
                hidden_by: stale.get(&i).map(|&(_, store)| store),
                violation: e.kind == crate::channel::EV_ERROR && shown.status != crate::channel::Status::Done,
            }
        })
        .collect();
    let stores = buffered_stores(events, &flushes, &step_of, info, steps.len());
    let mut threads: Vec<u32> = steps.iter().filter(|s| s.flush_of.is_none()).map(|s| s.thread).collect();
    threads.sort_unstable();
    threads.dedup();
    Timeline { caption, threads, buffers: buffers(&stores), steps, stores, marks, sources: sources.found, truncated: shown.events_truncated }
}

/// The buffer columns: every thread with a buffered store, and the lanes
/// it needs.
fn buffers(stores: &[Store]) -> Vec<Buffer> {
    let mut lanes: BTreeMap<u32, usize> = BTreeMap::new();
    for s in stores {
        let n = lanes.entry(s.buffer).or_default();
        *n = (*n).max(s.lane + 1);
    }
    lanes.into_iter().map(|(thread, lanes)| Buffer { thread, lanes }).collect()
}

/// Every buffered store as a bar, each in the first lane of its buffer
/// that is free from its step to its flush.
fn buffered_stores(events: &[Event], flushes: &HashMap<usize, usize>, step_of: &HashMap<usize, usize>, info: &ProgramInfo, last: usize) -> Vec<Store> {
    let mut order: Vec<usize> = flushes.keys().copied().filter(|i| step_of.contains_key(i)).collect();
    order.sort_unstable();
    // per buffer: the last step each lane is taken up to
    let mut busy: HashMap<u32, Vec<usize>> = HashMap::new();
    order
        .into_iter()
        .map(|i| {
            let e = &events[i];
            let from = step_of[&i];
            let flushed = flushes.get(&i).and_then(|f| step_of.get(f)).copied();
            let to = flushed.unwrap_or(last);
            let lanes = busy.entry(e.thread as u32).or_default();
            let lane = lanes.iter().position(|&end| end < from).unwrap_or(lanes.len());
            if lane == lanes.len() {
                lanes.push(to);
            } else {
                lanes[lane] = to;
            }
            let label = format!("{} = {}", info.name_of(e.addr, e.size, e.loc), crate::report::signed(e.value, e.size));
            Store { buffer: e.thread as u32, lane, from, to, label, flushed: flushed.is_some() }
        })
        .collect()
}

/// The reads that read memory while another thread's store to the same
/// bytes, with a different value, was still in its buffer (the value the
/// load would have read under SC), each with why and the step of that
/// store, keyed by event index.
fn stale_reads(events: &[Event], flushes: &HashMap<usize, usize>, step_of: &HashMap<usize, usize>, info: &ProgramInfo) -> HashMap<usize, (String, usize)> {
    let mut pending: Vec<usize> = vec![];
    let mut out = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        pending.retain(|s| flushes.get(s).is_some_and(|&f| f > i));
        match e.kind {
            EV_STORE if flushes.contains_key(&i) => pending.push(i),
            EV_LOAD | EV_RMW | EV_CMPXCHG if reads_memory(e) => {
                let own: Vec<&Event> = pending.iter().map(|&s| &events[s]).filter(|s| s.thread == e.thread).collect();
                // the newest other thread's store the read missed
                let hidden = pending.iter().rev().find(|&&s| {
                    let s = &events[s];
                    s.thread != e.thread && differs(s, e, &own)
                });
                if let Some(&s) = hidden {
                    let store = &events[s];
                    let step = step_of.get(&s).copied().unwrap_or(0);
                    let why = format!(
                        "stale: read {} from memory while T{}'s store {} = {} (step {}) was still in T{}'s buffer",
                        crate::report::signed(e.value, e.size),
                        store.thread,
                        info.name_of(store.addr, store.size, store.loc),
                        crate::report::signed(store.value, store.size),
                        step,
                        store.thread
                    );
                    out.insert(i, (why, step));
                }
            }
            _ => {}
        }
    }
    out
}

/// A load that took some of its bytes from memory (a locked read always does).
fn reads_memory(e: &Event) -> bool {
    e.kind != EV_LOAD || e.aux & 2 != 0
}

/// Whether buffered store `s` would have given read `r` another value in a
/// byte that `r` took from memory (not from a store of its own thread,
/// `own`, that was still buffered).
fn differs(s: &Event, r: &Event, own: &[&Event]) -> bool {
    let from_memory = |a: u64| !own.iter().any(|o| covers(o, a));
    bytes(s).filter(|&a| covers(r, a) && from_memory(a)).any(|a| match (byte(s, a), byte(r, a)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    })
}

fn bytes(e: &Event) -> std::ops::Range<u64> {
    e.addr..e.addr + e.size.max(1) as u64
}

fn covers(e: &Event, a: u64) -> bool {
    bytes(e).contains(&a)
}

/// The byte at address `a` of an access's value (only the first 8 bytes of
/// a value are in its event).
fn byte(e: &Event, a: u64) -> Option<u8> {
    let k = a.checked_sub(e.addr)?;
    (k < 8).then(|| (e.value >> (8 * k)) as u8)
}

/// An event kind as a word for the page's styling.
fn kind_name(kind: u8) -> &'static str {
    match kind {
        1 => "load",
        2 => "store",
        3 => "flush",
        4 | 22 => "fence",
        5 | 6 => "rmw",
        7..=9 => "thread",
        10 | 11 | 16 | 17 => "sync",
        12 => "nondet",
        13 => "error",
        14 | 15 => "atomic",
        18 => "free",
        19 => "await",
        21 => "assume",
        _ => "other",
    }
}

/// The source lines of the steps, read once per file.
struct Sources<'a> {
    base: &'a Path,
    files: HashMap<String, Option<Vec<String>>>,
    found: BTreeMap<String, Snippet>,
}

impl<'a> Sources<'a> {
    fn new(base: &'a Path) -> Self {
        Sources { base, files: HashMap::new(), found: BTreeMap::new() }
    }

    /// The key of location id `loc`'s snippet, if its file is readable.
    fn snippet(&mut self, loc: u32, info: &ProgramInfo) -> Option<String> {
        let l = info.loc(loc).filter(|l| l.line > 0 && !l.file.is_empty())?;
        let key = format!("{}:{}", l.file, l.line);
        if self.found.contains_key(&key) {
            return Some(key);
        }
        let base = self.base;
        let lines = self.files.entry(l.file.clone()).or_insert_with(|| read_lines(&crate::sarif::resolve(&l.file, base))).as_ref()?;
        let at = l.line as usize;
        if at > lines.len() {
            return None;
        }
        let first = at.saturating_sub(CONTEXT_LINES as usize).max(1);
        let last = (at + CONTEXT_LINES as usize).min(lines.len());
        let context = (first..=last).map(|n| (n as u32, lines[n - 1].clone())).collect();
        self.found.insert(key.clone(), Snippet { file: l.file.clone(), line: l.line, lines: context });
        Some(key)
    }
}

fn read_lines(path: &Path) -> Option<Vec<String>> {
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).lines().map(|l| l.replace('\t', "    ")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(thread: u16, kind: u8, addr: u64, size: u8, value: u64, aux: u32) -> Event {
        // a store names its flush process in aux2 (here: one per thread)
        let aux2 = if kind == EV_STORE { 100 + thread as u32 } else { 0 };
        Event { thread, kind, size, addr, value, aux, aux2, ..Default::default() }
    }

    /// A flush of thread `t`'s buffer: its process in aux, the thread in aux2.
    fn flush(t: u16, value: u64) -> Event {
        Event { aux2: t as u32, ..ev(t, EV_FLUSH, 0x10, 4, value, 100 + t as u32) }
    }

    #[test]
    fn a_read_that_misses_another_threads_buffered_store_is_stale() {
        // T1 buffers x = 1; T2 reads x from memory (0): stale; T1's flush;
        // T2 reads x = 1: not stale
        let events = [ev(1, EV_STORE, 0x10, 4, 1, 1), ev(2, EV_LOAD, 0x10, 4, 0, 2), flush(1, 1), ev(2, EV_LOAD, 0x10, 4, 1, 2)];
        let flushes = robust::flush_times(&events);
        let step_of = (0..events.len()).map(|i| (i, i + 1)).collect();
        let stale = stale_reads(&events, &flushes, &step_of, &ProgramInfo::default());
        assert_eq!(stale.keys().copied().collect::<Vec<_>>(), vec![1], "{stale:?}");
        assert!(stale[&1].0.contains("T1's store 0x10 = 1 (step 1)") && stale[&1].1 == 1, "{stale:?}");
    }

    #[test]
    fn a_read_of_the_same_value_or_of_its_own_buffer_is_not_stale() {
        // T1 buffers x = 0 (the value memory has); T2 buffers x = 5 and
        // reads it from its own buffer
        let events = [ev(1, EV_STORE, 0x10, 4, 0, 1), ev(2, EV_STORE, 0x10, 4, 5, 1), ev(2, EV_LOAD, 0x10, 4, 5, 1), ev(2, EV_LOAD, 0x10, 4, 0, 3)];
        let flushes = robust::flush_times(&events);
        let step_of = (0..events.len()).map(|i| (i, i + 1)).collect();
        assert!(stale_reads(&events, &flushes, &step_of, &ProgramInfo::default()).is_empty());
    }

    #[test]
    fn the_data_cannot_end_its_script_element() {
        let page = render(&json!({"title": "a<b", "x": "</script><script>alert(1)</script>"}));
        assert!(page.contains("<title>a&lt;b</title>"));
        assert_eq!(page.matches("</script>").count(), page.matches("<script").count(), "{page}");
    }

    #[test]
    fn stores_share_a_lane_only_when_their_bars_do_not_overlap() {
        // T1: x = 1, x = 2 (both buffered), flush 1, flush 2, x = 3, flush 3
        let events = [ev(1, EV_STORE, 0x10, 4, 1, 1), ev(1, EV_STORE, 0x10, 4, 2, 1), flush(1, 1), flush(1, 2), ev(1, EV_STORE, 0x10, 4, 3, 1), flush(1, 3)];
        let flushes = robust::flush_times(&events);
        let step_of = (0..events.len()).map(|i| (i, i + 1)).collect();
        let stores = buffered_stores(&events, &flushes, &step_of, &ProgramInfo::default(), events.len());
        let spans: Vec<(usize, usize, usize)> = stores.iter().map(|s| (s.from, s.to, s.lane)).collect();
        assert_eq!(spans, vec![(1, 3, 0), (2, 4, 1), (5, 6, 0)]);
        assert_eq!(buffers(&stores).iter().map(|b| (b.thread, b.lanes)).collect::<Vec<_>>(), vec![(1, 2)]);
    }
}
