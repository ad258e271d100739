//! Bad input and misbehaving programs: each gives its documented verdict or
//! error, a one-line reason, and its exit code (0 safe, 1 violation,
//! 2 unknown, 3 usage or input error).

mod common;
use common::*;

#[test]
fn c_that_does_not_compile_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_c(dir.path(), "broken.c", "int main(void) { return undeclared_variable; }\n");
    let (code, _out, err) = run_verify(&[p.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("compiling") && err.contains("undeclared_variable"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
}

/// C that compilers accepted before clang 16 made it an error (a pointer
/// passed as an int, as many SV-COMP tasks do) still compiles.
#[test]
fn older_c_with_pointer_int_conversions_compiles() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_c(
        dir.path(),
        "old.c",
        "#include <stdlib.h>\nvoid check(int c) { if (!c) abort(); }\nint main(void) { int *p = malloc(4); check(p); return 0; }\n",
    );
    let (code, out, err) = run_verify(&[p.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("SAFE"), "{out}");
}

#[test]
fn inline_asm_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_c(
        dir.path(),
        "asm.c",
        "int x;\nint main(void) {\n  __asm__ volatile(\"movl $1, %0\" : \"=m\"(x));\n  return 0;\n}\n",
    );
    let o = tsoify().arg(&p).arg("-o").arg(dir.path().join("a.tso")).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("inline assembly") && err.contains("asm.c:3") && err.contains("hint"), "{err}");
}

#[test]
fn allow_unsupported_goes_on_and_says_so_in_the_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_c(
        dir.path(),
        "asm.c",
        "int x;\nint main(void) {\n  __asm__ volatile(\"nop\");\n  return 0;\n}\n",
    );
    let (code, out, err) = run_verify(&["--allow-unsupported", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("SAFE") && out.contains("unsupported constructs allowed") && out.contains("nop"), "{out}");
}

#[test]
fn a_segfault_is_a_crash_violation_with_a_trace() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_c(
        dir.path(),
        "segv.c",
        "#include <pthread.h>\nint *volatile p;\nint flag;\nvoid *t(void *a) { flag = 1; return 0; }\n\
         int main(void) {\n  pthread_t h;\n  pthread_create(&h, 0, t, 0);\n  if (flag == 0) *p = 1;\n  pthread_join(h, 0);\n  return 0;\n}\n",
    );
    let (code, out, _) = run_verify(&[p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("VIOLATION crash"), "{out}");
    assert!(out.contains("SIGSEGV") && out.contains("segv.c:8"), "{out}");
}

