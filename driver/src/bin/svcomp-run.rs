//! `svcomp-run`: run `verify --svcomp` on every SV-COMP task under a
//! directory, under each memory model, compare with the expected verdicts
//! and print a table and the SV-COMP score per model.

use clap::Parser;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tsoify::svcomp::{self, Answer, Outcome, PropertyKind, Row, Task};

#[derive(Parser, Debug)]
#[command(
    name = "svcomp-run",
    version,
    about = "Run `verify --svcomp` on every SV-COMP task under DIR, under each memory model, and score the answers",
    long_about = "Finds every task definition (*.yml) under DIR that has the property (default unreach-call), runs \
`verify --svcomp --model M --timeout S --property P TASK.yml` for each model M (the verify next to this executable), \
compares the answer with the expected verdict and prints a table (task, model, expected, result, correct?, seconds) \
and per model the SV-COMP score: correct TRUE +2, correct FALSE +1, wrong FALSE -16, wrong TRUE -32, unknown 0.\n\n\
The expected verdict for model M is the task's options.tsoify_expected.M if present; else, for sc, the \
property's expected_verdict (SV-COMP's semantics is sequential consistency); else there is none (`?`, not scored).\n\n\
Answers are also checked against each other: every SC execution is a TSO execution and every TSO execution a PSO \
one, so FALSE under a stronger model with TRUE under a weaker one is a contradiction (printed, and counted as a \
wrong answer) even where no verdict is expected.\n\n\
With --pors, each task runs under each model once per reduction (verify --por), scored apart; TRUE with one \
reduction and FALSE with another under the same model is a contradiction too. `--pors optimal,none` checks the \
default against exhaustive search wherever that answers within the time limit (a run that does not answer \
contradicts nothing).",
    after_help = "EXAMPLES:\n  svcomp-run sv-comp/tasks\n  svcomp-run --models tso --timeout 30 --jobs 2 sv-comp/tasks\n  svcomp-run --pors optimal,none --timeout 30 ~/sv-benchmarks/c\n  svcomp-run --models sc ~/sv-benchmarks/c/pthread\n\n\
EXIT CODES: 0 no wrong answer, 1 at least one wrong answer (with --strict: or an expected answer \
not reached), 3 usage error or no task found."
)]
struct Cli {
    /// Directory searched recursively for task definitions (*.yml); .yml
    /// files that are not task definitions are skipped.
    dir: PathBuf,
    /// Memory models to run each task under, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "sc,tso,pso", value_parser = ["sc", "tso", "pso"])]
    models: Vec<String>,
    /// Reductions to run each task with (verify --por), comma-separated;
    /// by default one run with verify's own default.
    #[arg(long, value_delimiter = ',', value_parser = ["optimal", "source", "none"])]
    pors: Vec<String>,
    /// Seconds of exploration per run (verify --timeout). A run that takes
    /// longer than twice that plus a minute (building included) is killed
    /// and counts as TIMEOUT.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Runs at a time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=MAX_JOBS as u64))]
    jobs: u64,
    /// The property to check: tasks without it are skipped. tsoify answers
    /// unreach-call and no-data-race; others are run and answered UNKNOWN.
    #[arg(long, default_value = "unreach-call", value_parser = ["unreach-call", "no-data-race", "no-overflow", "valid-memsafety", "valid-memcleanup", "termination"])]
    property: String,
    /// The verify executable (default: the one next to this executable).
    #[arg(long, value_name = "PATH")]
    verify: Option<PathBuf>,
    /// Every run with an expected verdict must give it: an UNKNOWN, a
    /// timeout or an error fails too (exit 1). For test suites whose
    /// answers are known to be reachable, e.g. our own sv-comp/tasks.
    #[arg(long)]
    strict: bool,
    /// With --strict: a run allowed not to reach its answer, as TASK:MODEL
    /// (TASK as the table names it, e.g. mutex/filter-fenced:tso); repeatable.
    /// A wrong answer still fails.
    #[arg(long, value_name = "TASK:MODEL", requires = "strict")]
    allow_unknown: Vec<String>,
}

const MAX_JOBS: usize = 256;

