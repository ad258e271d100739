//! The bundled example: Dekker's entry protocol is SAFE under SC and broken
//! under x86-TSO, and the counterexample says how.

mod common;
use common::*;

#[test]
fn dekker_is_safe_under_sc_and_violated_under_tso() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("examples/dekker.c"), dir.path());
    let p = prog.to_str().unwrap();

    let (code, out, _) = run_verify(&["--model", "sc", p]);
    assert_eq!((code, out.lines().next().unwrap()), (0, "SAFE"), "{out}");

    let trace = dir.path().join("trace.json");
    let (code, out, _) = run_verify(&["--trace-json", trace.to_str().unwrap(), p]);
    assert_eq!((code, out.lines().next().unwrap()), (1, "VIOLATION assertion"), "{out}");
    // the trace shows the buffered flag stores and the loads that overtook them
    assert!(out.contains("store flag0 = 1") && out.contains("buffered in T1"), "{out}");
    assert!(out.contains("store flag1 = 1") && out.contains("buffered in T2"), "{out}");
    assert!(out.contains("load flag1 -> 0") && out.contains("load flag0 -> 0"), "{out}");
    assert!(out.contains("dekker.c:28") && out.contains("two threads in the critical section"), "{out}");
    let steps: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let ops: Vec<&str> = steps.as_array().unwrap().iter().map(|s| s["operation"].as_str().unwrap()).collect();
    let store = ops.iter().position(|o| *o == "store flag0 = 1").unwrap();
    let load = ops.iter().position(|o| *o == "load flag1 -> 0").unwrap();
    let flush = ops.iter().position(|o| *o == "flush flag0 = 1").unwrap();
    assert!(store < load && load < flush, "the load overtakes the buffered store: {ops:?}");
}

#[test]
fn dekker_with_fences_is_safe_under_tso() {
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("examples/dekker.c");
    let out = dir.path().join("fenced.tso");
    let o = tsoify().arg(&src).arg("-DFENCED").arg("-o").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (code, out, _) = run_verify(&[out.to_str().unwrap()]);
    assert_eq!((code, out.lines().next().unwrap()), (0, "SAFE"), "{out}");
}

/// The PSO-only bug: message passing is correct on x86 and broken under PSO,
/// where the flag's store can reach memory before the data's; a release
/// store (store-store barrier) repairs it.
#[test]
fn message_passing_breaks_only_under_pso() {
    let src = repo().join("examples/message-passing.c");
    let p = src.to_str().unwrap();
    for (model, flags, want_code, want) in [
        ("sc", None, 0, "SAFE"),
        ("tso", None, 0, "SAFE"),
        ("pso", None, 1, "VIOLATION assertion"),
        ("pso", Some("-DRELEASE"), 0, "SAFE"),
    ] {
        let mut args = vec!["--model", model];
        args.extend(flags);
        args.push(p);
        let (code, out, err) = run_verify(&args);
        assert_eq!((code, out.lines().next().unwrap_or(&err)), (want_code, want), "{model} {flags:?}: {out}");
        if code == 1 {
            // the flag is flushed while the data is still buffered
            let flag = out.find("flush ready = 1").expect("flag flushed");
            let read = out.find("load data -> 0").expect("stale data read");
            assert!(flag < read && !out[..read].contains("flush data = 42"), "{out}");
        }
    }
}
