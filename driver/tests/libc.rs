//! The libc calls tsoify models (strcpy and friends) go through the memory
//! model: their stores are buffered and ordered like the program's own.

mod common;
use common::*;

#[test]
fn strcpy_stores_are_buffered_like_the_programs_own() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/libc/strcpy-mp.c"), dir.path());
    for (model, want) in [("sc", 0), ("tso", 0), ("pso", 1)] {
        let (code, out, _) = run_verify(&["--model", model, prog.to_str().unwrap()]);
        assert_eq!(code, want, "under {model}: {out}");
    }
    // the counterexample under PSO shows the copy's byte stores in the buffer
    let (_, out, _) = run_verify(&["--model", "pso", prog.to_str().unwrap()]);
    assert!(out.contains("store text"), "{out}");
}

/// strlen, strcmp, memcmp, strchr, atoi and strtol read what the thread
/// sees: its own buffered stores first (read natively, memory still held
/// zeros under TSO and PSO, and the program failed where it cannot).
#[test]
fn libc_readers_see_the_threads_own_buffered_stores() {
    let src = repo().join("tests/programs/libc/read-own-buffer.c");
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source"] {
            let (code, out, err) = run_verify(&["--model", model, "--por", por, src.to_str().unwrap()]);
            assert_eq!(code, 0, "under {model}, --por {por}: {out}{err}");
        }
    }
}

/// snprintf writes its text through the model: under PSO the flag raised
/// after it may reach memory first (natively written, the text was in
/// memory at once and PSO was wrongly SAFE).
#[test]
fn sprintf_stores_are_buffered_like_the_programs_own() {
    let src = repo().join("tests/programs/libc/sprintf-mp.c");
    for (model, want) in [("sc", 0), ("tso", 0), ("pso", 1)] {
        let (code, out, err) = run_verify(&["--model", model, src.to_str().unwrap()]);
        assert_eq!(code, want, "under {model}: {out}{err}");
    }
}

/// sscanf reads its input through the model and stores each value it
/// assigned through it (sizes from the conversions: %d, %7s, %c, %hd, %lf;
/// a suppressed %*d takes no pointer; an unassigned one stays untouched):
/// under PSO the flag raised after it may overtake those stores.
#[test]
fn sscanf_reads_and_assigns_through_the_model() {
    let src = repo().join("tests/programs/libc/sscanf.c");
    for (model, want) in [("sc", 0), ("tso", 0), ("pso", 1)] {
        let (code, out, err) = run_verify(&["--model", model, src.to_str().unwrap()]);
        assert_eq!(code, want, "under {model}: {out}{err}");
        if want == 1 {
            assert!(out.contains("sscanf.c:26"), "the reader's check fails, not the parser's: {out}");
        }
    }
}
