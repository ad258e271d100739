//! `verify --html`: the page, opened in a real browser (headless Chromium,
//! Debian's `chromium`, which scripts/setup installs), shows what the text
//! report shows: a column per thread and per store buffer, every step in
//! its row, each buffered store as a bar from its step to its flush, the
//! stale reads and the reordered pair marked, and the source of the steps.
//! The page's script draws all of that, so the checks read the DOM after
//! scripts ran (`chromium --dump-dom`), not the file.
//!
//! Without Chromium these tests fail, unless TSOIFY_SKIP_BROWSER=1 says to
//! check only the file (scripts/test does not set it).

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// ---- the browser ------------------------------------------------------------

/// Chromium, or None when it is missing and TSOIFY_SKIP_BROWSER=1 allows that.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join("chromium"))
        .find(|p| p.is_file());
    if found.is_none() && std::env::var("TSOIFY_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("html: chromium not found, TSOIFY_SKIP_BROWSER=1: checking the page file only, not the page in a browser");
        return None;
    }
    Some(found.unwrap_or_else(|| {
        panic!(
            "the --html tests need headless Chromium (`chromium` on PATH) to check the page as a browser draws it: \
             install Debian's `chromium` package (scripts/setup does), or set TSOIFY_SKIP_BROWSER=1 to check only the file"
        )
    }))
}

/// The page's DOM after its scripts ran.
fn dump_dom(chromium: &Path, page: &Path) -> Dom {
    let profile = tempfile::tempdir().unwrap();
    // the DOM to a file: a pipe nobody reads while we wait would fill up
    let out = profile.path().join("dom.html");
    let mut child = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.canonicalize().unwrap().display()))
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", chromium.display()));
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium --dump-dom {} did not finish in 120 s", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let dom = std::fs::read_to_string(&out).unwrap();
    assert!(o.status.success() && dom.contains("</html>"), "chromium failed on {}: {}", page.display(), String::from_utf8_lossy(&o.stderr));
    Dom::parse(&dom)
}

// ---- a small reader of the serialised DOM ----------------------------------

enum Child {
    Element(usize),
    Text(String),
}

struct Element {
    tag: String,
    attrs: Vec<(String, String)>,
    children: Vec<Child>,
}

/// The elements of an HTML serialisation (as Chromium writes one: quoted
/// attributes, end tags for everything but void elements).
struct Dom(Vec<Element>);

const VOID: [&str; 13] = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"];

fn decode(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&nbsp;", "\u{a0}").replace("&amp;", "&")
}

