//! ILP32 (`--data-model ILP32`): programs built with -m32 against the
//! 32-bit runtime, explored by the 64-bit verify over the same channel.
//! Needs Debian's 32-bit C library (scripts/setup installs it).

mod common;
use common::*;
use std::path::Path;

/// SAFE only where long and pointers are 4 bytes.
const SIZES: &str = "#include <assert.h>\nint main(void) {\n  assert(sizeof(long) == 4 && sizeof(void *) == 4);\n  return 0;\n}\n";

#[test]
fn data_model_sets_the_size_of_long_and_pointers() {
    let dir = tempfile::tempdir().unwrap();
    let src = write_c(dir.path(), "sizes.c", SIZES);
    let src = src.to_str().unwrap();
    let (code, out, err) = run_verify(&["-q", src]);
    assert_eq!(code, 1, "LP64 by default: {out}{err}");
    let (code, out, err) = run_verify(&["-q", "--data-model", "LP64", src]);
    assert_eq!(code, 1, "{out}{err}");
    let (code, out, err) = run_verify(&["-q", "--data-model", "ILP32", src]);
    assert_eq!((code, out.trim()), (0, "SAFE"), "{err}");
    // tsoify builds it 32-bit too, and the built program needs no flag
    let prog = dir.path().join("sizes.tso");
    let o = tsoify().args(["--data-model", "ILP32", src, "-o"]).arg(&prog).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (code, out, err) = run_verify(&["-q", prog.to_str().unwrap()]);
    assert_eq!((code, out.trim()), (0, "SAFE"), "{err}");
    let ll = dir.path().join("sizes.ll");
    let o = tsoify().args(["--data-model", "ILP32", "--emit-llvm", src, "-o"]).arg(&ll).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&ll).unwrap().contains("target triple = \"i386-"));
}

/// Store buffering on pointer-sized data (long flags, pointers read back):
/// the exact outcome sets under SC, TSO and PSO, as the 64-bit build has
/// them (tests/litmus/SB.expect).
const SB_LONG: &str = r#"#include <pthread.h>
#include <assert.h>
#include "tsoify.h"
long x, y;
void *r0 = (void *)-1, *r1 = (void *)-1;
static void *t0(void *a) { x = 0x7fffffffL; r0 = (void *)y; return 0; }
static void *t1(void *a) { y = 0x7fffffffL; r1 = (void *)x; return 0; }
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  assert(sizeof(long) == 4 && sizeof(void *) == 4);
  tsoify_outcome("r0=%d r1=%d", r0 != 0, r1 != 0);
  return 0;
}
"#;

#[test]
fn store_buffering_on_longs_has_the_model_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build_ilp32(&write_c(dir.path(), "sb-long.c", SB_LONG), dir.path());
    let sc = ["r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"];
    let relaxed = ["r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"];
    for (model, want) in [("sc", &sc[..]), ("tso", &relaxed[..]), ("pso", &relaxed[..])] {
        for por in ["source", "optimal", "none"] {
            let (_, summary) = verify_json(&prog, &["--outcomes", "--model", model, "--buffer-size", "0", "--por", por]);
            assert_eq!(outcomes(&summary), want, "{model} --por {por}");
        }
    }
}

/// Dekker's mutual exclusion with long flags and a pointer-sized turn:
/// safe under SC only; an mfence after each flag store (and, for PSO,
/// before the flag is given back) makes it safe under TSO and PSO.
const DEKKER: &str = r#"#include <pthread.h>
#include <assert.h>
#ifdef FENCED
#define FENCE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#else
#define FENCE()
#endif
long flag0, flag1;
void *turn;
int inside;
static void enter(long *mine, long *other, void *me) {
  *mine = 1;
  FENCE();
  while (*other) {
    if (turn != me) {
      *mine = 0;
      while (turn != me) {}
      *mine = 1;
      FENCE();
    }
  }
}
static void leave(long *mine, void *next) {
  inside--;
  turn = next;
  FENCE(); /* PSO: the critical section's stores before the flag's */
  *mine = 0;
}
static void *t0(void *a) {
  enter(&flag0, &flag1, (void *)0);
  assert(++inside == 1);
  leave(&flag0, (void *)1);
  return 0;
}
static void *t1(void *a) {
  enter(&flag1, &flag0, (void *)1);
  assert(++inside == 1);
  leave(&flag1, (void *)0);
  return 0;
}
int main(void) {
  pthread_t h0, h1;
  pthread_create(&h0, 0, t0, 0);
  pthread_create(&h1, 0, t1, 0);
  pthread_join(h0, 0);
  pthread_join(h1, 0);
  return 0;
}
"#;

