// Builds the C runtime into a static library (libtsoify_rt.a) that the
// driver links into every instrumented program, and the same sources in
// export mode into LLVM bitcode (tsoify_export_{atomic,mutex}[_flushers].bc) that
// `tsoify --export` links into the exported module. The output directory
// is exported to the crate as TSOIFY_RT_LIB_DIR. The static library is
// built a second time with -m32 (libtsoify_rt32.a) for ILP32 programs, where
// the machine has the 32-bit C library (runtime32 below).
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let sources = ["choice.c", "threads.c", "memmodel.c", "api.c", "libc.c", "server.c", "await.c", "sync.c", "cxx.c", "c11threads.c", "context.c", "sym.c"];
    let mut build = cc::Build::new();
    for s in sources {
        build.file(format!("src/{s}"));
        println!("cargo:rerun-if-changed=src/{s}");
    }
    println!("cargo:rerun-if-changed=src/rt.h");
    println!("cargo:rerun-if-changed=src/context.h");
    println!("cargo:rerun-if-changed=include/tsoify_channel.h");
    build
        .opt_level(2)
        // the library is linked into instrumented programs, never into the Rust binaries
        .cargo_metadata(false)
        .flag("-std=gnu11")
        .flag("-fno-stack-protector")
        .warnings(true)
        .extra_warnings(true)
        .flag_if_supported("-Wno-unused-parameter")
        .compile("tsoify_rt");
    let out = std::env::var("OUT_DIR").unwrap();
    runtime32(Path::new(&out), &sources);
    export_bitcode(Path::new(&out));
    println!("cargo:rustc-env=TSOIFY_RT_LIB_DIR={out}");
}

fn llvm_tool(name: &str) -> PathBuf {
    let prefix = std::env::var("LLVM_SYS_191_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".into());
    Path::new(&prefix).join("bin").join(name)
}

/// The runtime for ILP32 programs: the same sources compiled by clang-19
/// with -m32 (i386, the ABI of SV-COMP's ILP32 tasks) into
/// libtsoify_rt32.a. A machine without Debian's 32-bit C library
/// (libc6-dev-i386) cannot: the build still succeeds, with an empty
/// library and the reason in rt32-missing.txt, and the driver refuses
/// --data-model ILP32 with it rather than build 64-bit.
fn runtime32(out: &Path, sources: &[&str]) {
    // installing the 32-bit libraries changes /usr/lib32: build again then
    println!("cargo:rerun-if-changed=/usr/lib32");
    let lib = out.join("libtsoify_rt32.a");
    let missing = out.join("rt32-missing.txt");
    let _ = std::fs::remove_file(&lib);
    let mut objects = vec![];
    // TSOIFY_NO_RT32=1 builds as a machine without the 32-bit C library
    // would, to try the refusal
    println!("cargo:rerun-if-env-changed=TSOIFY_NO_RT32");
    let mut failure = std::env::var_os("TSOIFY_NO_RT32").map(|_| "built with TSOIFY_NO_RT32 set".to_string());
    for s in sources {
        if failure.is_some() {
            break;
        }
        let obj = out.join(format!("rt32_{s}.o"));
        let result = Command::new(llvm_tool("clang"))
            .args(["-m32", "-O2", "-std=gnu11", "-fno-stack-protector", "-Wall", "-Wextra", "-Wno-unused-parameter", "-c"])
            .arg(format!("src/{s}"))
            .arg("-o")
            .arg(&obj)
            .output()
            .expect("clang-19 runs (set LLVM_SYS_191_PREFIX)");
        if !result.status.success() {
            let stderr = String::from_utf8_lossy(&result.stderr);
            failure = Some(stderr.lines().find(|l| l.contains("error")).unwrap_or("clang -m32 failed").trim().to_string());
            break;
        }
        objects.push(obj);
    }
    if failure.is_none() {
        let status = Command::new(llvm_tool("llvm-ar")).arg("rcs").arg(&lib).args(&objects).status().expect("llvm-ar-19 runs");
        if !status.success() {
            failure = Some("llvm-ar failed on the 32-bit runtime".into());
        }
    }
    if failure.is_none() {
        // linking needs 32-bit crt files and libgcc too (lib32gcc-N-dev)
        let probe = out.join("probe32.c");
        std::fs::write(&probe, "#include <pthread.h>\nint main(void) { return pthread_self() == 0; }\n").unwrap();
        let result = Command::new(llvm_tool("clang"))
            .args(["-m32", "-w"])
            .arg(&probe)
            .arg("-o")
            .arg(out.join("probe32"))
            .arg("-lpthread")
            .output()
            .expect("clang-19 runs");
        if !result.status.success() {
            let stderr = String::from_utf8_lossy(&result.stderr);
            failure = Some(format!("linking a -m32 program failed: {}", stderr.lines().next().unwrap_or("").trim()));
        }
    }
    match failure {
        Some(why) => {
            println!("cargo:warning=no 32-bit runtime (--data-model ILP32 will be refused): {why}");
            std::fs::write(&lib, b"").unwrap();
            std::fs::write(&missing, why).unwrap();
        }
        None => std::fs::write(&missing, "").unwrap(),
    }
}

