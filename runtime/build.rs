// Builds the C runtime into a static library (libtsoify_rt.a) that the
// driver links into every instrumented program. The path of the library is
// exported to the driver as DEP_TSOIFY_RT_LIB_DIR.
fn main() {
    let sources = ["choice.c", "threads.c", "memmodel.c", "api.c", "libc.c", "server.c", "await.c"];
    let mut build = cc::Build::new();
    for s in sources {
        build.file(format!("src/{s}"));
        println!("cargo:rerun-if-changed=src/{s}");
    }
    println!("cargo:rerun-if-changed=src/rt.h");
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
    println!("cargo:rustc-env=TSOIFY_RT_LIB_DIR={out}");
}
