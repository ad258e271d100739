//! Bug-first probes (on by default, `verify --no-probes` turns them off;
//! explore/probes.rs `Probes`): executions
//! by random thread priorities beside the depth-first search, which find a
//! violation that needs one thread to run after twenty others long before
//! the search would, and change nothing in the search itself.

mod common;
use common::*;

fn program() -> String {
    repo().join("tests/programs/probes/last-of-many.c").display().to_string()
}

fn executions(out: &str) -> u64 {
    let s = out.split("statistics: ").nth(1).unwrap_or_else(|| panic!("no statistics: {out}"));
    s.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn a_probe_finds_the_thread_that_must_run_last() {
    // the search alone: nowhere near it after thousands of executions
    let (code, out, err) = run_verify(&["--model", "sc", "--no-probes", "--max-executions", "3000", &program()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.starts_with("UNKNOWN"), "{out}");
    let (code, out, err) = run_verify(&["--model", "sc", "--probes", &program()]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("VIOLATION"), "{out}");
    assert!(out.contains("assertion `x < N' failed"), "{out}");
    assert!(out.contains("the violation is from the last of them"), "{out}");
    assert!(executions(&out) < 3000, "{out}");
}

/// A probe is not one of the search's executions: a SAFE program costs the
/// same executions with probes, under every model and reduction, and the
/// probes are counted apart.
#[test]
fn probes_change_nothing_in_the_search() {
    let p = program();
    for model in ["sc", "tso", "pso"] {
        for por in ["optimal", "source"] {
            let plain = ["--model", model, "--por", por, "-DN=3", "-DSAFE", &p];
            let without: Vec<&str> = plain.iter().copied().chain(["--no-probes"]).collect();
            let (code, out, err) = run_verify(&without);
            assert_eq!(code, 0, "{model} {por}: {out}{err}");
            assert!(!out.contains("probes:"), "{model} {por}: {out}");
            // (on by default; --probes also prints how many ran)
            let (code, quiet, err) = run_verify(&plain);
            assert_eq!(code, 0, "{model} {por}: {quiet}{err}");
            assert!(!quiet.contains("probes:"), "{model} {por}: only asked for or finding, a probe is mentioned: {quiet}");
            assert_eq!(executions(&quiet), executions(&out), "{model} {por}: {out}\n{quiet}");
            let with: Vec<&str> = plain.iter().copied().chain(["--probes"]).collect();
            let (code, probed, err) = run_verify(&with);
            assert_eq!(code, 0, "{model} {por} with probes: {probed}{err}");
            assert!(probed.starts_with("SAFE"), "{model} {por}: {probed}");
            let n = executions(&out);
            assert_eq!(executions(&probed), n, "{model} {por}: {out}\n{probed}");
            let line = probed.lines().find(|l| l.starts_with("probes: ")).unwrap_or_else(|| panic!("{probed}"));
            let probes: u64 = line["probes: ".len()..].split_whitespace().next().unwrap().parse().unwrap();
            assert_eq!(probes, (n - 1) / 8, "{model} {por}: {line} after {n} executions");
        }
    }
}

/// TSO and PSO as fast as SC: half of the PCT probes run every flush
/// process that is not demoted before any thread (runtime/src/choice.c
/// `flush_first`), so they behave as under SC where no change point says
/// otherwise. With flushes drawn like threads, each incrementer's store had
/// to win its draw against the next incrementer's load: 15,768 executions
/// under TSO and 11,944 under PSO, against 896 under SC.
#[test]
fn a_probe_finds_it_under_tso_and_pso() {
    for model in ["tso", "pso"] {
        let (code, out, err) = run_verify(&["--model", model, "--probes", &program()]);
        assert_eq!(code, 1, "{model}: {out}{err}");
        assert!(out.contains("the violation is from the last of them"), "{model}: {out}");
        assert!(executions(&out) < 3000, "{model}: {out}");
    }
}

/// Two threads updating in turns, the checker created last
/// (tests/programs/probes/turns.c): the search alone is nowhere near the
/// violation after thousands of executions, a rotation probe (threads by
/// turns of three steps, the checker held back) finds it in the first few
/// hundred, under every model.
#[test]
fn a_rotation_probe_finds_the_most_alternating_schedule() {
    let p = repo().join("tests/programs/probes/turns.c").display().to_string();
    for model in ["sc", "tso", "pso"] {
        let (code, out, err) = run_verify(&["--model", model, "--no-probes", "--max-executions", "3000", &p]);
        assert_eq!(code, 2, "{model}: {out}{err}");
        assert!(out.starts_with("UNKNOWN"), "{model}: {out}");
        // (probes are on by default)
        let (code, out, err) = run_verify(&["--model", model, &p]);
        assert_eq!(code, 1, "{model}: {out}{err}");
        assert!(out.contains("the violation is from the last of them"), "{model}: {out}");
        assert!(executions(&out) < 1000, "{model}: {out}");
        // the trace shows the turns: the counters grow as Fibonacci numbers,
        // and the checker reads the last of them
        assert!(out.contains(" = 89 ") && out.contains(" = 144 "), "{model}: {out}");
        assert!(out.contains("T3      turns.c:28  load a -> 144") || out.contains("T3      turns.c:28  load b -> 144"), "{model}: {out}");
    }
}

/// A bug that needs a nondet value other than the search's first (0) in
/// a thread the depth-first search reorders last
/// (tests/programs/probes/nondet-reset.c): the search alone has not found
/// it after thousands of executions; a probe draws the value and finds it
/// in a few hundred, and the trace shows the value drawn.
#[test]
fn a_probe_draws_the_nondet_values_the_search_has_not_pinned() {
    let p = repo().join("tests/programs/probes/nondet-reset.c").display().to_string();
    let (code, out, err) = run_verify(&["--model", "sc", "--no-probes", "--max-executions", "3000", &p]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.starts_with("UNKNOWN"), "{out}");
    let (code, out, err) = run_verify(&["--model", "sc", &p]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("assertion `g0 == 1 && g1 == 1' failed"), "{out}");
    assert!(out.contains("the violation is from the last of them"), "{out}");
    assert!(executions(&out) < 1000, "{out}");
    // the failing thread cleared: its nondet value was not 0
    let drawn: Vec<&str> = out.lines().filter_map(|l| l.split("nondet -> ").nth(1)).map(|v| v.split_whitespace().next().unwrap_or("")).collect();
    assert!(drawn.iter().any(|v| *v != "0"), "{out}");
}
