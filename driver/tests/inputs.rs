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
