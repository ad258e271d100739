//! Await blocking is checked against plain exploration: a thread whose loop
//! iteration only read values and goes round again is stopped for the rest
//! of the execution (the default), or with `--await-wake` blocked until one
//! changes (runtime/src/await.c). Without blocking (`--no-await`) the same spin loops
//! run iteration after iteration, bounded by `--unroll`; the outcomes of the
//! executions that finish must be the same set either way, under SC, TSO and
//! PSO, with every reduction. The reference is exhaustive search where that
//! is affordable, source DPOR (itself checked against exhaustive search in
//! por.rs) where it is not.

mod common;
use common::*;

fn outcome_set(prog: &std::path::Path, model: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["--outcomes", "--model", model];
    args.extend_from_slice(extra);
    let (_, s) = verify_json(prog, &args);
    outcomes(&s)
}

/// (program, --unroll of the reference, --por of the reference)
const PROGRAMS: &[(&str, &str, &str)] = &[
    ("mp-spin", "2", "none"),
    ("two-waits", "2", "none"),
    ("own-buffer", "2", "none"),
    ("atomic-wait", "2", "none"),
    ("carried-local", "2", "none"),
    ("private-path", "3", "none"),
    ("private-spoil", "3", "none"),
    ("tas-lock", "3", "source"),
    ("cas-lock", "3", "source"),
    ("dekker-backoff", "3", "source"),
];

#[test]
fn await_blocking_reaches_the_outcomes_of_plain_spinning() {
    let dir = tempfile::tempdir().unwrap();
    for &(name, unroll, reference_por) in PROGRAMS {
        let prog = build(&repo().join("tests/programs/await").join(format!("{name}.c")), dir.path());
        for model in ["sc", "tso", "pso"] {
            let reference = outcome_set(&prog, model, &["--no-await", "--unroll", unroll, "--por", reference_por]);
            assert!(!reference.is_empty(), "{name} under {model}: no outcomes without await");
            for por in ["none", "source", "optimal"] {
                if por == "none" && reference_por != "none" {
                    continue; // spinning without blocking is too big to enumerate there
                }
                assert_eq!(outcome_set(&prog, model, &["--por", por]), reference, "{name} under {model}, --por {por}");
                assert_eq!(outcome_set(&prog, model, &["--por", por, "--await-wake"]), reference, "{name} under {model}, --por {por} --await-wake");
            }
        }
    }
}

/// A failing await iteration stops its thread (GenMC's spin-assume) where
/// --await-wake would wake it when what it read changes: the same outcomes
/// (above) from fewer executions; the executions that end with a stopped
/// thread whose view changed are discarded and counted as such (the others
/// complete); --await-wake discards none.
#[test]
fn a_failing_await_iteration_stops_its_thread() {
    let dir = tempfile::tempdir().unwrap();
    for (name, model) in [("dekker-backoff", "pso"), ("two-waits", "pso"), ("cas-lock", "tso"), ("tas-lock", "sc")] {
        let prog = build(&repo().join("tests/programs/await").join(format!("{name}.c")), dir.path());
        let (code, stop) = verify_json(&prog, &["--model", model]);
        assert_eq!(code, 0, "{name} under {model}: {stop}");
        let (code, wake) = verify_json(&prog, &["--model", model, "--await-wake"]);
        assert_eq!(code, 0, "{name} under {model} --await-wake: {wake}");
        let n = |s: &serde_json::Value, k: &str| s[k].as_u64().unwrap();
        assert!(n(&stop, "executions") < n(&wake, "executions"), "{name} under {model}: {} executions stopping, {} waking", n(&stop, "executions"), n(&wake, "executions"));
        assert!(n(&stop, "assume_blocked") > 0 && n(&stop, "complete") > 0, "{name} under {model}: {stop}");
        assert_eq!(n(&wake, "assume_blocked"), 0, "{name} under {model}: {wake}");
    }
}

/// An iteration whose compare-exchange wrote a new value is no side-effect
/// free step: it does not stop its thread (which would end the execution
/// with a view the thread changed itself, discarded: SAFE over no
/// execution, as 3f573e0 answered on GenMC's saver/spin-2cas). The loop
/// spins forever once its exchanges write what they read: a livelock,
/// under every model, also with --await-wake.
#[test]
fn an_iteration_that_writes_a_new_value_does_not_stop() {
    let prog = repo().join("tests/programs/await/cas-write-livelock.c");
    for model in ["sc", "tso", "pso"] {
        for extra in [&[][..], &["--await-wake"][..]] {
            let mut args = vec!["--model", model];
            args.extend_from_slice(extra);
            args.push(prog.to_str().unwrap());
            let (code, out, _) = run_verify(&args);
            assert_eq!(code, 1, "{model} {extra:?}: {out}");
            assert!(out.starts_with("VIOLATION livelock"), "{model} {extra:?}: {out}");
        }
    }
}