/// The process group of the run each worker is waiting for (0: none), so
/// that an interrupt can stop them: each run is a process group of its own
/// (verify and the program it explores), which the terminal's ^C misses.
static RUNNING: [AtomicI32; MAX_JOBS] = [const { AtomicI32::new(0) }; MAX_JOBS];

extern "C" fn interrupted(sig: libc::c_int) {
    for slot in &RUNNING {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
    }
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// One task and the property file to check it against.
struct Job {
    name: String,
    task: PathBuf,
    property: PathBuf,
    expected: Vec<Option<bool>>,
}

fn find_tasks(dir: &Path, kind: &PropertyKind, models: &[String]) -> (Vec<Job>, usize) {
    let mut jobs = vec![];
    let mut skipped = 0;
    let walk = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walk.filter_map(|e| e.ok()) {
        let path = entry.path();
        if !entry.file_type().is_file() || !svcomp::is_task_file(path) {
            continue;
        }
        let Ok(task) = Task::load(path) else {
            skipped += 1;
            continue;
        };
        let Some((prop, _)) = task.find_property(kind) else { continue };
        let rel = path.strip_prefix(dir).unwrap_or(path).with_extension("");
        jobs.push(Job {
            name: rel.display().to_string(),
            task: path.to_path_buf(),
            property: prop.file.clone(),
            expected: models.iter().map(|m| task.expected_verdict(prop, kind, m)).collect(),
        });
    }
    (jobs, skipped)
}

/// One run of verify: a task under one model with one reduction (empty:
/// verify's default); `id` names its scratch files.
struct Run<'a> {
    job: &'a Job,
    model: &'a str,
    por: &'a str,
    id: usize,
}

impl Run<'_> {
    /// How the progress line names it: `task model[ --por X]`.
    fn label(&self) -> String {
        let with = if self.por.is_empty() { String::new() } else { format!(" --por {}", self.por) };
        format!("{} {}{with}", self.job.name, self.model)
    }
}

/// Run verify once; the outcome and the wall-clock seconds.
fn run_one(cli: &Cli, verify: &Path, run: &Run, scratch: &Path, worker: usize) -> (Outcome, f64) {
    let Run { job, model, por, id } = *run;
    let out_path = scratch.join(format!("{id}.out"));
    let err_path = scratch.join(format!("{id}.err"));
    let start = Instant::now();
    let spawned = (|| {
        let mut cmd = Command::new(verify);
        cmd.args(["--svcomp", "--quiet", "--model", model, "--timeout"])
            .arg(cli.timeout.to_string())
            .arg("--property")
            .arg(&job.property)
            .args(if por.is_empty() { vec![] } else { vec!["--por", por] })
            .arg("--witness")
            .arg(scratch.join(format!("{id}.witness.yml")))
            .arg(&job.task)
            // verify's own scratch files go into ours, removed even when a run is killed
            .env("TMPDIR", scratch)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&out_path)?)
            .stderr(std::fs::File::create(&err_path)?);
        // its own process group, so a kill reaches the program it runs too
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.spawn()
    })();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return (Outcome::Error(format!("cannot run {}: {e}", verify.display())), 0.0),
    };
    RUNNING[worker].store(child.id() as i32, Ordering::SeqCst);
    let limit = Duration::from_secs_f64(2.0 * cli.timeout + 60.0);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(Some(status)),
            Ok(None) if start.elapsed() > limit => {
                unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
                let _ = child.wait();
                break Ok(None);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => break Err(e),
        }
    };
    RUNNING[worker].store(0, Ordering::SeqCst);
    let status = match status {
        Ok(s) => s,
        Err(e) => return (Outcome::Error(e.to_string()), start.elapsed().as_secs_f64()),
    };
    let seconds = start.elapsed().as_secs_f64();
    let Some(status) = status else { return (Outcome::Timeout, seconds) };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    match Answer::parse_line(last) {
        Some(a) if status.code() != Some(tsoify::exit::USAGE) => (Outcome::Answer(a), seconds),
        _ => {
            let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
            let why = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no Result line").trim().to_string();
            (Outcome::Error(format!("exit {:?}: {why}", status.code())), seconds)
        }
    }
}