impl Dom {
    fn parse(html: &str) -> Dom {
        let mut els = vec![Element { tag: "#document".into(), attrs: vec![], children: vec![] }];
        let mut open = vec![0usize];
        let mut rest = html;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("<!--") {
                rest = r.split_once("-->").map_or("", |(_, r)| r);
            } else if rest.starts_with("<!") {
                rest = rest.split_once('>').map_or("", |(_, r)| r);
            } else if let Some(r) = rest.strip_prefix("</") {
                let (name, r) = r.split_once('>').unwrap_or((r, ""));
                let name = name.trim().to_ascii_lowercase();
                if let Some(k) = open.iter().rposition(|&i| els[i].tag == name) {
                    open.truncate(k.max(1));
                }
                rest = r;
            } else if rest.starts_with('<') {
                let (el, r) = Self::start_tag(&rest[1..]);
                let (tag, self_closing) = (el.0.clone(), el.2);
                let i = els.len();
                els.push(Element { tag: el.0, attrs: el.1, children: vec![] });
                els[*open.last().unwrap()].children.push(Child::Element(i));
                rest = r;
                if tag == "script" || tag == "style" {
                    let end = format!("</{tag}>");
                    let (raw, r) = rest.split_once(end.as_str()).unwrap_or((rest, ""));
                    els[i].children.push(Child::Text(raw.to_string()));
                    rest = r;
                } else if !self_closing && !VOID.contains(&tag.as_str()) {
                    open.push(i);
                }
            } else {
                let end = rest.find('<').unwrap_or(rest.len());
                els[*open.last().unwrap()].children.push(Child::Text(decode(&rest[..end])));
                rest = &rest[end..];
            }
        }
        Dom(els)
    }

    /// (tag, attributes, self-closing) and what follows the tag.
    fn start_tag(s: &str) -> ((String, Vec<(String, String)>, bool), &str) {
        let name_end = s.find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap_or(s.len());
        let tag = s[..name_end].to_ascii_lowercase();
        let mut rest = &s[name_end..];
        let mut attrs = vec![];
        loop {
            rest = rest.trim_start();
            if let Some(r) = rest.strip_prefix("/>") {
                return ((tag, attrs, true), r);
            }
            if let Some(r) = rest.strip_prefix('>') {
                return ((tag, attrs, false), r);
            }
            if rest.is_empty() {
                return ((tag, attrs, false), rest);
            }
            let n = rest.find(|c: char| c.is_whitespace() || c == '=' || c == '>' || c == '/').unwrap_or(rest.len()).max(1);
            let name = rest[..n].to_ascii_lowercase();
            rest = &rest[n..];
            let mut value = String::new();
            if let Some(r) = rest.strip_prefix('=') {
                if let Some(q @ ('"' | '\'')) = r.chars().next() {
                    let (v, r) = r[1..].split_once(q).unwrap_or((&r[1..], ""));
                    value = decode(v);
                    rest = r;
                } else {
                    let e = r.find(|c: char| c.is_whitespace() || c == '>').unwrap_or(r.len());
                    value = decode(&r[..e]);
                    rest = &r[e..];
                }
            }
            attrs.push((name, value));
        }
    }

    fn attr(&self, i: usize, name: &str) -> Option<&str> {
        self.0[i].attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn has_class(&self, i: usize, class: &str) -> bool {
        self.attr(i, "class").is_some_and(|c| c.split_whitespace().any(|w| w == class))
    }

    /// Every element with all of `classes`.
    fn with_classes(&self, classes: &[&str]) -> Vec<usize> {
        (0..self.0.len()).filter(|&i| classes.iter().all(|c| self.has_class(i, c))).collect()
    }

    fn by_id(&self, id: &str) -> Option<usize> {
        (0..self.0.len()).find(|&i| self.attr(i, "id") == Some(id))
    }

    /// The text of an element and everything in it (scripts and styles left out).
    fn text(&self, i: usize) -> String {
        let mut out = String::new();
        for c in &self.0[i].children {
            match c {
                Child::Text(t) if self.0[i].tag != "script" && self.0[i].tag != "style" => out.push_str(t),
                Child::Element(j) => out.push_str(&self.text(*j)),
                _ => {}
            }
        }
        out
    }

    fn number(&self, i: usize, name: &str) -> usize {
        self.attr(i, name).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("<{}> without a numeric {name}", self.0[i].tag))
    }

    fn contains(&self, outer: usize, inner: usize) -> bool {
        outer == inner || self.0[outer].children.iter().any(|c| matches!(c, Child::Element(j) if self.contains(*j, inner)))
    }
}

// ---- what the text trace says -----------------------------------------------

struct TraceStep {
    step: usize,
    thread: usize,
    operation: String,
    buffer: String,
}

fn trace(path: &Path) -> Vec<TraceStep> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| TraceStep {
            step: s["step"].as_u64().unwrap() as usize,
            thread: s["thread"].as_u64().unwrap() as usize,
            operation: s["operation"].as_str().unwrap().to_string(),
            buffer: s["buffer"].as_str().unwrap().to_string(),
        })
        .collect()
}

/// (thread, store step, flush step, "x = v") of each buffered store of a
/// TSO trace: a thread's flushes leave its buffer in the order of its stores.
fn buffered_stores(steps: &[TraceStep]) -> Vec<(usize, usize, usize, String)> {
    let mut out = vec![];
    for s in steps.iter().filter(|s| s.buffer.starts_with("buffered in")) {
        let what = s.operation.strip_prefix("store ").unwrap().to_string();
        let taken = |f: &TraceStep| out.iter().any(|o: &(usize, usize, usize, String)| o.2 == f.step);
        let flush = steps
            .iter()
            .find(|f| f.step > s.step && f.thread == s.thread && f.operation == format!("flush {what}") && !taken(f))
            .unwrap_or_else(|| panic!("no flush of step {}", s.step));
        out.push((s.thread, s.step, flush.step, what));
    }
    out
}

/// The loads that read memory while another thread's store of another
/// value to the same variable was buffered.
fn stale_loads(steps: &[TraceStep], stores: &[(usize, usize, usize, String)]) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    for l in steps.iter().filter(|s| s.operation.starts_with("load ") && s.buffer.contains("memory")) {
        let (var, value) = l.operation["load ".len()..].split_once(" -> ").unwrap();
        let hidden = stores.iter().any(|(t, from, to, what)| {
            let (v, w) = what.split_once(" = ").unwrap();
            *t != l.thread && *from < l.step && l.step < *to && v == var && w != value
        });
        if hidden {
            out.insert(l.step);
        }
    }
    out
}

// ---- running verify ----------------------------------------------------------

