//! Condition variables as POSIX specifies them: a wait may end without a
//! signal (a spurious wakeup; `--spurious-wakeups 0` turns them off), and a
//! timed wait may always time out. Every model and reduction agrees.

mod common;
use common::*;

fn code(name: &str, extra: &[&str]) -> Vec<(String, i32, String)> {
    let src = repo().join("tests/programs/condvar").join(format!("{name}.c"));
    let mut out = vec![];
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source", "optimal"] {
            let mut args = vec!["--model", model, "--por", por, src.to_str().unwrap()];
            args.extend(extra);
            let (code, stdout, stderr) = run_verify(&args);
            out.push((format!("{name} {extra:?} under {model}, --por {por}"), code, stdout + &stderr));
        }
    }
    out
}

#[test]
fn a_wait_that_is_not_rechecked_fails_on_a_spurious_wakeup() {
    for (what, code, out) in code("no-recheck", &[]) {
        assert_eq!(code, 1, "{what}: {out}");
        assert!(out.contains("cond wait (returns without a signal)"), "{what}: the trace shows no spurious wakeup: {out}");
    }
    for (what, code, out) in code("no-recheck", &["--spurious-wakeups", "0"]) {
        assert_eq!(code, 0, "{what}: {out}");
    }
}

#[test]
fn a_rechecked_wait_is_safe_and_ends() {
    for extra in [&[][..], &["--spurious-wakeups", "0"], &["--spurious-wakeups", "3"]] {
        for (what, code, out) in code("recheck", extra) {
            assert_eq!(code, 0, "{what}: {out}");
        }
    }
}

#[test]
fn a_timed_wait_may_time_out() {
    for (what, code, out) in code("timedwait", &["--spurious-wakeups", "0"]) {
        assert_eq!(code, 1, "{what}: {out}");
    }
}
