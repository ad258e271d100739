//! `verify`: explore every execution of an instrumented program under SC,
//! x86-TSO or PSO and report a verdict, statistics and a counterexample.

use clap::Parser;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tsoify::build::{self, BuildOptions};
use tsoify::cli::BuildArgs;
use tsoify::explore::{self, Config};
use tsoify::info::ProgramInfo;
use tsoify::svcomp;
use tsoify::{exit, report};

// see driver/Cargo.toml: the search allocates many small vectors
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Seconds at least that `--stats` gives its --por none comparison when
/// the user set no --timeout.
const NONE_STATS_SECONDS: f64 = 10.0;

#[derive(Parser, Debug)]
#[command(
    name = "verify",
    version,
    about = "Check every execution of a C/pthreads program under SC, x86-TSO or PSO",
    long_about = "Runs PROGRAM (built by `tsoify`, or a .c/.i/.ll/.bc file that is built first, by the tsoify beside verify or on PATH) natively, \
once per execution, and explores every thread schedule and every way the store buffers can reach memory \
(depth-first, with dynamic partial order reduction; executions run in a separate worker process restored \
from a snapshot between runs, so a crash or hang of the program cannot harm the search). Reports SAFE when no execution fails, VIOLATION with a step-by-step trace when one does \
(assertion, reach_error, abort, crash, deadlock, livelock, use-after-free: an access of freed heap memory, \
also by a buffered store reaching memory after the free), and UNKNOWN when the search was cut short.\n\n\
Memory models: sc - every store visible at once; tso - x86: a FIFO store buffer per thread, loads see \
their own buffered stores first, mfence and locked instructions (atomic RMW, cmpxchg, seq_cst store) \
drain it; pso - one FIFO per thread and address, so stores to different addresses may reorder.",
    after_help = "EXAMPLES:\n  verify dekker.c                       # build and check under x86-TSO\n  verify --model sc dekker.c            # the same under sequential consistency\n  verify --buffer-size 2 prog.tso       # at most 2 buffered stores per thread\n  verify --outcomes litmus/SB.c         # list every reachable outcome (tsoify_outcome)\n  verify --trace-json t.json prog.tso   # the counterexample, machine-readable\n  verify --sarif out.sarif prog.c       # SARIF 2.1.0 for CI code scanning (GitHub) and editors\n  verify --html dekker.html dekker.c    # the counterexample as a timeline page for a browser\n  verify --compare dekker.c             # sc, tso and pso at bounds 1,2,4,8,32,unbounded: one table\n  verify --compare --models tso --bounds 1,2,3,unbounded --csv t.csv --plot t.svg prog.c\n  verify --svcomp task.yml              # SV-COMP: unreach-call, last line `Result: ...`, witness.yml on FALSE\n\nEXIT CODES: 0 SAFE, 1 VIOLATION found, 2 UNKNOWN (a limit was hit), 3 usage or input error.\nWith --compare: 1 if any configuration found a violation, else 2 if any was UNKNOWN, else 0 (3 as above).\n\
With --svcomp: 0 TRUE, 1 FALSE, 2 UNKNOWN, 3 usage or input error."
)]
struct Cli {
    /// The program: an executable built by tsoify, .c/.i/.ll/.bc source, or an
    /// SV-COMP task definition (.yml) whose input file is checked.
    program: PathBuf,
    /// Arguments passed to the program's main.
    #[arg(last = true)]
    args: Vec<String>,
    /// Memory model: sc, tso or pso (default: the one the program was built with, normally tso).
    #[arg(long, value_parser = build::parse_model, conflicts_with = "compare")]
    model: Option<u32>,
    /// Store-buffer bound K: entries a thread may hold before the oldest must
    /// reach memory. 0 means unbounded.
    #[arg(long, default_value_t = 32, conflicts_with = "compare")]
    buffer_size: u32,
    /// Stop after this many executions (the verdict is then UNKNOWN unless a
    /// violation was found). With --compare: per configuration.
    #[arg(long)]
    max_executions: Option<u64>,
    /// Bug-first probes, at a steady rate (by default fewer as the search
    /// gets long; with --svcomp steady too), and print how many ran: every
    /// 8 executions of the search, also run the
    /// program once from the start scheduled by random thread priorities
    /// (PCT), or (every other probe, at first) by threads taking turns, to
    /// find violations that the depth-first search reaches late, such as
    /// one thread running after twenty others, or two threads alternating
    /// at every update while a third waits to check. A probe draws the wide
    /// nondet values the search has not fixed yet (0, 1, -1, 2, INT_MAX or
    /// random) where the search starts from 0, and in some probes gives
    /// each wide draw the value of the one before (for bugs that need
    /// several inputs equal). A probe's violation
    /// is real and ends the search; probes never count toward SAFE. Costs a
    /// SAFE answer an eighth more executions (by default at most that, a
    /// quarter of a percent at a million).
    #[arg(long, conflicts_with = "no_probes")]
    probes: bool,
    /// No bug-first probes: only the depth-first search runs (its first
    /// violation is the one reported)
    #[arg(long)]
    no_probes: bool,
    /// Search with the --buffer-size bound from the start. By default, under
    /// TSO and PSO with a bound K, verify first searches with unbounded
    /// buffers: every execution that buffers at most K stores per thread is
    /// one of those, so SAFE there holds at K, and so does a violation that
    /// never buffers more than K stores; only otherwise does it search again
    /// with the bound. (Under PSO the bounded search alone can take far
    /// longer: which entry leaves a full buffer is a choice.)
    #[arg(long)]
    direct_bound: bool,
    /// Stop after this many seconds (UNKNOWN unless a violation was found).
    /// With --compare: per configuration.
    #[arg(long)]
    timeout: Option<f64>,
    /// Scheduling steps one execution may take before it is cut (UNKNOWN: the
    /// program may not terminate).
    #[arg(long, default_value_t = 100_000)]
    max_steps: u32,
    /// Bound every loop to N iterations per entry: an execution that would
    /// run more is cut there, and the verdict is UNKNOWN (never SAFE) if any
    /// was cut. 0 (the default) means no bound. Loops that only wait for
    /// another thread (spin loops that re-read shared memory and change
    /// nothing) need no bound: an iteration of one that goes round again
    /// stops its thread (the search explores the executions in which the
    /// loop reads what lets it end), so they end by themselves.
    #[arg(long, value_name = "N", default_value_t = 0)]
    unroll: u32,
    /// Treat loops that only wait like any other loop: a spinning thread is
    /// not blocked, so such loops need --unroll or --max-steps to end. For
    /// checking the await blocking against plain exploration.
    #[arg(long, conflicts_with = "await_wake")]
    no_await: bool,
    /// A loop iteration that only waited (read values, changed nothing) and
    /// goes round again blocks its thread until a location it read changes,
    /// then runs again. By default such an iteration stops its thread for
    /// the rest of the execution instead (the executions in which it runs
    /// after the change are explored anyway: its reads race with the
    /// writes), which explores far fewer executions of spin loops. For
    /// checking the default against; --robustness uses it (a failing
    /// iteration that read what SC cannot give makes its execution not
    /// SC-equivalent).
    #[arg(long)]
    await_wake: bool,
    /// How often one thread may return from pthread_cond_wait (or
    /// timedwait) without being signalled, per execution. POSIX allows
    /// such spurious wakeups, and code that does not re-check its condition
    /// after a wait is wrong on real systems; the default, 1, finds that.
    /// 0 models a library without spurious wakeups (a stricter promise
    /// than POSIX makes). A program whose bug needs the same thread to wake
    /// spuriously more often needs a larger N.
    #[arg(long, value_name = "N", default_value_t = 1)]
    spurious_wakeups: u32,
    /// Answer whether every execution under the model is equivalent to an
    /// SC execution (the program is robust), whatever its assertions say:
    /// ROBUST (exit 0), or NOT ROBUST (exit 1) with the store and the later
    /// access of the same thread that its store buffer reordered, and the
    /// execution. Exact for the buffer bound in use (see driver/src/robust.rs).
    #[arg(long, conflicts_with_all = ["compare", "svcomp", "outcomes"])]
    robustness: bool,
    /// Find a smallest set of program points at which a fence makes the
    /// program correct under the model (no violation; with --robustness,
    /// robust): verify, collect the stores whose buffering the failure needed,
    /// choose a minimum hitting set over all failures so far, re-verify with
    /// those fences, repeat. Prints `FENCES n` and one line per fence
    /// (file:line:col of the store it follows, the function, and whether a
    /// store-store barrier suffices). PROGRAM must be source (.c/.i/.ll/.bc).
    #[arg(long, conflicts_with_all = ["compare", "svcomp", "outcomes"])]
    infer_fences: bool,
    /// With --infer-fences: write the fence set as JSON to FILE (what
    /// --with-fences reads).
    #[arg(long, value_name = "FILE", requires = "infer_fences")]
    fences_json: Option<PathBuf>,
    /// Wall-clock seconds one execution may run before it is cut (UNKNOWN;
    /// checked four times per limit, so a hang is cut within a quarter
    /// more): catches loops that touch no shared memory, which --max-steps
    /// cannot see.
    #[arg(long, default_value_t = 10)]
    exec_timeout: u32,
    /// Explore everything and print the set of outcomes the program reported
    /// with tsoify_outcome() (include "tsoify.h"); violations are counted, not stopped at.
    #[arg(long, conflicts_with = "compare")]
    outcomes: bool,
    /// Write the counterexample trace as JSON to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "compare")]
    trace_json: Option<PathBuf>,
    /// Write the verdict, statistics and outcomes as JSON to FILE. With
    /// --compare: {"rows": [one object per configuration: model, bound (null
    /// for sc, 0 = unbounded), bound_label, verdict, reason, executions,
    /// seconds, por], "summary": {"smallest_violating_bound": {"tso": "3",
    /// "sc": null, ...}, "exit_code": ...}}; a smallest violating bound is
    /// written as the table shows it ("unbounded", "-" for sc), null when
    /// that model showed no violation.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the answer as a SARIF 2.1.0 log to FILE: the format CI code
    /// scanning and editors read, so a relaxed-memory bug shows up as an
    /// alert on the failing line (e.g. upload it to GitHub code scanning with
    /// the github/codeql-action/upload-sarif action). A violation is one
    /// result, its rule the kind (assertion-violation, reach-error, abort,
    /// crash, deadlock, livelock, data-race, not-robust), its message the
    /// violation and the memory model, and its code flow the counterexample:
    /// one location per step of the trace, in order, each naming its
    /// thread, operation and store buffer. SAFE (ROBUST) is a log without
    /// results; UNKNOWN is one without results whose invocation failed, with
    /// the reason as a notification. Source paths below the current
    /// directory are relative to it (%SRCROOT%), others absolute file URIs.
    /// Written with --quiet too.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["compare", "infer_fences"])]
    sarif: Option<PathBuf>,
    /// Write the answer as one self-contained HTML page to FILE (inline
    /// style and script; no network, nothing else to copy): the verdict, the
    /// counterexample as a timeline with a column per thread and per store
    /// buffer (a store is drawn in its buffer from the step it was buffered
    /// to its flush; stale reads and the reordered pair are highlighted;
    /// click a step for its source), and the statistics. With --compare:
    /// the table, the plot and the counterexample of the first failing
    /// configuration. Written with --quiet too.
    #[arg(long, value_name = "FILE", conflicts_with = "infer_fences")]
    html: Option<PathBuf>,
    /// Run the program under several memory models and store-buffer bounds
    /// (--models, --bounds) and print one table: model, bound, verdict,
    /// executions, seconds, and per model the smallest bound at which a
    /// violation appears. The program is built once; each configuration is a
    /// separate search with the same --por and limits.
    #[arg(long)]
    compare: bool,
    /// With --compare: the memory models to run, comma-separated, e.g.
    /// --models sc,tso. Default: sc,tso,pso. SC has no store buffers, so it
    /// runs once and its bound shows as `-`.
    #[arg(long, value_name = "MODELS", value_delimiter = ',', value_parser = build::parse_model, requires = "compare")]
    models: Vec<u32>,
    /// With --compare: the store-buffer bounds to run each of tso and pso at,
    /// comma-separated; `unbounded` (or 0) is no bound. Default:
    /// 1,2,4,8,32,unbounded. Listed ascending with unbounded last, so the
    /// first violating row of a model is its smallest violating bound.
    #[arg(long, value_name = "BOUNDS", value_delimiter = ',', value_parser = tsoify::compare::parse_bound, requires = "compare")]
    bounds: Vec<u32>,
    /// With --compare: also write the table as CSV to FILE: a header line,
    /// then one line per configuration, columns
    /// model,bound,verdict,reason,executions,assume_blocked,seconds,por.
    #[arg(long, value_name = "FILE", requires = "compare")]
    csv: Option<PathBuf>,
    /// With --compare: draw executions (log scale) and seconds against the
    /// bound, one line per model, as an SVG file (two panels). SC is a dashed
    /// level line; filled markers are violations, hollow ones SAFE, crosses UNKNOWN.
    #[arg(long, value_name = "FILE.svg", requires = "compare")]
    plot: Option<PathBuf>,
    /// Partial order reduction: optimal (optimal DPOR with wakeup trees)
    /// explores one complete execution per class of equivalent
    /// interleavings (a program with atomic blocks is explored with source
    /// instead, and a note says so); source (source-set DPOR with sleep
    /// sets) about one, with some cut short by a sleep set; none
    /// explores every interleaving (the reference the reductions are tested
    /// against).
    #[arg(long, value_enum, default_value = "optimal")]
    por: explore::Por,
    /// Print the statistics of the search in full: executions (complete,
    /// cut short by a sleep set, discarded by a failed assume or a spin
    /// loop that would have gone round again), the reduction's own
    /// counters, and the reduction against --por none (which is run too,
    /// with the same limits, to measure it; without --timeout it stops
    /// after 10 s or ten times the search's time, whichever is longer,
    /// and the ratio is then a lower bound).
    #[arg(long)]
    stats: bool,
    /// Print only the verdict line (with --compare: only the smallest
    /// violating bound line), and no progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// SV-COMP mode: check unreach-call (only reach_error and a failed assert
    /// are violations; abort and deadlock end an execution quietly, a crash
    /// makes the answer UNKNOWN) or no-data-race (only a data race is; see
    /// --races), print the report and then, as the last line, `Result:
    /// TRUE`, `Result: FALSE(unreach-call)`, `Result: FALSE(no-data-race)`
    /// or `Result: UNKNOWN`; on FALSE write a violation witness (format 2.0;
    /// for a race, one target waypoint per racing access). Another property
    /// is answered UNKNOWN without exploring.
    #[arg(long, conflicts_with_all = ["compare", "outcomes"])]
    svcomp: bool,
    /// With --svcomp: the property file (.prp). Default: the task's
    /// unreach-call property when PROGRAM is a task .yml (else its first
    /// property), else unreach-call.
    #[arg(long, value_name = "FILE.prp", requires = "svcomp")]
    property: Option<PathBuf>,
    /// With --svcomp: where to write the violation witness. Default:
    /// witness.yml in the current directory.
    #[arg(long, value_name = "FILE", requires = "svcomp")]
    witness: Option<PathBuf>,
    /// Data races: two accesses to the same bytes by different threads, at
    /// least one a write and one not atomic, that C11 happens-before does
    /// not order (threads, mutexes, release/acquire, atomic blocks; see
    /// driver/src/races.rs). Every report says when the search saw some,
    /// without changing the verdict. --races lists each racing pair (thread,
    /// file:line, read or write, atomic or plain) and prints the execution
    /// that shows the first; --races=violation makes a race a violation (the
    /// search stops at the first: VIOLATION data race, exit 1);
    /// --races=off does not look (a little faster).
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "show", value_name = "MODE")]
    races: Option<RacesMode>,
    #[command(flatten)]
    build: BuildArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum RacesMode {
    /// list every racing pair and show an execution
    Show,
    /// a race is a violation
    Violation,
    /// do not look for races
    Off,
}