/// The export runtime: the shared buffer code (memmodel.c, api.c) plus
/// export.c, one bitcode file per way of making runtime steps atomic and
/// way of flushing (choice points or flusher threads).
fn export_bitcode(out: &Path) {
    println!("cargo:rerun-if-changed=src/export.c");
    println!("cargo:rerun-if-changed=src/export.h");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    let prefix = std::env::var("LLVM_SYS_191_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".into());
    let tool = |name: &str| -> PathBuf { Path::new(&prefix).join("bin").join(name) };
    let variants: [(&str, &[&str]); 5] = [
        ("atomic", &[]),
        ("mutex", &["-DTSOIFY_EXPORT_MUTEX"]),
        ("atomic_flushers", &["-DTSOIFY_EXPORT_FLUSHERS"]),
        ("mutex_flushers", &["-DTSOIFY_EXPORT_MUTEX", "-DTSOIFY_EXPORT_FLUSHERS"]),
        // --export-for genmc: split accesses stop GenMC (rt.h RT_SPLIT_ACCESS)
        ("genmc", &["-DTSOIFY_EXPORT_MUTEX", "-DTSOIFY_EXPORT_FLUSHERS", "-DTSOIFY_EXPORT_ONE_WIDTH"]),
    ];
    for (variant, defines) in variants {
        let mut parts = vec![];
        for src in ["memmodel.c", "api.c", "export.c"] {
            let bc = out.join(format!("export_{variant}_{src}.bc"));
            let status = Command::new(tool("clang"))
                // unoptimised, then only SROA and CFG clean-up below: -O1 and up
                // bring in intrinsics (llvm.smin, vectors) that checkers'
                // interpreters lack (Nidhugg stops at llvm.smin)
                .args(["-O0", "-Xclang", "-disable-O0-optnone", "-std=gnu11", "-fno-stack-protector"])
                .args(["-Wall", "-Wno-unused-parameter", "-Wno-unused-variable", "-Wno-unused-but-set-variable"])
                .args(["-DTSOIFY_EXPORT", "-include", "src/export.h"])
                .args(defines)
                .args(["-emit-llvm", "-c"])
                .arg(format!("src/{src}"))
                .arg("-o")
                .arg(&bc)
                .status()
                .expect("clang-19 runs (set LLVM_SYS_191_PREFIX)");
            assert!(status.success(), "compiling src/{src} for export mode failed");
            parts.push(bc);
        }
        let linked = out.join(format!("export_{variant}_linked.bc"));
        let status = Command::new(tool("llvm-link")).args(&parts).arg("-o").arg(&linked).status().expect("llvm-link-19 runs");
        assert!(status.success(), "llvm-link of the export runtime failed");
        let done = out.join(format!("tsoify_export_{variant}.bc"));
        let status = Command::new(tool("opt")).arg("-passes=sroa,simplifycfg").arg(&linked).arg("-o").arg(&done).status().expect("opt-19 runs");
        assert!(status.success(), "opt on the export runtime failed");
    }
    // glue for one checker, linked into the export as it is (--export-for)
    println!("cargo:rerun-if-changed=src/export_genmc.c");
    let raw = out.join("export_genmc.bc");
    let status = Command::new(tool("clang"))
        // as above: -O1 would turn calloc's loop into llvm.memset
        .args(["-O0", "-Xclang", "-disable-O0-optnone", "-std=gnu11", "-fno-stack-protector", "-Wall", "-Werror"])
        .args(["-emit-llvm", "-c", "src/export_genmc.c", "-o"])
        .arg(&raw)
        .status()
        .expect("clang-19 runs (set LLVM_SYS_191_PREFIX)");
    assert!(status.success(), "compiling src/export_genmc.c failed");
    let glue = out.join("tsoify_export_genmc_glue.bc");
    let status = Command::new(tool("opt")).arg("-passes=sroa,simplifycfg").arg(&raw).arg("-o").arg(&glue).status().expect("opt-19 runs");
    assert!(status.success(), "opt on the GenMC glue failed");
}
