//! `verify --robustness`: every litmus test and bundled program has its
//! asserted answer under TSO and PSO; a test whose relaxed outcomes include
//! one SC cannot reach must be NOT ROBUST (checked against the outcome sets,
//! not assumed); the fenced mutual-exclusion algorithms of our suite are
//! ROBUST and their plain forms are not; the witness names the reordering.

mod common;
use common::*;

fn robustness(prog: &std::path::Path, model: &str) -> (i32, String) {
    let (code, out, _) = run_verify(&["--robustness", "--model", model, prog.to_str().unwrap()]);
    (code, out)
}

fn answer(prog: &std::path::Path, model: &str) -> bool {
    let (code, out) = robustness(prog, model);
    match code {
        0 => assert!(out.starts_with("ROBUST"), "{out}"),
        1 => assert!(out.starts_with("NOT ROBUST"), "{out}"),
        _ => panic!("{}: exit {code}: {out}", prog.display()),
    }
    code == 0
}

fn outcome_set(prog: &std::path::Path, model: &str) -> Vec<String> {
    let (_, s) = verify_json(prog, &["--outcomes", "--model", model]);
    outcomes(&s)
}

/// (test, robust under TSO, robust under PSO)
const LITMUS: &[(&str, bool, bool)] = &[
    ("SB", false, false),
    ("SB+mfences", true, true),
    ("SB+xchg", true, true),
    ("SB3", false, false),
    ("SB4", false, false),
    ("MP", true, false),
    ("MP+fence", true, true),
    ("MP3", true, false),
    ("LB", true, true),
    ("2+2W", true, false),
    ("R", false, false),
    ("S", true, false),
    ("WRC", true, true),
    ("IRIW", true, true),
    ("n6", false, false),
    ("n6-3", false, false),
    ("CoRR", true, true),
    ("own-read", true, true),
    ("bound3", false, false),
    ("mixed-bytes", true, true),
    ("mixed-overlap", true, true),
    ("mixed-own", false, false),
    ("SB+cas", false, false),
    ("SB+cas+fadd", true, true),
    ("CAS-ring3", true, true),
    ("CAS-ring4", true, true),
];

#[test]
fn litmus_robustness_answers() {
    let dir = tempfile::tempdir().unwrap();
    for &(name, tso, pso) in LITMUS {
        let prog = build(&repo().join("tests/litmus").join(format!("{name}.c")), dir.path());
        let sc = outcome_set(&prog, "sc");
        for (model, want) in [("tso", tso), ("pso", pso)] {
            let robust = answer(&prog, model);
            assert_eq!(robust, want, "{name} under {model}");
            // an outcome SC cannot reach comes from a non-SC execution
            let relaxed = outcome_set(&prog, model);
            if relaxed.iter().any(|o| !sc.contains(o)) {
                assert!(!robust, "{name} under {model} reaches {relaxed:?}, SC only {sc:?}, yet called robust");
            }
        }
    }
}

#[test]
fn bundled_programs_and_fenced_mutexes() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, bool, bool)] = &[
        ("examples/dekker.c", false, false),
        ("examples/message-passing.c", true, false),
        ("sv-comp/tasks/mutex/dekker.c", false, false),
        ("sv-comp/tasks/mutex/peterson.c", false, false),
        ("sv-comp/tasks/mp/mp-flag.c", true, false),
        ("sv-comp/tasks/mutex/dekker-fenced.c", true, true),
        ("sv-comp/tasks/mutex/peterson-fenced.c", true, true),
        ("sv-comp/tasks/mutex/bakery-fenced.c", true, true),
        ("sv-comp/tasks/mutex/burns-fenced.c", true, true),
        ("sv-comp/tasks/mutex/dijkstra-fenced.c", true, true),
        ("sv-comp/tasks/mutex/lamport-fast-fenced.c", true, true),
        ("sv-comp/tasks/mutex/szymanski-fenced.c", true, true),
        ("sv-comp/tasks/mutex/spinlock-fenced.c", true, true),
        ("sv-comp/tasks/mp/mp-flag-fenced.c", true, true),
        // a seqlock reader may see a torn write under PSO and retry: correct, not robust
        ("sv-comp/tasks/lockfree/seqlock-fenced.c", true, false),
    ];
    let verdict = |prog: &std::path::Path, model: &str| run_verify(&["--model", model, prog.to_str().unwrap()]).0;
    for &(path, tso, pso) in cases {
        let prog = build(&repo().join(path), dir.path());
        let sc_safe = verdict(&prog, "sc") == 0;
        for (model, want) in [("tso", tso), ("pso", pso)] {
            let robust = answer(&prog, model);
            assert_eq!(robust, want, "{path} under {model}");
            // a violation SC cannot reach comes from a non-SC execution
            if sc_safe && verdict(&prog, model) == 1 {
                assert!(!robust, "{path} fails only under {model}, yet is called robust");
            }
        }
    }
}

#[test]
fn the_witness_names_the_reordered_store_and_load() {
    let prog = repo().join("tests/litmus/SB.c");
    let (code, out) = robustness(&prog, "tso");
    assert_eq!(code, 1, "{out}");
    let first = out.lines().nth(1).unwrap_or_default();
    assert!(first.contains("store to") && first.contains("was still in its store buffer when its load of"), "{out}");
    assert!(out.contains("execution that no SC execution matches") && out.contains("buffered in T"), "{out}");
    // store-store reordering under PSO: the later store reaches memory first
    let prog = repo().join("tests/litmus/MP.c");
    let (code, out) = robustness(&prog, "pso");
    assert_eq!(code, 1, "{out}");
    assert!(out.lines().nth(1).unwrap_or_default().contains("reached memory"), "{out}");
}