#[derive(Serialize)]
struct Summary<'a> {
    verdict: &'a str,
    reason: &'a str,
    model: &'static str,
    buffer_size: u32,
    executions: u64,
    /// executions that ran to their end (not cut by a sleep set or an assume)
    complete: u64,
    assume_blocked: u64,
    sleep_blocked: u64,
    seconds: f64,
    por: &'static str,
    outcomes: Vec<OutcomeRow<'a>>,
    /// why the search did not see every execution (a timeout, the step
    /// limit...); with --outcomes after a violation, the set may be partial
    incomplete: Vec<String>,
    /// data races seen, one per pair of program locations
    races: Vec<RaceRow>,
    warnings: &'a [String],
    /// under TSO or PSO with a bound: what the search with unbounded
    /// buffers that came first found, and whether that is the answer
    unbounded_first: Option<UnboundedFirstRow<'a>>,
}

#[derive(Serialize)]
struct UnboundedFirstRow<'a> {
    #[serde(flatten)]
    run: &'a explore::UnboundedFirst,
    note: String,
}

#[derive(Serialize)]
struct RaceRow {
    variable: String,
    accesses: [RaceAccess; 2],
    /// the execution (1-based) in which it was first seen
    execution: u64,
}

#[derive(Serialize)]
struct RaceAccess {
    thread: u16,
    location: String,
    write: bool,
    atomic: bool,
}