fn main() {
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let cli: Cli = tsoify::cli::parse();
    let kind = PropertyKind::from_name(&cli.property).expect("clap checked the name");
    let verify = cli.verify.clone().unwrap_or_else(|| {
        let me = std::env::current_exe().unwrap_or_default();
        me.parent().map(|d| d.join("verify")).unwrap_or_else(|| PathBuf::from("verify"))
    });
    if !cli.dir.is_dir() {
        eprintln!("svcomp-run: {}: not a directory", cli.dir.display());
        std::process::exit(tsoify::exit::USAGE);
    }
    if !verify.is_file() {
        eprintln!("svcomp-run: {}: no verify executable (build with `cargo build --release`, or pass --verify)", verify.display());
        std::process::exit(tsoify::exit::USAGE);
    }
    let (jobs, skipped) = find_tasks(&cli.dir, &kind, &cli.models);
    if jobs.is_empty() {
        eprintln!("svcomp-run: no task with a {} property under {}", cli.property, cli.dir.display());
        std::process::exit(tsoify::exit::USAGE);
    }
    if skipped > 0 {
        eprintln!("svcomp-run: {skipped} .yml file(s) under {} are not task definitions; skipped", cli.dir.display());
    }
    let scratch = tempfile::Builder::new().prefix("svcomp-run-").tempdir().unwrap_or_else(|e| {
        eprintln!("svcomp-run: {e}");
        std::process::exit(tsoify::exit::USAGE)
    });
    let pors: Vec<String> = if cli.pors.is_empty() { vec![String::new()] } else { cli.pors.clone() };
    let (n_models, n_pors) = (cli.models.len(), pors.len());
    let runs: Vec<(usize, usize, usize)> =
        (0..jobs.len()).flat_map(|j| (0..n_models).flat_map(move |m| (0..n_pors).map(move |p| (j, m, p)))).collect();
    let rows: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; runs.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    unsafe {
        libc::signal(libc::SIGINT, interrupted as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, interrupted as *const () as libc::sighandler_t);
    }
    std::thread::scope(|s| {
        for worker in 0..cli.jobs.min(runs.len() as u64) as usize {
            let (next, done, runs, jobs, rows, cli, verify, scratch, pors) = (&next, &done, &runs, &jobs, &rows, &cli, &verify, &scratch, &pors);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(j, m, p)) = runs.get(i) else { break };
                let run = Run { job: &jobs[j], model: &cli.models[m], por: &pors[p], id: i };
                let (outcome, seconds) = run_one(cli, verify, &run, scratch.path(), worker);
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                let detail = match &outcome {
                    Outcome::Error(why) => format!(" ({why})"),
                    _ => String::new(),
                };
                eprintln!("[{n}/{}] {}: {}{detail} ({seconds:.2} s)", runs.len(), run.label(), outcome.word());
                let row = Row { task: run.job.name.clone(), model: run.model.to_string(), por: run.por.to_string(), expected: run.job.expected[m], outcome, seconds };
                rows.lock().unwrap()[i] = Some(row);
            });
        }
    });
    let rows: Vec<Row> = rows.into_inner().unwrap().into_iter().flatten().collect();
    print!("{}", svcomp::format_table(&rows));
    println!();
    print!("{}", svcomp::format_scores(&rows, &cli.models));
    let mut contradictions = svcomp::model_contradictions(&rows);
    contradictions.extend(svcomp::por_contradictions(&rows));
    for c in &contradictions {
        println!("contradiction: {c}");
    }
    let wrong = rows.iter().filter(|r| r.is_wrong()).count() + contradictions.len();
    if wrong > 0 {
        println!("{wrong} wrong answer(s)");
    }
    let allowed = |r: &svcomp::Row| cli.allow_unknown.iter().any(|a| *a == format!("{}:{}", r.task, r.model));
    let missed = rows.iter().filter(|r| r.expected.is_some() && !r.is_correct() && !r.is_wrong() && !allowed(r)).count();
    if cli.strict && missed > 0 {
        println!("{missed} expected answer(s) not reached (--strict)");
    }
    drop(scratch);
    std::process::exit(if wrong > 0 || (cli.strict && missed > 0) { 1 } else { 0 });
}
