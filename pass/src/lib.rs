//! tsoify's instrumentation pass.
//!
//! Input: an LLVM module (`.ll` or `.bc`) compiled from C with debug info.
//! Output: the same module in which every memory operation that may touch
//! shared memory is a call into the tsoify runtime (runtime/ABI.md), thread
//! and sync calls are redirected to the runtime, `main` is renamed so the
//! runtime's own `main` can drive it, and two tables (source locations,
//! globals) are added for readable traces.

mod concolic;
mod cxx;
mod escape;
mod export;
mod ir;
mod locations;
mod loops;
mod module;
mod redirect;
mod rewrite;
mod tls;

pub use module::{Instrumented, PassError};

/// How many threads the native runtime runs at most (RT_MAX_THREADS in
/// runtime/src/rt.h): one copy of each thread-local variable per thread.
pub const MAX_THREADS: u32 = 64;
/// The same for the export runtime (rt.h under TSOIFY_EXPORT).
pub const EXPORT_MAX_THREADS: u32 = 16;

/// Choices baked into the instrumented program. Both can be overridden when
/// it runs (`verify --model/--buffer-size`), so one build serves every
/// configuration.
#[derive(Clone, Debug)]
pub struct Options {
    /// 0 = SC, 1 = TSO, 2 = PSO (runtime/include/tsoify_channel.h)
    pub default_model: u32,
    /// store-buffer bound K; 0 = unbounded
    pub default_bound: u32,
    /// turn refusals into warnings that travel with the program
    pub allow_unsupported: bool,
    /// export mode (`tsoify --export`): keep `main` and the program's own
    /// __VERIFIER_*/assert/exit calls, no tables; see export.rs
    pub export: bool,
    /// fences to insert (`--with-fences`): each after the stores at a source position
    pub fences: Vec<FencePoint>,
}

/// A program point where a fence goes: right after the store(s) at
/// `file:line:col` (file compared by its last path component).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct FencePoint {
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// the function the store is in (informative)
    #[serde(default)]
    pub function: String,
    /// only order the store before later stores (a PSO store-store barrier,
    /// a release fence), not before later loads (a full fence)
    #[serde(default)]
    pub store_store: bool,
}

impl FencePoint {
    pub fn matches(&self, file: &str, line: u32, col: u32) -> bool {
        let base = |f: &str| f.rsplit('/').next().unwrap_or(f).to_string();
        self.line == line && self.col == col && base(&self.file) == base(file)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options { default_model: 1, default_bound: 32, allow_unsupported: false, export: false, fences: vec![] }
    }
}

/// Instrument the module in `path` (`.ll` or `.bc`).
pub fn instrument_file(path: &std::path::Path, opts: &Options) -> Result<Instrumented, PassError> {
    let m = module::Module::parse_file(path)?;
    native(m, opts)
}

/// An export (see `export_file`) is instrumented like any program, except
/// that its choice point becomes the native runtime's.
fn native(m: module::Module, opts: &Options) -> Result<Instrumented, PassError> {
    export::import(m.m);
    rewrite::run(m, opts)
}

/// Export mode: instrument the module in `path` for the model and bound in
/// `opts` and link the export runtime (`runtime`, bitcode) into it, and a
/// checker's `glue` if given; the result is one self-contained module for
/// an SC checker.
pub fn export_file(path: &std::path::Path, opts: &Options, runtime: &[u8], glue: Option<&[u8]>) -> Result<Instrumented, PassError> {
    let m = module::Module::parse_file(path)?;
    let out = rewrite::run(m, &Options { export: true, ..opts.clone() })?;
    export::link_runtime(&out.module, runtime, glue)?;
    Ok(out)
}

/// Instrument a module given as LLVM assembly text (used by tests).
pub fn instrument_ir(text: &str, opts: &Options) -> Result<Instrumented, PassError> {
    let m = module::Module::parse_text(text)?;
    native(m, opts)
}

/// The compiled C in `input` with its locals promoted to registers (LLVM's
/// `sroa`), written to `output` as bitcode. In this process: an `opt`
/// process for it cost a start of libLLVM (about 50 ms of wall time on the
/// test machine), and tsoify has LLVM loaded already.
pub fn promote_file(input: &std::path::Path, output: &std::path::Path) -> Result<(), PassError> {
    let m = module::Module::parse_file(input)?;
    m.run_passes(c"sroa")?;
    m.write_bc(output)
}

/// C++ preparation: mark the library-header functions of the module in
/// `input` always-inline (cxx.rs), inline them and promote locals to
/// registers (`always-inline,sroa`), and write it to `output` as bitcode;
/// returns how many functions were marked.
pub fn prepare_cxx_file(input: &std::path::Path, output: &std::path::Path) -> Result<usize, PassError> {
    let m = module::Module::parse_file(input)?;
    let n = cxx::mark_library_inline(m.m);
    m.run_passes(c"always-inline,sroa")?;
    m.write_bc(output)?;
    Ok(n)
}