#[derive(Serialize)]
struct OutcomeRow<'a> {
    outcome: &'a str,
    executions: u64,
    violations: u64,
}

/// verify's scratch directory (the built program, its tables), removed by
/// every way out: `process::exit` does not run destructors.
static WORKDIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

fn finish(code: i32) -> ! {
    if let Some(dir) = WORKDIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
    std::process::exit(code)
}

fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("verify: {msg}");
    finish(exit::USAGE)
}

/// How to build the program for `model`, with `fences` inserted.
fn build_options(cli: &Cli, model: u32, fences: Vec<tsoify_pass::FencePoint>) -> BuildOptions {
    BuildOptions {
        model,
        bound: cli.buffer_size,
        allow_unsupported: cli.build.allow_unsupported,
        clang_flags: cli.build.clang_flags(),
        verbose: false,
        fences,
        // with --svcomp, the task's unless --data-model says otherwise (main)
        data_model: cli.build.data_model.unwrap_or_default(),
    }
}

/// The search the command line asks for under `model` (`no_data_race`:
/// --svcomp with that property).
fn search_config(cli: &Cli, model: u32, no_data_race: bool) -> Config {
    use explore::{Property, RaceCheck};
    Config {
        model,
        bound: cli.buffer_size,
        max_steps: cli.max_steps,
        unroll: cli.unroll,
        await_mode: if cli.no_await {
            tsoify::channel::AWAIT_NONE
        } else if cli.await_wake || cli.robustness {
            // (a failing iteration that read what SC cannot give is part of
            // an execution that is not SC-equivalent: robustness needs it run)
            tsoify::channel::AWAIT_WAKE
        } else {
            tsoify::channel::AWAIT_STOP
        },
        spurious_wakeups: cli.spurious_wakeups,
        max_executions: cli.max_executions,
        timeout: cli.timeout.map(Duration::from_secs_f64),
        hang_seconds: cli.exec_timeout,
        all: cli.outcomes,
        por: cli.por,
        property: match (cli.svcomp, no_data_race) {
            (true, true) => Property::NoDataRace,
            (true, false) => Property::UnreachCall,
            _ => Property::AnyFailure,
        },
        robustness: cli.robustness,
        probes: if cli.no_probes {
            explore::Probing::Off
        } else if cli.probes || cli.svcomp {
            // (asked for, or SV-COMP, which scores a found violation)
            explore::Probing::Steady
        } else {
            explore::Probing::ThinningOut
        },
        unbounded_first: !cli.direct_bound,
        races: match cli.races {
            _ if no_data_race => RaceCheck::Property,
            Some(RacesMode::Violation) => RaceCheck::Property,
            Some(RacesMode::Off) => RaceCheck::Off,
            Some(RacesMode::Show) => RaceCheck::Report,
            // the SV-COMP answer does not use them
            None if cli.svcomp || cli.infer_fences => RaceCheck::Off,
            None => RaceCheck::Report,
        },
    }
}