#[test]
fn a_program_that_never_terminates_is_unknown() {
    let dir = tempfile::tempdir().unwrap();
    // the counter makes every iteration different: not an await loop
    let p = write_c(dir.path(), "spin.c", "int stop, n;\nint main(void) {\n  for (int i = 0; !stop; i++) n = i;\n  return 0;\n}\n");
    let (code, out, _) = run_verify(&["--max-steps", "1000", p.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with("UNKNOWN") && out.contains("step limit"), "{out}");
}

#[test]
fn a_spin_loop_nobody_can_end_is_a_livelock() {
    let dir = tempfile::tempdir().unwrap();
    // an await loop: the thread blocks until `stop` changes, and no thread can change it
    let p = write_c(dir.path(), "spin.c", "int stop;\nint main(void) {\n  while (!stop) {}\n  return 0;\n}\n");
    let (code, out, _) = run_verify(&[p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("VIOLATION livelock") && out.contains("spin.c:3"), "{out}");
    // under SV-COMP's unreach-call a livelock is no error
    let (code, out, _) = run_verify(&["--svcomp", p.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.trim_end().ends_with("Result: TRUE"), "{out}");
}

#[test]
fn unroll_cuts_a_loop_and_the_verdict_is_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let src = "#include <pthread.h>\n#include <assert.h>\nint flag, x;\n\
               void *w(void *a) { int n = 0; while (flag == 0) n++; return 0; }\n\
               void *s(void *a) { x = 1; assert(x == 0); flag = 1; return 0; }\n\
               int main(void) { pthread_t c, d; pthread_create(&c, 0, w, 0); pthread_create(&d, 0, s, 0);\n\
               pthread_join(c, 0); pthread_join(d, 0); return 0; }\n";
    let p = write_c(dir.path(), "count.c", src);
    // the violation is in the other thread: the cut thread stops, the others run on
    let (code, out, _) = run_verify(&["--unroll", "1", p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("VIOLATION assertion"), "{out}");
    let q = write_c(dir.path(), "count-ok.c", &src.replace("assert(x == 0)", "assert(x == 1)"));
    let (code, out, _) = run_verify(&["--unroll", "2", q.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with("UNKNOWN") && out.contains("--unroll"), "{out}");
}

#[test]
fn a_loop_without_memory_operations_is_cut_by_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    // the loop touches only a register: no scheduling point, so only the
    // per-execution wall-clock limit can stop it
    let p = write_c(dir.path(), "busy.c", "int main(int argc, char **argv) {\n  volatile int spin = 1;\n  int n = 0;\n  while (spin) n++;\n  return n;\n}\n");
    let (code, out, _) = run_verify(&["--exec-timeout", "1", p.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with("UNKNOWN") && out.contains("hung"), "{out}");
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let (code, _, err) = run_verify(&["/nonexistent/prog.c"]);
    assert_eq!(code, 3);
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn an_unknown_model_is_a_usage_error() {
    let (code, _, err) = run_verify(&["--model", "arm", "x.c"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("unknown memory model"), "{err}");
}

#[test]
fn deadlock_is_a_violation() {
    let p = repo().join("tests/programs/deadlock.c");
    let (code, out, _) = run_verify(&[p.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("VIOLATION deadlock"), "{out}");
}

/// A call to a function defined nowhere is a one-line input error naming
/// it and where it is called, not the linker's message.
#[test]
fn an_undefined_function_is_named_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_c(dir.path(), "undef.c", "extern int __VERIFIER_nondet_foo(void);\nextern int mystery(int);\nint main(void) {\n  return mystery(__VERIFIER_nondet_foo());\n}\n");
    let (code, _out, err) = run_verify(&[p.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("undef.c:4: call to `__VERIFIER_nondet_foo`") && err.contains("`mystery`") && err.contains("hint:"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
}

/// SAFE because every execution failed an assume is still SAFE (no path
/// reaches an error), but the verdict says it rests on no complete execution.
#[test]
fn safe_over_no_complete_execution_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_c(dir.path(), "never.c", "#include <assert.h>\nextern void __VERIFIER_assume(int);\nint x;\nint main(void) {\n  __VERIFIER_assume(x == 1);\n  assert(0);\n  return 0;\n}\n");
    let (code, out, err) = run_verify(&[p.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.lines().next().unwrap().starts_with("SAFE (over no complete execution: 1 of 1 discarded"), "{out}");
    // the default TSO search runs unbounded first: its line names the reason once
    assert!(out.contains("unbounded first: SAFE (over no complete execution: 1 of 1 discarded"), "{out}");
    assert!(!out.contains("(("), "{out}");
}

/// Threads that block in an assume after main has returned do not make the
/// execution infeasible: the process may end at main's return, before the
/// assume. Before, every execution of this program was discarded and SAFE
/// said it rested on none. The bug variant is still found.
#[test]
fn an_assume_after_mains_return_leaves_a_complete_execution() {
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("tests/programs/ending/assume-after-return.c");
    let prog = build(&src, dir.path());
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source", "optimal"] {
            let (code, out, _) = run_verify(&["--model", model, "--por", por, prog.to_str().unwrap()]);
            assert_eq!(code, 0, "{model} {por}: {out}");
            assert_eq!(out.lines().next(), Some("SAFE"), "{model} {por}: {out}");
            let (code, out, _) = run_verify(&["--model", model, "--por", por, "-D", "BUG", src.to_str().unwrap()]);
            assert_eq!(code, 1, "{model} {por}: {out}");
            assert!(out.starts_with("VIOLATION assertion"), "{model} {por}: {out}");
        }
    }
}

/// `--outcomes` goes on after violations, so a search cut short (here by
/// --max-executions) still answers VIOLATION: the outcome list must say
/// it may be partial, on the terminal and in the JSON summary, and must
/// not say so when the search saw everything.
#[test]
fn outcomes_of_a_search_cut_short_say_they_may_be_partial() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/ending/report-then-exit.c"), dir.path());
    let p = prog.to_str().unwrap();
    let (code, out, _) = run_verify(&["--outcomes", "--model", "sc", "--por", "none", "--max-executions", "3", p]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("(not every execution was explored, so there may be more: max-executions reached"), "{out}");
    let (_, s) = verify_json(&prog, &["--outcomes", "--model", "sc", "--por", "none", "--max-executions", "3"]);
    assert_eq!(s["verdict"], "VIOLATION");
    assert!(s["incomplete"][0].as_str().unwrap().starts_with("max-executions reached"), "{s}");
    let (_, out, _) = run_verify(&["--outcomes", "--model", "sc", p]);
    assert!(out.contains("outcomes (") && !out.contains("not every execution"), "{out}");
    let (_, s) = verify_json(&prog, &["--outcomes", "--model", "sc"]);
    assert_eq!(s["incomplete"].as_array().map(|a| a.len()), Some(0), "{s}");
}
