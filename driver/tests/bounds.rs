//! Bounded store buffers are answered from a search with unbounded buffers
//! where that answer carries over (explore/mod.rs `explore`): every execution
//! that holds at most K stores per thread is an unbounded one, so SAFE
//! carries over, and so does a violation whose execution never buffered
//! more than K stores; otherwise the search runs again with the bound.

mod common;
use common::*;

/// The summary's account of the unbounded search (None: there was none).
fn unbounded_first(s: &serde_json::Value) -> Option<(bool, String)> {
    let u = &s["unbounded_first"];
    (!u.is_null()).then(|| (u["carried_over"].as_bool().unwrap(), format!("{} {}", u["verdict"].as_str().unwrap(), u["reason"].as_str().unwrap()).trim().to_string()))
}

/// 16 stores nobody reads: at PSO K = 2 the bounded search explores which
/// entry leaves at each of 14 waits (195,025 executions under optimal);
/// unbounded, one execution answers for every bound.
#[test]
fn safe_with_unbounded_buffers_is_safe_at_every_bound() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/pso-unobserved-stores.c"), dir.path());
    for (model, k) in [("pso", "2"), ("pso", "4"), ("tso", "1")] {
        for por in ["optimal", "source"] {
            let (code, s) = verify_json(&prog, &["--model", model, "--buffer-size", k, "--por", por]);
            assert_eq!(code, 0, "{model} K={k} --por {por}: {s}");
            assert_eq!(s["executions"], 1, "{model} K={k} --por {por}: one execution");
            assert_eq!(unbounded_first(&s), Some((true, "SAFE".into())), "{model} K={k} --por {por}");
        }
    }
    // with the bound from the start, the choices are all there
    let (code, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", "2", "--direct-bound", "--max-executions", "500"]);
    assert_eq!(code, 2, "--direct-bound stops at --max-executions: {s}");
    assert!(unbounded_first(&s).is_none(), "--direct-bound: no unbounded search: {s}");
    // the text says where the answer came from
    let (code, out, err) = run_verify(&["--model", "pso", "--buffer-size", "2", prog.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("unbounded first: SAFE with unbounded buffers, after 1 executions") && out.contains("every execution at buffer size 2 is one of those"), "{out}");
}

/// pso-room-chain needs x[0] buffered while x[4] is stored and read: the
/// unbounded search's counterexample holds all five stores. At K = 8 that
/// is a counterexample; at K = 2 the search runs again with the bound and
/// finds one that holds two (x[0] stays, the others make room); at K = 1
/// there is none.
#[test]
fn violations_carry_over_only_within_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/pso-room-chain.c"), dir.path());
    for por in ["optimal", "source"] {
        let (code, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", "8", "--por", por]);
        assert_eq!(code, 1, "K=8 --por {por}: {s}");
        assert_eq!(unbounded_first(&s), Some((true, "VIOLATION assertion".into())), "K=8 --por {por}");
        let (code, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", "2", "--por", por]);
        assert_eq!(code, 1, "K=2 --por {por}: {s}");
        assert_eq!(unbounded_first(&s), Some((false, "VIOLATION assertion".into())), "K=2 --por {por}");
        let (code, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", "1", "--por", por]);
        assert_eq!(code, 0, "K=1 --por {por}: {s}");
        assert_eq!(unbounded_first(&s), Some((false, "VIOLATION assertion".into())), "K=1 --por {por}");
    }
    let (_, out, _) = run_verify(&["--model", "pso", "--buffer-size", "2", prog.to_str().unwrap()]);
    assert!(out.contains("needing 5 buffered stores in one thread; searched again with buffer size 2"), "{out}");
    assert!(out.contains("buffered in T1 (after a flush made room)"), "the counterexample is the bounded search's: {out}");
    // the bound's own outcome sets need the bound's own search
    let (_, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", "2", "--outcomes"]);
    assert!(unbounded_first(&s).is_none(), "--outcomes searches with the bound: {s}");
}

/// --max-executions is the whole run's: when the search with unbounded
/// buffers is cut by it, UNKNOWN is the answer and no search with the
/// bound follows (it used to run one execution and report that as all).
#[test]
fn an_unbounded_search_cut_by_the_execution_limit_is_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    // SAFE after 120 executions with unbounded buffers
    let prog = build(&repo().join("tests/programs/reduction/prefix-races-again.c"), dir.path());
    let (code, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", "2", "--max-executions", "10"]);
    assert_eq!(code, 2, "{s}");
    assert_eq!(s["verdict"], "UNKNOWN", "{s}");
    assert_eq!(s["executions"], 10, "the unbounded search's executions: {s}");
    assert_eq!(unbounded_first(&s), Some((false, "UNKNOWN max-executions reached before the search was complete".into())), "{s}");
    assert_eq!(s["unbounded_first"]["spent_the_limit"], true, "{s}");
    let (code, out, err) = run_verify(&["--model", "pso", "--buffer-size", "2", "--max-executions", "10", prog.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("statistics: 10 executions"), "{out}");
    assert!(out.contains("after 10 executions") && out.contains("no executions left for a search with buffer size 2 (--max-executions)"), "{out}");
    // with executions left, the bounded search runs with the rest
    let (code, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", "2", "--max-executions", "1000"]);
    assert_eq!(code, 0, "{s}");
    assert_eq!(s["unbounded_first"]["spent_the_limit"], false, "{s}");
}