/// Build the program if it is source; returns the executable and what the
/// pass warned about.
fn executable(cli: &Cli, source: &Path, keep: &tempfile::TempDir) -> (PathBuf, Vec<String>) {
    if build::source_kind(source).is_none() {
        if !source.is_file() {
            fail(format!("{}: no such file", source.display()));
        }
        return (source.to_path_buf(), vec![]);
    }
    let opts = build_options(cli, cli.model.unwrap_or(1), cli.build.fences().unwrap_or_else(|e| fail(e)));
    let out = keep.path().join("prog.tso");
    match tsoify::build_cmd::build(source, &out, &opts, keep.path()) {
        Ok(warnings) => (out, warnings),
        Err(e) => fail(e),
    }
}

/// `verify --infer-fences`: see the option's help and driver/src/fences.rs.
fn infer_fences(cli: &Cli, source: &Path, keep: &tempfile::TempDir) -> i32 {
    use tsoify::fences;
    if build::source_kind(source).is_none() {
        fail(format!("{}: --infer-fences needs the source (.c, .cpp, .i, .ll or .bc) to rebuild it with fences", source.display()));
    }
    let model = cli.model.unwrap_or(1);
    if model == 0 {
        fail("--infer-fences under --model sc: SC has no store buffers, no fence can change anything; hint: --model tso or pso");
    }
    let cfg = search_config(cli, model, false);
    let start = std::time::Instant::now();
    let mut failures: Vec<std::collections::BTreeSet<tsoify_pass::FencePoint>> = vec![];
    let mut chosen: Vec<tsoify_pass::FencePoint> = cli.build.fences().unwrap_or_else(|e| fail(e));
    let mut exact = true;
    for round in 1.. {
        let opts = build_options(cli, model, chosen.clone());
        let out = keep.path().join(format!("prog-{round}.tso"));
        if let Err(e) = tsoify::build_cmd::build(source, &out, &opts, keep.path()) {
            fail(e);
        }
        let info_path = keep.path().join(format!("info-{round}.json"));
        let x = explore::explore(&out, &cli.args, &info_path, &cfg, |_, _| {}).unwrap_or_else(|e| fail(e));
        let info = ProgramInfo::read(&info_path);
        let failing = if cli.robustness { x.not_robust.as_ref().map(|(_, ev)| ev.clone()) } else { x.violation.as_ref().map(|v| v.events.clone()) };
        let Some(events) = failing else {
            let verdict = if cli.robustness { report::robustness_verdict(&x) } else { report::verdict(&x) };
            if verdict.verdict == "UNKNOWN" {
                println!("UNKNOWN {} (with {} fence(s) after {round} round(s))", verdict.reason, chosen.len());
                return exit::UNKNOWN;
            }
            println!("FENCES {}", chosen.len());
            for f in &chosen {
                println!("  {}", fences::describe(f));
            }
            if !cli.quiet {
                let what = if cli.robustness { "robust" } else { "safe" };
                println!(
                    "\n{} under {} with these fences ({} round(s), {} failing execution(s) analysed, {:.2} s){}",
                    what,
                    build::model_name(model).to_uppercase(),
                    round,
                    failures.len(),
                    start.elapsed().as_secs_f64(),
                    if exact { "" } else { "; the set is small, not proven smallest (many candidate points)" }
                );
            }
            if let Some(path) = &cli.fences_json {
                let text = serde_json::to_string_pretty(&chosen).expect("fences serialise");
                std::fs::write(path, text).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
            }
            return exit::SAFE;
        };
        let cand = fences::candidates(&events, &info);
        if cand.is_empty() || cand.iter().all(|c| chosen.contains(c)) {
            let why = if cli.robustness { "an execution that is not SC-equivalent" } else { "a violation" };
            println!("NO FENCES: {why} remains that no store buffering causes (it happens under SC too); fences cannot fix it");
            if !cli.quiet {
                if let Some(v) = &x.violation {
                    println!("  {}", report::violation_text(v));
                }
            }
            return exit::VIOLATION;
        }
        failures.push(cand);
        let (set, was_exact) = fences::minimum_hitting_set(&failures);
        exact &= was_exact;
        chosen = set;
        if round > 64 {
            println!("UNKNOWN no fence set found in 64 rounds");
            return exit::UNKNOWN;
        }
    }
    unreachable!()
}

