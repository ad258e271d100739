//! Data races (driver/src/races.rs): which programs race, under every model
//! and reduction; what a report says about them; races as the property.

mod common;
use common::*;
use std::path::PathBuf;

/// tests/programs/races: (program, the racing pair as the report names it,
/// or None when the program is race-free).
const PROGRAMS: &[(&str, Option<(&str, &str, &str)>)] = &[
    ("plain-flag", Some(("flag", "T0 read (plain) at plain-flag.c:9", "T1 write (plain) at plain-flag.c:5"))),
    ("relaxed-flag", Some(("data", "T1 write (plain) at relaxed-flag.c:7", "T0 read (plain) at relaxed-flag.c:11"))),
    ("memcpy", Some(("buf[3]", "T0 write (plain) at memcpy.c:11", "T1 write (plain) at memcpy.c:7"))),
    ("atomic-block", Some(("x", "T0 read (plain) at atomic-block.c:12", "T1 write (in an atomic block) at atomic-block.c:7"))),
    ("release-sequence-broken", Some(("data", "T1 write (plain) at release-sequence-broken.c:9", "T0 read (plain) at release-sequence-broken.c:20"))),
    ("late-plain", Some(("x", "T1 write (plain) at late-plain.c:13", "T2 write (plain) at late-plain.c:13"))),
    ("locked", None),
    ("release-sequence", None),
    ("release-acquire", None),
    ("fences", None),
    ("relaxed-atomics", None),
    ("atomic-blocks", None),
    ("join", None),
];

fn built(name: &str, dir: &std::path::Path) -> PathBuf {
    build(&repo().join("tests/programs/races").join(format!("{name}.c")), dir)
}

#[test]
fn races_are_found_exactly_where_happens_before_leaves_accesses_unordered() {
    let dir = tempfile::tempdir().unwrap();
    for (name, race) in PROGRAMS {
        let prog = built(name, dir.path());
        for model in ["sc", "tso", "pso"] {
            for por in ["none", "source", "optimal"] {
                let (code, out, err) = run_verify(&["--model", model, "--por", por, "--races=violation", prog.to_str().unwrap()]);
                let what = format!("{name} under {model}, --por {por}");
                match race {
                    Some((var, a, b)) => {
                        assert_eq!(code, 1, "{what}: {out}{err}");
                        assert!(out.starts_with("VIOLATION data race"), "{what}: {out}");
                        // the pair may be found in either order
                        let line = out.lines().find(|l| l.contains(&format!("data race on {var}: "))).unwrap_or_else(|| panic!("{what}: no race on {var}: {out}"));
                        assert!(line.contains(a) && line.contains(b), "{what}: {line}");
                    }
                    None => assert_eq!((code, out.lines().next().unwrap_or("")), (0, "SAFE"), "{what}: {out}{err}"),
                }
            }
        }
    }
}

/// Executions without a plain access are not checked (races.rs): the race
/// found later is checked against the last execution that was.
#[test]
fn a_race_after_executions_of_atomics_only_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let prog = built("late-plain", dir.path());
    for model in ["sc", "tso", "pso"] {
        let (code, out, err) = run_verify(&["--model", model, "--races", prog.to_str().unwrap()]);
        assert_eq!(code, 0, "{model}: {out}{err}");
        // the first executions run the writers before the setter: no plain access
        let at = out.lines().find_map(|l| l.strip_prefix("execution ")).and_then(|l| l.split(' ').next()?.parse::<u64>().ok());
        assert!(at.is_some_and(|n| n > 1), "{model}: the race shows in a later execution: {out}");
        assert!(out.contains("data races (1, one per pair of program locations):"), "{model}: {out}");
    }
}

