//! Thread-local storage (pass/src/tls.rs): each thread has its own copy of a
//! `_Thread_local`/`__thread` variable, with the variable's initialiser, in
//! program memory (a pointer to it reaches it from another thread), named
//! `var[thread]` in traces; the same in an export.

mod common;
use common::*;
use std::path::PathBuf;

fn program(name: &str) -> PathBuf {
    repo().join("tests/programs/tls").join(format!("{name}.c"))
}

#[test]
fn every_thread_has_its_own_initialised_copy() {
    let dir = tempfile::tempdir().unwrap();
    let tls = build(&program("per-thread-id"), dir.path());
    // the same program with a shared variable: the threads overwrite each other's id
    let text = std::fs::read_to_string(program("per-thread-id")).unwrap();
    let shared = write_c(dir.path(), "shared-id.c", &text.replace("_Thread_local int tid", "int tid"));
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source", "optimal"] {
            let (code, out, err) = run_verify(&["--model", model, "--por", por, tls.to_str().unwrap()]);
            assert_eq!(code, 0, "thread-local under {model} --por {por}: {out}{err}");
            let (code, out, _) = run_verify(&["--model", model, "--por", por, "-q", shared.to_str().unwrap()]);
            assert_eq!((code, out.as_str()), (1, "VIOLATION assertion\n"), "shared under {model} --por {por}");
        }
    }
}

#[test]
fn a_pointer_reaches_another_threads_copy_and_traces_name_it() {
    for model in ["sc", "tso", "pso"] {
        let (code, out, err) = run_verify(&["--model", model, program("through-a-pointer").to_str().unwrap()]);
        assert_eq!(code, 0, "{model}: {out}{err}");
    }
    // a wrong expectation shows the copy that was written: T1's
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(program("through-a-pointer")).unwrap();
    let wrong = write_c(dir.path(), "wrong.c", &text.replace("assert(counter == 5)", "assert(counter == 6)"));
    let (code, out, _) = run_verify(&["--model", "sc", wrong.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("store counter[1] = 5") && out.contains("load counter[1] -> 5"), "{out}");
}

#[test]
fn an_export_keeps_thread_locals_per_thread() {
    let dir = tempfile::tempdir().unwrap();
    // (through-a-pointer spins: an export's spin loops do not block, see README)
    for name in ["per-thread-id"] {
        let out = dir.path().join(format!("{name}.sc.bc"));
        let o = tsoify().args(["--export", "--model", "tso", "--buffer-size", "2"]).arg(program(name)).arg("-o").arg(&out).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (code, stdout, stderr) = run_verify(&["--model", "sc", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {stdout}{stderr}");
    }
}
