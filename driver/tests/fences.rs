//! `verify --infer-fences`: for Dekker's, Peterson's and Lamport's bakery
//! entry protocols under TSO the inferred set has the known size, the
//! program is SAFE with it (`--with-fences`), and removing any one fence
//! brings a violation back (minimality is checked, not assumed). A correct
//! program gets FENCES 0; robustness and PSO store-store barriers too.

mod common;
use common::*;
use std::path::Path;

fn infer(prog: &Path, extra: &[&str], json: &Path) -> (i32, String, serde_json::Value) {
    let mut args = vec!["--infer-fences", "--fences-json", json.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.push(prog.to_str().unwrap());
    let (code, out, _) = run_verify(&args);
    let fences = std::fs::read_to_string(json).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(serde_json::Value::Null);
    (code, out, fences)
}

fn with_fences(prog: &Path, extra: &[&str], fences: &serde_json::Value, dir: &Path) -> (i32, String) {
    let file = dir.join("try.json");
    std::fs::write(&file, serde_json::to_string(fences).unwrap()).unwrap();
    let mut args = vec!["--with-fences", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.push(prog.to_str().unwrap());
    let (code, out, _) = run_verify(&args);
    (code, out)
}

/// Infer, then check the set: it suffices, and each fence is needed.
fn check_minimum(path: &str, extra: &[&str], size: usize) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let prog = repo().join(path);
    let (code, out, fences) = infer(&prog, extra, &dir.path().join("f.json"));
    assert_eq!(code, 0, "{path}: {out}");
    assert!(out.starts_with(&format!("FENCES {size}\n")), "{path}: {out}");
    let list = fences.as_array().expect("a JSON list").clone();
    assert_eq!(list.len(), size, "{path}: {fences}");
    let (code, out) = with_fences(&prog, extra, &fences, dir.path());
    assert_eq!(code, 0, "{path} with its fences: {out}");
    for k in 0..list.len() {
        let mut fewer = list.clone();
        fewer.remove(k);
        let (code, out) = with_fences(&prog, extra, &serde_json::Value::Array(fewer), dir.path());
        assert_eq!(code, 1, "{path} without fence {}: {out}", list[k]);
    }
    fences
}

#[test]
fn dekker_needs_one_fence_in_its_entry() {
    let f = check_minimum("sv-comp/tasks/mutex/dekker.c", &[], 1);
    assert_eq!(f[0]["function"], "thr", "{f}");
    assert_eq!(f[0]["store_store"], false, "{f}");
}

#[test]
fn peterson_needs_one_fence_in_its_entry() {
    check_minimum("sv-comp/tasks/mutex/peterson.c", &[], 1);
}

#[test]
fn bakery_needs_two_fences_in_its_entry() {
    check_minimum("sv-comp/tasks/mutex/bakery.c", &[], 2);
}

#[test]
fn a_correct_program_needs_none() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, fences) = infer(&repo().join("sv-comp/tasks/mutex/dekker-fenced.c"), &[], &dir.path().join("f.json"));
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("FENCES 0"), "{out}");
    assert_eq!(fences, serde_json::json!([]));
}

#[test]
fn robustness_fences_for_store_buffering_and_pso_barriers() {
    // SB: each thread's store must leave before its load
    check_minimum("tests/litmus/SB.c", &["--robustness"], 2);
    // MP under PSO: a store-store barrier between the producer's stores
    let f = check_minimum("tests/litmus/MP.c", &["--robustness", "--model", "pso"], 1);
    assert_eq!(f[0]["store_store"], true, "{f}");
}

#[test]
fn bad_fence_files_are_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    let prog = repo().join("tests/litmus/SB.c");
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "not json").unwrap();
    let (code, _, err) = run_verify(&["--with-fences", junk.to_str().unwrap(), prog.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("not a fence list") && err.contains("hint"), "{err}");
    let nowhere = dir.path().join("nowhere.json");
    std::fs::write(&nowhere, r#"[{"file": "SB.c", "line": 99, "col": 1}]"#).unwrap();
    let (code, _, err) = run_verify(&["--with-fences", nowhere.to_str().unwrap(), prog.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("SB.c:99:1 matches no store"), "{err}");
}
