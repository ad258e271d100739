//! Snapshots of what the pass makes of each kind of memory operation, and
//! its refusals. The input is hand-written IR so the snapshot does not move
//! with clang versions.

use tsoify_pass::{instrument_ir, Options};

const HEADER: &str = r#"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
"#;

const OPS: &str = r#"
@x = global i32 0
@d = global double 0.0
@v = global <4 x i32> zeroinitializer
@w = global i128 0
@p = global ptr null
@buf = global [16 x i8] zeroinitializer
@k = constant i32 7

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @use(i32)

define i32 @ops(i32 %a) {
entry:
  %private = alloca i32
  store i32 %a, ptr %private
  %l = load i32, ptr %private
  %c = load i32, ptr @k
  %0 = load i32, ptr @x
  store i32 %0, ptr @x
  %1 = load volatile double, ptr @d
  store atomic i32 1, ptr @x seq_cst, align 4
  %2 = load atomic i32, ptr @x acquire, align 4
  %3 = load <4 x i32>, ptr @v
  store i128 5, ptr @w
  %4 = load ptr, ptr @p
  %5 = atomicrmw add ptr @x, i32 1 seq_cst
  %6 = atomicrmw fadd ptr @d, double 1.0 monotonic
  %7 = cmpxchg ptr @x, i32 1, i32 2 acq_rel monotonic
  %8 = cmpxchg weak ptr @x, i32 1, i32 2 seq_cst seq_cst
  fence seq_cst
  fence release
  fence syncscope("singlethread") seq_cst
  call void @llvm.memcpy.p0.p0.i64(ptr @buf, ptr @w, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr @buf, i8 0, i64 16, i1 false)
  %r = extractvalue { i32, i1 } %7, 0
  ret i32 %r
}

define i32 @main() {
  %r = call i32 @ops(i32 1)
  ret i32 %r
}
"#;

/// The text of one function of the instrumented module.
fn function_text(ll: &str, name: &str) -> String {
    let start = ll.find(&format!("@{name}(")).map(|i| ll[..i].rfind("define").unwrap()).expect("function present");
    let end = start + ll[start..].find("\n}\n").unwrap() + 2;
    ll[start..end].to_string()
}

#[test]
fn every_kind_of_memory_operation() {
    let out = instrument_ir(&format!("{HEADER}{OPS}"), &Options::default()).unwrap();
    let ll = out.to_ll_string();
    insta::assert_snapshot!(function_text(&ll, "ops"));
    // the private alloca and the constant stay native
    assert_eq!(out.skipped_private, 3);
    // main is renamed for the runtime's own main
    assert!(ll.contains("define i32 @__tsoify_user_main()"), "{ll}");
}

#[test]
fn escaping_locals_are_released_at_return_and_sync_calls_redirected() {
    let ir = format!(
        "{HEADER}
declare i32 @pthread_mutex_lock(ptr)
declare void @keep(ptr)
define i32 @main() {{
  %m = alloca [40 x i8]
  %shared = alloca i32
  call void @keep(ptr %shared)
  store i32 1, ptr %shared
  %r = call i32 @pthread_mutex_lock(ptr %m)
  ret i32 0
}}"
    );
    let out = instrument_ir(&ir, &Options { allow_unsupported: true, ..Options::default() }).unwrap();
    let ll = out.to_ll_string();
    insta::assert_snapshot!(function_text(&ll, "__tsoify_user_main"));
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(out.warnings[0].contains("`keep`"), "{:?}", out.warnings);
}

#[test]
fn refusals_name_the_construct() {
    let tls = format!("{HEADER}@t = thread_local global i32 0\ndefine i32 @main() {{\n  %v = load i32, ptr @t\n  ret i32 %v\n}}");
    let err = instrument_ir(&tls, &Options::default()).err().expect("refused").to_string();
    assert!(err.contains("thread-local variable `t`") && err.contains("--allow-unsupported"), "{err}");

    let ext = format!("{HEADER}declare void @mystery(ptr)\n@x = global i32 0\ndefine i32 @main() {{\n  call void @mystery(ptr @x)\n  ret i32 0\n}}");
    let err = instrument_ir(&ext, &Options::default()).err().expect("refused").to_string();
    assert!(err.contains("external function `mystery`"), "{err}");

    let nomain = format!("{HEADER}define void @f() {{\n  ret void\n}}");
    let err = instrument_ir(&nomain, &Options::default()).err().expect("refused").to_string();
    assert!(err.contains("no main function"), "{err}");
}