/// verify `args` with `--html` (and `--trace-json`) from the repository
/// root: (exit code, the page file, the trace file, the scratch directory).
fn verify_html(args: &[&str]) -> (i32, PathBuf, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let trace = dir.path().join("trace.json");
    let mut cmd = verify();
    cmd.current_dir(repo()).arg("--html").arg(&page);
    if !args.contains(&"--compare") {
        cmd.arg("--trace-json").arg(&trace);
    }
    let o = cmd.args(args).output().unwrap();
    assert!(page.is_file(), "verify wrote no page: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    (o.status.code().unwrap_or(-1), page, trace, dir)
}

/// The page needs nothing but itself: no element or style that loads anything.
fn assert_self_contained(text: &str) {
    for needle in ["<link", " src=", "@import", "url(", "fetch(", "XMLHttpRequest", "https://", "http://www.w3.org/1999/xlink"] {
        assert!(!text.contains(needle), "the page refers to something outside it ({needle})");
    }
    assert!(text.contains("id=\"tsoify-data\""), "no data in the page");
}

// ---- the tests --------------------------------------------------------------

#[test]
fn dekker_under_tso_is_drawn_as_a_timeline_of_threads_and_buffers() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("examples/dekker.c"), dir.path());
    let (code, page, trace_path, _keep) = verify_html(&[prog.to_str().unwrap()]);
    assert_eq!(code, 1, "dekker under TSO is a violation");
    let text = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&text);
    let Some(chromium) = chromium() else { return };
    let dom = dump_dom(&chromium, &page);
    let steps = trace(&trace_path);

    // the verdict
    let verdict = dom.by_id("verdict").expect("a verdict");
    assert_eq!(dom.text(verdict), "VIOLATION");
    assert!(dom.text(dom.by_id("summary").unwrap()).contains("two threads in the critical section"));

    // a column per thread and one per store buffer
    let threads: BTreeSet<usize> = steps.iter().filter(|s| !s.operation.starts_with("flush")).map(|s| s.thread).collect();
    let heads: BTreeSet<usize> = dom.with_classes(&["col-head", "thread"]).iter().map(|&i| dom.number(i, "data-thread")).collect();
    assert_eq!(heads, threads, "thread columns");
    assert_eq!(threads, BTreeSet::from([0, 1, 2]));
    for &i in &dom.with_classes(&["col-head", "thread"]) {
        assert!(dom.text(i).starts_with(&format!("T{}", dom.number(i, "data-thread"))));
    }
    let stores = buffered_stores(&steps);
    let buffers: BTreeSet<usize> = dom.with_classes(&["col-head", "buffer"]).iter().map(|&i| dom.number(i, "data-buffer")).collect();
    assert_eq!(buffers, stores.iter().map(|s| s.0).collect(), "buffer columns");
    assert_eq!(buffers, BTreeSet::from([1, 2]));

    // every step in its row, each thread's step in its thread's column
    let rows: Vec<usize> = dom.with_classes(&["cell", "num"]).iter().map(|&i| dom.number(i, "data-step")).collect();
    assert_eq!(rows, (1..=steps.len()).collect::<Vec<_>>(), "one row per step");
    let ops = dom.with_classes(&["cell", "op"]);
    for s in steps.iter().filter(|s| !s.operation.starts_with("flush")) {
        let cell = ops.iter().copied().find(|&i| dom.number(i, "data-step") == s.step).unwrap_or_else(|| panic!("no cell for step {}", s.step));
        assert_eq!(dom.number(cell, "data-thread"), s.thread, "step {}", s.step);
        let shown = dom.text(cell);
        let op = s.operation.split(" `").next().unwrap();
        assert!(shown.contains(op), "step {}: {shown:?} does not show {op:?}", s.step);
    }

    // each buffered store a bar in its buffer's column, from its step to its flush
    let bars: Vec<(usize, usize, usize, String)> = dom
        .with_classes(&["bar"])
        .iter()
        .map(|&i| (dom.number(i, "data-buffer"), dom.number(i, "data-from"), dom.number(i, "data-to"), dom.text(i)))
        .collect();
    assert_eq!(bars.len(), stores.len(), "{bars:?}");
    for (t, from, to, what) in &stores {
        assert!(
            bars.iter().any(|b| (b.0, b.1, b.2) == (*t, *from, *to) && b.3.contains(what.as_str())),
            "no bar for T{t}'s store {what} from step {from} to {to}: {bars:?}"
        );
    }

    // the stale loads, and only those
    let want = stale_loads(&steps, &stores);
    assert!(!want.is_empty(), "dekker's counterexample reads a stale flag");
    let stale: BTreeSet<usize> = dom.with_classes(&["op", "stale"]).iter().map(|&i| dom.number(i, "data-step")).collect();
    assert_eq!(stale, want, "stale loads");
    for &i in &dom.with_classes(&["op", "stale"]) {
        assert!(dom.text(i).contains("load ") && dom.text(i).contains("stale"), "{}", dom.text(i));
    }

    // the reordered pair: a buffered store and a later load of its thread
    // that ran before the store reached memory
    let pair: Vec<usize> = dom.with_classes(&["op", "reordered"]);
    assert_eq!(pair.len(), 2, "one reordered pair");
    let [a, b] = [pair[0], pair[1]].map(|i| dom.number(i, "data-step"));
    let (sa, sb) = (&steps[a - 1], &steps[b - 1]);
    assert_eq!(sa.thread, sb.thread);
    assert!(sa.operation.starts_with("store ") && sb.operation.starts_with("load ") && a < b, "{} / {}", sa.operation, sb.operation);
    let flushed = stores.iter().find(|s| s.1 == a).unwrap().2;
    assert!(b < flushed, "the load ran while the store was buffered");
    assert_eq!(dom.with_classes(&["finding", "reordered"]).len(), 1);

    // the violation, and the source: in the row, on hover, in the panel
    let last = steps.len();
    assert!(ops.iter().any(|&i| dom.number(i, "data-step") == last && dom.has_class(i, "violation")));
    let store_row = dom.with_classes(&["cell", "src"]).into_iter().find(|&i| dom.number(i, "data-step") == stores[0].1).unwrap();
    assert!(dom.text(store_row).contains("flag") && dom.text(store_row).contains("= 1;"), "{}", dom.text(store_row));
    assert!(dom.attr(store_row, "title").unwrap().contains("= 1;"));
    let panel = dom.by_id("source-panel").unwrap();
    assert_eq!(dom.number(panel, "data-step"), last, "the violation's step is selected first");
    assert!(dom.text(panel).contains("assert(before == 0"), "{}", dom.text(panel));
    let current = dom.with_classes(&["line", "current"]);
    assert!(current.len() == 1 && dom.contains(panel, current[0]) && dom.text(current[0]).contains("28"));
}