/// `verify --compare`: every configuration of one built program, one table.
fn compare(cli: &Cli, program: &Path, info_path: &Path, warnings: Vec<String>) -> i32 {
    use tsoify::compare;
    let models = if cli.models.is_empty() { compare::DEFAULT_MODELS.to_vec() } else { cli.models.clone() };
    let bounds = if cli.bounds.is_empty() { compare::DEFAULT_BOUNDS.to_vec() } else { cli.bounds.clone() };
    let settings = compare::Settings {
        search: Config { hang_seconds: 10, ..search_config(cli, 0, false) },
        progress: !cli.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    let mut c = compare::run(program, &cli.args, info_path, &models, &bounds, &settings).unwrap_or_else(|e| fail(format!("{e:#}")));
    c.warnings = warnings;
    if cli.quiet {
        println!("{}", c.summary_line());
    } else {
        print!("{}", c.table());
        if !c.warnings.is_empty() {
            println!("(unsupported constructs allowed: {})", c.warnings.join("; "));
        }
    }
    let write = |path: &PathBuf, text: String| {
        std::fs::write(path, text).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
    };
    if let Some(path) = &cli.csv {
        write(path, c.csv());
    }
    if let Some(path) = &cli.json {
        write(path, serde_json::to_string_pretty(&c.json()).expect("comparison serialises"));
    }
    if let Some(path) = &cli.plot {
        c.plot(path).unwrap_or_else(|e| fail(format!("{e:#}")));
    }
    if let Some(path) = &cli.html {
        // the plot goes into the page: drawn to a scratch file, read back
        let svg = info_path.with_file_name("compare-plot.svg");
        c.plot(&svg).unwrap_or_else(|e| fail(format!("{e:#}")));
        let svg = std::fs::read_to_string(&svg).unwrap_or_else(|e| fail(format!("{}: {e}", svg.display())));
        let base = std::env::current_dir().unwrap_or_else(|e| fail(format!("the current directory: {e}")));
        let page = tsoify::html::compare_page(&cli.program, &c, Some(&svg), &ProgramInfo::read(info_path), &base);
        write(path, page);
    }
    c.exit_code()
}

/// mimalloc v3's `mi_option_purge_delay` (the crate names only older
/// options; the number is its place in mimalloc.h's `mi_option_e`), and
/// its default there: an option found with another value is not it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
const MI_PURGE_DELAY_DEFAULT: std::ffi::c_long = 1000;

fn main() {
    // Freed memory stays ours: purged pages (a while after they were freed) came
    // back as fresh transparent huge pages the kernel zeroed, 2 MiB at a
    // time, as the wakeup trees grew and shrank: 5% of a lastzero run's
    // time. The search's peak is what it keeps anyway.
    unsafe {
        if libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) == MI_PURGE_DELAY_DEFAULT {
            libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        }
    }
    // behave like a Unix tool when the reader of our output goes away (| head)
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let mut cli: Cli = tsoify::cli::parse();
    let keep = tempfile::Builder::new().prefix("verify-").tempdir().unwrap_or_else(|e| fail(e));
    let _ = WORKDIR.set(keep.path().to_path_buf());
    // --svcomp: what to check, decided before anything is built
    let setup = cli.svcomp.then(|| {
        svcomp::Setup::new(&cli.program, cli.property.as_deref(), cli.build.data_model).unwrap_or_else(|e| fail(format!("{e:#}")))
    });
    if let Some(setup) = &setup {
        if let Some(reason) = setup.property.kind.unsupported_reason() {
            println!("{reason}");
            println!("{}", svcomp::Answer::Unknown.line());
            let verdict = report::Verdict { verdict: "UNKNOWN", reason };
            write_sarif(&cli, &verdict, None, &ProgramInfo::default(), 0, &[], exit::UNKNOWN);
            write_html(&cli, &verdict, None, &ProgramInfo::default(), &[]);
            finish(exit::UNKNOWN);
        }
    }
    if let Some(setup) = &setup {
        // the task's data model is what the program is built for
        cli.build.data_model = Some(setup.data_model);
    }
    let source = match &setup {
        Some(s) => s.program.clone(),
        None => svcomp::Setup::program_of(&cli.program).unwrap_or_else(|e| fail(format!("{e:#}"))).0,
    };
    if cli.infer_fences {
        let code = infer_fences(&cli, &source, &keep);
        drop(keep);
        finish(code);
    }
    let (program, warnings) = executable(&cli, &source, &keep);
    let program = if program.is_relative() && program.parent() == Some(Path::new("")) {
        PathBuf::from(".").join(program)
    } else {
        program
    };
    let info_path = keep.path().join("info.json");
    if cli.compare {
        let code = compare(&cli, &program, &info_path, warnings);
        drop(keep);
        finish(code);
    }
    let model = cli.model.unwrap_or(1);
    let no_data_race = setup.as_ref().is_some_and(|s| s.property.kind == svcomp::PropertyKind::NoDataRace);
    let cfg = search_config(&cli, model, no_data_race);
    let bar = (!cli.quiet && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}").unwrap());
        b
    });
    let result = explore::explore(&program, &cli.args, &info_path, &cfg, |s, phase| {
        if let Some(b) = &bar {
            let phase = phase.map(|p| format!("{p}: ")).unwrap_or_default();
            b.set_message(format!("{phase}{} executions, {:.0}/s", s.executions, s.executions as f64 / s.seconds.max(1e-9)));
            b.tick();
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let x = result.unwrap_or_else(|e| fail(e));
    let mut verdict = if cli.robustness { report::robustness_verdict(&x) } else { report::verdict(&x) };
    // (--outcomes goes on after violations: its list may be partial)
    let incomplete = report::incomplete_reasons(&x);
    if !warnings.is_empty() {
        verdict.reason = format!("{} (unsupported constructs allowed: {})", verdict.reason, warnings.join("; ")).trim().to_string();
    }
    let info = ProgramInfo::read(&info_path);
    // with --robustness the execution shown is the one that is not SC-equivalent
    let shown = if cli.robustness { x.not_robust.as_ref().map(|(_, events)| report::as_violation(events)) } else { x.violation.clone() };
    let steps = shown.as_ref().map(|v| report::trace_steps(v, &info));

    println!("{}", verdict.line());
    // ", buffer size K" after the model's name (SC has no buffers)
    let buffers = if model == 0 {
        String::new()
    } else if cli.buffer_size == 0 {
        ", unbounded buffers".to_string()
    } else {
        format!(", buffer size {}", cli.buffer_size)
    };
    if !cli.quiet {
        if let (Some((r, events)), Some(steps)) = (&x.not_robust, &steps) {
            println!("  {}", report::reordering_text(r, events, &info));
            println!("\nexecution that no SC execution matches ({} under {}{}):", cli.program.display(), build::model_name(model).to_uppercase(), buffers);
            print!("{}", report::format_trace(steps));
        } else if let (Some(v), Some(steps)) = (&x.violation, &steps) {
            println!("  {}", report::violation_text(v));
            println!("\ncounterexample ({} under {}{}):", cli.program.display(), build::model_name(model).to_uppercase(), buffers);
            print!("{}", report::format_trace(steps));
            if v.events_truncated {
                println!("  (trace truncated)");
            }
        }
        if cli.outcomes {
            println!("\noutcomes ({}):", x.outcomes.len());
            for (o, (n, bad)) in &x.outcomes {
                let mark = if *bad > 0 { format!("  ({bad} violating)") } else { String::new() };
                println!("  {o}   [{n} executions]{mark}");
            }
            if !incomplete.is_empty() {
                println!("  (not every execution was explored, so there may be more: {})", incomplete.join("; "));
            }
        }
        print_races(&cli, &x, &info, &verdict);
        let s = &x.stats;
        if s.events_truncated > 0 {
            println!("\nnote: {} execution(s) overflowed the event log; the reduction explored them in full", s.events_truncated);
        }
        println!(
            "\nstatistics: {} executions ({} discarded by assume or await, {} sleep-blocked), {:.3} s, {:.1} us/execution, por {}, model {}{}",
            s.executions,
            s.assume_blocked,
            s.sleep_blocked,
            s.seconds,
            s.seconds * 1e6 / s.executions.max(1) as f64,
            x.por.name(),
            build::model_name(model),
            buffers
        );
        if let Some(u) = &x.unbounded {
            println!("unbounded first: {}", u.note(cli.buffer_size));
        }
        // (asked for, or they found the violation; --stats lists them too)
        if s.probes > 0 && (cli.probes || cli.stats || s.found_by_probe) {
            let by = if s.found_by_probe { "; the violation is from the last of them" } else { "" };
            println!("probes: {} executions by random priorities or by turns beside the search{by}", s.probes);
        }
    }
    if cli.stats {
        let none = (cfg.por != explore::Por::None).then(|| {
            // without a time limit of the user's, the unreduced search (which
            // may take hours where the reduction took a second) gets
            // NONE_STATS_SECONDS, or ten times the reduced search's time
            let limit = cfg.timeout.unwrap_or_else(|| std::time::Duration::from_secs_f64((10.0 * x.stats.seconds).max(NONE_STATS_SECONDS)));
            let cfg = Config { por: explore::Por::None, all: true, timeout: Some(limit), ..cfg.clone() };
            explore::explore(&program, &cli.args, &info_path, &cfg, |_, _| {}).unwrap_or_else(|e| fail(e)).stats
        });
        print!("{}", report::stats_text(&x.stats, x.por, none.as_ref()));
    }
    if let (Some(path), Some(steps)) = (&cli.trace_json, &steps) {
        let text = serde_json::to_string_pretty(steps).expect("trace serialises");
        std::fs::write(path, text).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
    }
    if let Some(path) = &cli.json {
        let summary = Summary {
            verdict: verdict.verdict,
            reason: &verdict.reason,
            model: build::model_name(model),
            buffer_size: cli.buffer_size,
            executions: x.stats.executions,
            complete: x.stats.complete(),
            assume_blocked: x.stats.assume_blocked,
            sleep_blocked: x.stats.sleep_blocked,
            seconds: x.stats.seconds,
            por: x.por.name(),
            outcomes: x.outcomes.iter().map(|(o, (n, b))| OutcomeRow { outcome: o, executions: *n, violations: *b }).collect(),
            incomplete,
            races: x.races.iter().map(|r| race_row(r, &info)).collect(),
            warnings: &warnings,
            unbounded_first: x.unbounded.as_ref().map(|u| UnboundedFirstRow { run: u, note: u.note(cli.buffer_size) }),
        };
        std::fs::write(path, serde_json::to_string_pretty(&summary).expect("summary serialises"))
            .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
    }
    let mut code = verdict.exit_code();
    if let Some(setup) = &setup {
        let answer = svcomp::answer(&verdict, !warnings.is_empty());
        if answer == svcomp::Answer::False {
            let path = cli.witness.clone().unwrap_or_else(|| PathBuf::from("witness.yml"));
            let written = match (&x.violation, x.races.first()) {
                (Some(v), _) => write_witness(setup, Found::Violation(v), &info, model, cli.buffer_size, &path),
                (None, Some(r)) => write_witness(setup, Found::Race(&r.race), &info, model, cli.buffer_size, &path),
                (None, None) => Err("no violation to describe".into()),
            };
            match written {
                Ok(()) => println!("witness: {}", path.display()),
                Err(e) => println!("no witness: {e}"),
            }
        }
        println!("{}", answer.line_for(&setup.property.kind));
        code = answer.exit_code();
    }
    if cli.sarif.is_some() {
        let races_seen = if x.races_violate { 0 } else { x.races.len() };
        write_sarif(&cli, &verdict, tsoify::sarif::finding(&x, cli.robustness), &info, races_seen, &warnings, code);
    }
    write_html(&cli, &verdict, Some(&x), &info, &warnings);
    drop(keep);
    finish(code);
}

/// `--sarif FILE`: the answer as a SARIF log (driver/src/sarif.rs).
fn write_sarif(cli: &Cli, verdict: &report::Verdict, found: Option<tsoify::sarif::Finding>, info: &ProgramInfo, races_seen: usize, warnings: &[String], code: i32) {
    use tsoify::sarif;
    let Some(path) = &cli.sarif else { return };
    let ctx = sarif::Context {
        program: &cli.program,
        model: cli.model.unwrap_or(1),
        bound: cli.buffer_size,
        arguments: std::env::args().skip(1).collect(),
        working_directory: std::env::current_dir().unwrap_or_else(|e| fail(format!("the current directory: {e}"))),
        exit_code: code,
        warnings,
    };
    let log = sarif::log(&ctx, verdict, found, info, races_seen);
    std::fs::write(path, serde_json::to_string_pretty(&log).expect("SARIF serialises")).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
}

/// `--html FILE`: the answer as a page (driver/src/html.rs).
fn write_html(cli: &Cli, verdict: &report::Verdict, x: Option<&explore::Exploration>, info: &ProgramInfo, warnings: &[String]) {
    use tsoify::html;
    let Some(path) = &cli.html else { return };
    let ctx = html::Context {
        program: &cli.program,
        model: cli.model.unwrap_or(1),
        bound: cli.buffer_size,
        working_directory: std::env::current_dir().unwrap_or_else(|e| fail(format!("the current directory: {e}"))),
        warnings,
    };
    let page = html::verdict_page(&ctx, verdict, x, cli.robustness, info);
    std::fs::write(path, page).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
}

/// The races a report shows: with --races (or when a race is the
/// violation) every pair and the execution of the first, else one line.
fn print_races(cli: &Cli, x: &explore::Exploration, info: &ProgramInfo, verdict: &report::Verdict) {
    let Some(first) = x.races.first() else {
        if cli.races == Some(RacesMode::Show) && verdict.verdict != "UNKNOWN" {
            println!("\nno data race in any execution explored");
        } else if cli.races == Some(RacesMode::Show) {
            println!("\nno data race in the executions explored (the search was not complete)");
        }
        return;
    };
    let n = x.races.len();
    if cli.races.is_none() && !x.races_violate {
        println!("\n{n} data race{} seen, the first: {}", if n == 1 { "" } else { "s" }, report::race_text(&first.race, None, info));
        println!("  (verify --races lists {} with the execution that shows {})", if n == 1 { "it" } else { "them" }, if n == 1 { "it" } else { "the first" });
        return;
    }
    println!("\ndata races ({n}, one per pair of program locations):");
    for r in &x.races {
        let events = (r.execution == first.execution).then_some(first.events.as_deref()).flatten();
        println!("  {}", report::race_text(&r.race, events, info));
    }
    if let Some(events) = &first.events {
        let steps = report::trace_steps(&report::as_violation(events), info);
        println!("\nexecution {} (it shows the first race at steps {} and {}):", first.execution, report::step_number(events, first.race.first.event), report::step_number(events, first.race.second.event));
        print!("{}", report::format_trace(&steps));
    }
}

fn race_row(r: &explore::FoundRace, info: &ProgramInfo) -> RaceRow {
    let side = |a: &tsoify::races::Access| RaceAccess { thread: a.thread, location: info.position(a.loc), write: a.write, atomic: a.atomic };
    RaceRow {
        variable: info.name_of(r.race.second.addr, r.race.second.size, r.race.second.loc),
        accesses: [side(&r.race.first), side(&r.race.second)],
        execution: r.execution,
    }
}

/// What `verify --svcomp` found: a violation, or (no-data-race) a race.
enum Found<'a> {
    Violation(&'a explore::Violation),
    Race(&'a tsoify::races::Race),
}

/// `verify --svcomp`: the violation witness for what was found, written to
/// `path` (for a race, the final segment's two target waypoints name the
/// racing accesses).
fn write_witness(setup: &svcomp::Setup, found: Found, info: &ProgramInfo, model: u32, bound: u32, path: &Path) -> Result<(), String> {
    let input = (setup.program.display().to_string(), setup.program.as_path());
    let ctx = svcomp::WitnessContext {
        input_file: input.clone(),
        specification: &setup.property.text,
        data_model: setup.data_model,
        model: build::model_name(model),
        bound,
    };
    let text = match found {
        Found::Violation(v) => svcomp::violation_witness(&ctx, svcomp::nondet_waypoints(v, info, &input), svcomp::target_location(v, info, &input)?),
        Found::Race(race) => {
            let [a, b] = [race.first.loc, race.second.loc].map(|l| svcomp::location_of(l, info, &input).map_err(|e| format!("the racing access {e}")));
            svcomp::race_witness(&ctx, [a?, b?])
        }
    }
    .map_err(|e| format!("{e:#}"))?;
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