#[test]
fn dekker_on_longs_fails_under_tso_and_pso_only() {
    let dir = tempfile::tempdir().unwrap();
    let src = write_c(dir.path(), "dekker.c", DEKKER);
    let src = src.to_str().unwrap();
    for (model, plain, fenced) in [("sc", 0, 0), ("tso", 1, 0), ("pso", 1, 0)] {
        let (code, out, err) = run_verify(&["-q", "--data-model", "ILP32", "--model", model, src]);
        assert_eq!(code, plain, "{model}: {out}{err}");
        let (code, out, err) = run_verify(&["-q", "--data-model", "ILP32", "--model", model, "-D", "FENCED", src]);
        assert_eq!(code, fenced, "{model} with fences: {out}{err}");
    }
}

/// A few of the litmus suite's tests under ILP32 give exactly their
/// expected outcome sets (the runtime's buffers, flushes and channel in 32
/// bits against the same oracle).
#[test]
fn litmus_tests_under_ilp32() {
    #[derive(serde::Deserialize)]
    struct Expect {
        outcomes: std::collections::BTreeMap<String, Vec<String>>,
    }
    let dir = tempfile::tempdir().unwrap();
    for name in ["SB", "MP", "LB", "2+2W", "IRIW", "mixed-bytes", "mixed-overlap"] {
        let prog = build_ilp32(&repo().join("tests/litmus").join(format!("{name}.c")), dir.path());
        let text = std::fs::read_to_string(repo().join("tests/litmus").join(format!("{name}.expect"))).unwrap();
        let e: Expect = toml::from_str(&text).unwrap();
        for model in ["sc", "tso", "pso"] {
            let mut want = e.outcomes[model].clone();
            want.sort();
            let (_, summary) = verify_json(&prog, &["--outcomes", "--model", model, "--buffer-size", "0"]);
            assert_eq!(outcomes(&summary), want, "{name} under {model}");
        }
    }
}

/// IR compiled for one data model is not linked with the other's runtime;
/// --export and C++ are 64-bit only. Each is a one-line error, exit 3.
#[test]
fn mismatched_inputs_are_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let src = write_c(dir.path(), "sizes.c", SIZES);
    let ll = dir.path().join("sizes.ll");
    let o = std::process::Command::new("clang-19").args(["-S", "-emit-llvm", "-m32"]).arg(&src).arg("-o").arg(&ll).output().unwrap();
    assert!(o.status.success());
    let o = tsoify().arg(&ll).arg("-o").arg(dir.path().join("x")).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("32-bit pointers") && err.contains("hint: pass --data-model ILP32"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (code, out, err) = run_verify(&["-q", "--data-model", "ILP32", ll.to_str().unwrap()]);
    assert_eq!((code, out.trim()), (0, "SAFE"), "{err}");
    let o = tsoify().args(["--data-model", "ILP32", "--export", "--buffer-size", "1"]).arg(&src).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("--export builds 64-bit"), "{err}");
    let cpp = dir.path().join("t.cpp");
    std::fs::write(&cpp, "#include <thread>\nint main() { std::thread t([] {}); t.join(); }\n").unwrap();
    let (code, _, err) = run_verify(&["--data-model", "ILP32", cpp.to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("C++ is supported under LP64 only"), "{err}");
}

fn build_ilp32(source: &Path, dir: &Path) -> std::path::PathBuf {
    let out = dir.join(source.file_stem().unwrap()).with_extension("tso");
    let o = tsoify().args(["--data-model", "ILP32"]).arg(source).arg("-o").arg(&out).output().unwrap();
    assert!(o.status.success(), "tsoify {} failed: {}", source.display(), String::from_utf8_lossy(&o.stderr));
    out
}