#[test]
fn a_safe_answer_is_the_verdict_and_the_statistics_without_a_timeline() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("examples/dekker.c"), dir.path());
    let (code, page, _, _keep) = verify_html(&["--model", "sc", prog.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_self_contained(&std::fs::read_to_string(&page).unwrap());
    let Some(chromium) = chromium() else { return };
    let dom = dump_dom(&chromium, &page);
    assert_eq!(dom.text(dom.by_id("verdict").unwrap()), "SAFE");
    let stats = dom.text(dom.by_id("statistics").expect("statistics"));
    assert!(stats.contains("executions") && stats.contains("--por source") && stats.contains("SC"), "{stats}");
    assert!(dom.by_id("timeline").is_none() && dom.with_classes(&["bar"]).is_empty(), "no timeline on SAFE");
}

#[test]
fn compare_puts_the_table_the_plot_and_the_first_counterexample_on_one_page() {
    let src = repo().join("examples/dekker.c");
    let (code, page, _, _keep) = verify_html(&["--compare", "--models", "sc,tso", "--bounds", "1,unbounded", src.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_self_contained(&std::fs::read_to_string(&page).unwrap());
    let Some(chromium) = chromium() else { return };
    let dom = dump_dom(&chromium, &page);
    let table = dom.by_id("compare-table").expect("the table");
    let rows: Vec<(String, String)> = (0..dom.0.len())
        .filter(|&i| dom.0[i].tag == "tr" && dom.contains(table, i) && dom.attr(i, "data-model").is_some())
        .map(|i| (dom.attr(i, "data-model").unwrap().to_string(), dom.attr(i, "data-bound").unwrap().to_string()))
        .collect();
    assert_eq!(rows, [("sc", "-"), ("tso", "1"), ("tso", "unbounded")].map(|(m, b)| (m.to_string(), b.to_string())));
    let text = dom.text(table);
    assert!(text.contains("SAFE") && text.contains("VIOLATION"), "{text}");
    let plot = dom.by_id("compare-plot").expect("the plot");
    assert!((0..dom.0.len()).any(|i| dom.0[i].tag == "svg" && dom.contains(plot, i)), "the plot is an inline SVG");
    // the counterexample of the first failing configuration: tso, bound 1
    assert!(dom.text(dom.by_id("compare-shown").unwrap()).contains("tso bound 1"));
    let caption = dom.with_classes(&["timeline"]).iter().map(|&i| dom.text(i)).next().expect("a timeline");
    assert!(caption.contains("TSO, buffer size 1"), "{caption}");
    assert!(!dom.with_classes(&["op", "stale"]).is_empty() && !dom.with_classes(&["bar"]).is_empty());
}
