//! Accesses of freed heap memory (runtime/src/libc.c, TSOIFY_ST_FREED): a
//! use after free is a violation of its own kind under every model and
//! reduction, found only in the interleavings that have it; SV-COMP's
//! unreach-call does not count it (the access touches what the block held).

mod common;
use common::*;

/// tests/programs/memory/reclaim.c: a reader that loaded a pointer before
/// another thread unlinked and freed its node reads the node afterwards.
#[test]
fn premature_reclamation_is_a_use_after_free() {
    let src = repo().join("tests/programs/memory/reclaim.c");
    let src = src.to_str().unwrap();
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source", "optimal"] {
            let (code, out, err) = run_verify(&["-q", "--model", model, "--por", por, src]);
            assert_eq!((code, out.as_str()), (1, "VIOLATION use-after-free\n"), "under {model}, --por {por}: {err}");
            // a write: under TSO and PSO its store is issued with the load
            // before it (a buffered store is no scheduling point) and so
            // before the free, and reaches memory after it; only the flush
            // shows that (checked at stores alone, TSO and PSO answered SAFE
            // under every reduction, `none` too: GenMC's wrong/memory/access-freed1)
            let (code, out, err) = run_verify(&["-q", "--model", model, "--por", por, "-D", "WRITE", src]);
            assert_eq!((code, out.as_str()), (1, "VIOLATION use-after-free\n"), "-DWRITE under {model}, --por {por}: {err}");
            // freed only after both threads are joined: no access comes after the free
            let (code, out, err) = run_verify(&["-q", "--model", model, "--por", por, "-D", "DEFER_FREE", src]);
            assert_eq!((code, out.as_str()), (0, "SAFE\n"), "-DDEFER_FREE under {model}, --por {por}: {err}");
        }
    }
    // the trace shows the free, then the read that comes after it
    let (_, out, _) = run_verify(&["--model", "tso", src]);
    let free = out.find("free 4 bytes").unwrap_or_else(|| panic!("no free in the trace:\n{out}"));
    let read = out.rfind("VIOLATION: read of 4 bytes of freed memory").unwrap_or_else(|| panic!("no read of freed memory:\n{out}"));
    assert!(free < read, "{out}");
}

/// SV-COMP's unreach-call counts only reach_error and failed assertions:
/// the read of the freed node sees the value the node held, the assertion
/// holds, and the answer is TRUE, as it was before accesses of freed
/// memory were checked.
#[test]
fn unreach_call_does_not_count_a_use_after_free() {
    let src = repo().join("tests/programs/memory/reclaim.c");
    let (code, out, err) = run_verify(&["--svcomp", "--model", "tso", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.trim_end().ends_with("Result: TRUE"), "{out}");
}

/// A use after free in a SARIF log: a result of its own rule.
#[test]
fn a_use_after_free_is_a_sarif_rule() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("r.sarif");
    let src = repo().join("tests/programs/memory/reclaim.c");
    let (code, out, err) = run_verify(&["-q", "--sarif", log.to_str().unwrap(), src.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    let run = &v["runs"][0];
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "use-after-free", "{result}");
    let rule = &run["tool"]["driver"]["rules"][result["ruleIndex"].as_u64().unwrap() as usize];
    assert_eq!(rule["id"], "use-after-free", "{rule}");
}