/// The published answers, so that both sides agreeing on a wrong set fails too.
#[test]
fn await_outcomes_are_the_expected_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        ("mp-spin", "sc", &["r=1"]),
        ("mp-spin", "tso", &["r=1"]),
        ("mp-spin", "pso", &["r=0", "r=1"]),
        ("atomic-wait", "tso", &["got=7"]),
        ("atomic-wait", "pso", &["got=0", "got=7"]),
        ("carried-local", "tso", &["seen=1"]),
        ("carried-local", "pso", &["seen=0", "seen=1"]),
        ("dekker-backoff", "sc", &["both=0"]),
        ("dekker-backoff", "tso", &["both=0", "both=1"]),
        ("own-buffer", "tso", &["r=2 x=2"]),
        ("private-path", "tso", &["got=1,2"]),
        ("private-path", "pso", &["got=0,0", "got=0,2", "got=1,0", "got=1,2"]),
        ("private-spoil", "sc", &["left=1"]),
        ("private-spoil", "pso", &["left=1"]),
        ("tas-lock", "tso", &["count=2 peek=0", "count=2 peek=1", "count=2 peek=2"]),
    ];
    for &(name, model, want) in cases {
        let prog = build(&repo().join("tests/programs/await").join(format!("{name}.c")), dir.path());
        assert_eq!(outcome_set(&prog, model, &[]), want, "{name} under {model}");
    }
}

/// A loop whose carried local changes every iteration never blocks: each
/// iteration differs from the one before (blocking after the first would
/// lose count=2).
#[test]
fn a_loop_that_changes_its_locals_is_not_blocked() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/await/carried-counter.c"), dir.path());
    for model in ["sc", "tso", "pso"] {
        let want = ["count=0", "count=1", "count=2"];
        assert_eq!(outcome_set(&prog, model, &["--unroll", "4", "--no-await"]), want, "{model} without await");
        assert_eq!(outcome_set(&prog, model, &["--unroll", "4"]), want, "{model} with await");
    }
}

/// Without blocking, a spin loop never ends within a small step limit; with
/// it, the search is complete and SAFE, and the trace shows the wake-up.
#[test]
fn a_spin_loop_ends_and_the_trace_shows_the_wait() {
    let prog = repo().join("tests/programs/await/mp-spin.c");
    let (code, out, _) = run_verify(&["--model", "tso", prog.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("SAFE"), "{out}");
    let (code, out, _) = run_verify(&["--model", "tso", "--no-await", "--max-steps", "200", prog.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("step limit"), "{out}");
    // under PSO the data may be missed: the counterexample shows the
    // consumer reading the flag once it reached memory (its failing
    // iterations stop it, so the trace has only the one that succeeds);
    // with --await-wake it shows the consumer waking up then
    let bad = repo().join("tests/programs/await/mp-spin-assert.c");
    let (code, out, _) = run_verify(&["--model", "pso", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("flush flag = 1") && out.contains("load flag -> 1"), "{out}");
    assert!(!out.contains("await wakes"), "{out}");
    let (code, out, _) = run_verify(&["--model", "pso", "--await-wake", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("await wakes: flag is now 1"), "{out}");
}

/// A spin loop whose other path writes a private array (sv-benchmarks
/// ring_2w1r-2) blocks on the path that only spins: the search is complete
/// within a small step limit. Before, a private store anywhere in the loop
/// made it no await candidate, and every execution in which the consumer ran
/// first spun to the limit (UNKNOWN).
#[test]
fn a_spin_path_blocks_though_another_path_writes_private_memory() {
    let prog = repo().join("tests/programs/await/private-path.c");
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source", "optimal"] {
            let (code, out, _) = run_verify(&["--model", model, "--por", por, "--max-steps", "500", prog.to_str().unwrap()]);
            assert_eq!(code, 0, "{model} {por}: {out}");
            assert!(out.starts_with("SAFE"), "{model} {por}: {out}");
        }
    }
}

/// A loop that retries until a nondet choice lets it out (SV-COMP
/// pthread-atomic/qrcu: `while (1) { i = idx; if (nondet()) break; }`):
/// an iteration that read and drew a value that keeps it in stops its
/// thread as a spin's does, since the draws that let it out are explored
/// beside it (a _Bool and a wide int, nondet-retry.c). The outcomes are
/// those of plain spinning under every model and reduction, and the search
/// ends. Before, a draw spoiled the iteration and the loop ran to the
/// limits (qrcu-1: UNKNOWN).
#[test]
fn a_retry_on_a_nondet_choice_stops_like_a_spin() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/await/nondet-retry.c"), dir.path());
    for model in ["sc", "tso", "pso"] {
        let reference = outcome_set(&prog, model, &["--no-await", "--unroll", "2", "--por", "source"]);
        assert!(reference.len() >= 9, "{model}: {reference:?}");
        for por in ["source", "optimal"] {
            let (code, s) = verify_json(&prog, &["--outcomes", "--model", model, "--por", por]);
            assert_eq!(code, 0, "{model}, --por {por}: {s}");
            assert_eq!(outcomes(&s), reference, "{model}, --por {por}");
            assert!(s["assume_blocked"].as_u64().unwrap() > 0, "{model}, --por {por}: {s}");
        }
    }
}