/// With `--races` (show) the check runs on its own thread, in batches of
/// executions (race_thread.rs); with `--races=violation` it runs in line and
/// the search stops at the first race. Both must name the same execution
/// for it: here the 385th, many batches in, and both racing pairs.
#[test]
fn races_checked_beside_the_search_are_those_checked_in_line() {
    let dir = tempfile::tempdir().unwrap();
    let prog = built("late-race", dir.path());
    let first_at = |out: &str| out.lines().find_map(|l| l.strip_prefix("execution ")).and_then(|l| l.split(' ').next()?.parse::<u64>().ok());
    for model in ["sc", "tso", "pso"] {
        for por in ["optimal", "source"] {
            let what = format!("late-race under {model}, --por {por}");
            let (code, shown, err) = run_verify(&["--model", model, "--por", por, "--races", prog.to_str().unwrap()]);
            assert_eq!(code, 0, "{what}: {shown}{err}");
            assert!(shown.contains("data races (2, one per pair of program locations):"), "{what}: {shown}");
            assert!(shown.contains("data race on y: ") && shown.contains("data race on z: "), "{what}: {shown}");
            let (code, stopped, err) = run_verify(&["--model", model, "--por", por, "--races=violation", prog.to_str().unwrap()]);
            assert_eq!(code, 1, "{what}: {stopped}{err}");
            let at = first_at(&stopped);
            assert!(at.is_some_and(|n| n > 100), "{what}: the first race shows late: {stopped}");
            assert_eq!(first_at(&shown), at, "{what}: the same first execution with a race: {shown}\n{stopped}");
            let statistics = stopped.lines().find(|l| l.starts_with("statistics: ")).unwrap_or_default();
            assert!(statistics.starts_with(&format!("statistics: {} executions", at.unwrap())), "{what}: stopped there: {statistics}");
        }
    }
}

#[test]
fn every_report_mentions_races_without_changing_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let prog = built("plain-flag", dir.path());
    let p = prog.to_str().unwrap();
    // the default: one line, the verdict is about assertions
    let (code, out, _) = run_verify(&["--model", "sc", p]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("SAFE\n"), "{out}");
    assert!(out.contains("2 data races seen, the first: data race on flag: "), "{out}");
    assert!(out.contains("verify --races lists them"), "{out}");
    // --races: every pair, with the execution of the first and its steps
    let (code, out, _) = run_verify(&["--model", "sc", "--races", p]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("data races (2, one per pair of program locations):"), "{out}");
    assert!(out.contains("data race on flag: T0 read (plain) at plain-flag.c:9, step 2 and T1 write (plain) at plain-flag.c:5, step 4"), "{out}");
    assert!(out.contains("data race on data: "), "{out}");
    assert!(out.contains("(it shows the first race at steps 2 and 4):"), "{out}");
    assert!(out.contains("load flag -> 0") || out.contains("load flag -> 1"), "the execution is printed: {out}");
    // --races=off: not looked for
    let (code, out, _) = run_verify(&["--model", "sc", "--races=off", p]);
    assert_eq!(code, 0);
    assert!(!out.contains("data race"), "{out}");
    // the JSON summary lists them
    let (code, summary) = verify_json(&prog, &["--model", "sc"]);
    assert_eq!(code, 0);
    let races = summary["races"].as_array().unwrap();
    assert_eq!(races.len(), 2, "{summary}");
    assert_eq!(races[0]["variable"], "flag");
    let locations: Vec<&str> = races[0]["accesses"].as_array().unwrap().iter().map(|a| a["location"].as_str().unwrap()).collect();
    assert_eq!(locations, ["plain-flag.c:9", "plain-flag.c:5"]);
    assert_eq!(races[0]["accesses"][1]["write"], true);
    // a race-free program: --races says none was seen
    let prog = built("release-acquire", dir.path());
    let (code, out, _) = run_verify(&["--races", prog.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("no data race in any execution explored"), "{out}");
}

/// Two threads wait for main's go and then race on x; main's assumption
/// after the go fails (`ASSUME`: 0), or holds (1).
const AFTER_ASSUME: &str = "#include <pthread.h>\n#include <stdatomic.h>\nextern void __VERIFIER_assume(int);\n\
atomic_int go;\nint x;\n\
void *w(void *a) { while (!atomic_load(&go)) {} x = 1; return 0; }\n\
void *r(void *a) { while (!atomic_load(&go)) {} int v = x; (void)v; return 0; }\n\
int main(void) { pthread_t a, b; pthread_create(&a, 0, w, 0); pthread_create(&b, 0, r, 0);\n\
  atomic_store(&go, 1); __VERIFIER_assume(ASSUME); return 0; }\n";

#[test]
fn a_race_after_a_failed_assumption_is_not_reported() {
    // every execution fails main's assumption before either racing access
    // runs: no feasible execution races
    let dir = tempfile::tempdir().unwrap();
    for (assume, expected) in [("0", 0), ("1", 1)] {
        let src = write_c(dir.path(), &format!("after-assume-{assume}.c"), &AFTER_ASSUME.replace("ASSUME", assume));
        for model in ["sc", "tso"] {
            let (code, out, err) = run_verify(&["--model", model, "--races=violation", src.to_str().unwrap()]);
            assert_eq!(code, expected, "assume({assume}) under {model}: {out}{err}");
        }
    }
}
