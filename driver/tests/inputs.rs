//! The input forms tsoify accepts: C, preprocessed C (.i, as SV-COMP ships
//! tasks), and LLVM IR; and --emit-llvm output a person can read.

mod common;
use common::*;
use std::process::Command;

#[test]
fn preprocessed_i_file_with_c99_inline_verifies() {
    let dir = tempfile::tempdir().unwrap();
    // a plain C99 `inline` function gets no body at -O0 unless gnu89 inline
    // semantics are used; SV-COMP .i tasks have them
    let src = write_c(
        dir.path(),
        "task.c",
        "#include <pthread.h>\n#include <assert.h>\ninline int twice(int v) { return 2 * v; }\n\
         int x, y, r0, r1;\nvoid *t0(void *a) { x = 1; r0 = y; return 0; }\nvoid *t1(void *a) { y = 1; r1 = x; return 0; }\n\
         int main(void) { pthread_t a, b; pthread_create(&a, 0, t0, 0); pthread_create(&b, 0, t1, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(twice(r0 + r1) != 0); return 0; }\n",
    );
    let i = dir.path().join("task.i");
    let clang = tsoify::build::llvm_tool("clang").unwrap();
    let o = Command::new(clang).arg("-E").arg(&src).arg("-o").arg(&i).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (code, out, err) = run_verify(&["--model", "sc", i.to_str().unwrap()]);
    assert_eq!((code, out.lines().next().unwrap_or("")), (0, "SAFE"), "{out}{err}");
    let (code, out, err) = run_verify(&["--model", "tso", i.to_str().unwrap()]);
    assert_eq!((code, out.lines().next().unwrap_or("")), (1, "VIOLATION assertion"), "{out}{err}");
}

#[test]
fn emit_llvm_writes_the_instrumented_ir() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("dekker.tso.ll");
    let o = tsoify().arg(repo().join("examples/dekker.c")).arg("--emit-llvm").arg("-o").arg(&ll).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&ll).unwrap();
    assert!(text.contains("call void @__tsoify_store(ptr @flag0"), "flag stores are instrumented");
    assert!(text.contains("@__tsoify_pthread_create"), "thread creation is redirected");
    assert!(text.contains("i32 @__tsoify_user_main()") && !text.contains("@main("), "main is renamed");
}

#[test]
fn llvm_ir_input_is_instrumented_like_c() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("sb.ll");
    let clang = tsoify::build::llvm_tool("clang").unwrap();
    let o = Command::new(clang)
        .args(["-S", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone", "-g", "-I"])
        .arg(repo().join("include"))
        .arg(repo().join("tests/litmus/SB.c"))
        .arg("-o")
        .arg(&ll)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (_, summary) = verify_json(&ll, &["--outcomes", "--model", "tso"]);
    assert_eq!(outcomes(&summary), ["r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"]);
}

/// verify builds source by running tsoify (driver/src/build_cmd.rs), so
/// that it does not load libLLVM: its start alone cost about 50 ms of
/// every verify run, most of them on a .tso that needs no LLVM.
#[test]
fn verify_does_not_load_libllvm() {
    let readelf = tsoify::build::llvm_tool("llvm-readelf").unwrap();
    let o = Command::new(readelf).arg("--needed-libs").arg(env!("CARGO_BIN_EXE_verify")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let needed = String::from_utf8_lossy(&o.stdout);
    assert!(needed.contains("libc.so"), "llvm-readelf listed nothing: {needed}");
    assert!(!needed.contains("LLVM"), "verify links libLLVM again: {needed}");
}

/// The build flags verify takes reach the build: -D and -I (here they
/// decide whether the program fails), and a bad one is a one-line usage
/// error with tsoify's reason.
#[test]
fn verify_builds_source_with_its_build_flags() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("inc")).unwrap();
    std::fs::write(dir.path().join("inc/limit.h"), "#define LIMIT 1\n").unwrap();
    let src = write_c(
        dir.path(),
        "flags.c",
        "#include <assert.h>\n#include \"limit.h\"\nint main(void) {\n#ifdef BUG\n  assert(LIMIT == 2);\n#endif\n  return 0;\n}\n",
    );
    let inc = format!("-I{}", dir.path().join("inc").display());
    let (code, out, err) = run_verify(&[&inc, src.to_str().unwrap()]);
    assert_eq!((code, out.lines().next().unwrap_or("")), (0, "SAFE"), "{out}{err}");
    let (code, out, err) = run_verify(&[&inc, "-DBUG", src.to_str().unwrap()]);
    assert_eq!((code, out.lines().next().unwrap_or("")), (1, "VIOLATION assertion"), "{out}{err}");
    let (code, out, err) = run_verify(&["-DBUG", src.to_str().unwrap()]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.starts_with("verify: ") && err.contains("limit.h") && err.trim().lines().count() == 1, "{err}");
}
