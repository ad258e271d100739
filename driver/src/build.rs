//! Building an instrumented program: clang -> instrumentation pass -> link
//! with the runtime. The runtime library and the user header are embedded in
//! this binary, so an installed `tsoify` needs only clang-19 beside it.

use crate::datamodel::DataModel;
use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

const USER_HEADER: &str = include_str!("../../include/tsoify.h");

#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// 0 sc, 1 tso, 2 pso: the default model baked into the program
    pub model: u32,
    pub bound: u32,
    pub allow_unsupported: bool,
    /// -I, -D and other flags handed to clang
    pub clang_flags: Vec<String>,
    pub verbose: bool,
    /// fences to insert (`--with-fences`, fence inference)
    pub fences: Vec<tsoify_pass::FencePoint>,
    /// LP64, or ILP32 built with -m32 and linked with the 32-bit runtime
    pub data_model: DataModel,
}

/// Read a fence list (`--with-fences FILE`): the JSON that
/// `verify --infer-fences --fences-json` writes, a list of
/// {"file", "line", "col", "function", "store_store"}.
pub fn read_fences(path: &Path) -> Result<Vec<tsoify_pass::FencePoint>> {
    let text = std::fs::read_to_string(path).map_err(|e| input_error(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        input_error(format!(
            "{}: not a fence list: {e}; hint: write it with verify --infer-fences --fences-json FILE",
            path.display()
        ))
    })
}

/// An input error: reported as one line, exit code 3.
#[derive(Debug)]
pub struct InputError(pub String);
impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for InputError {}

fn input_error(msg: String) -> anyhow::Error {
    anyhow!(InputError(msg))
}

/// Find an LLVM 19 tool: `NAME-19` on PATH, else /usr/lib/llvm-19/bin/NAME.
pub fn llvm_tool(name: &str) -> Result<PathBuf> {
    let versioned = format!("{name}-19");
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(&versioned);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    let p = Path::new("/usr/lib/llvm-19/bin").join(name);
    if p.is_file() {
        return Ok(p);
    }
    Err(input_error(format!("{versioned} not found; hint: apt-get install clang-19 llvm-19 (scripts/demo installs them)")))
}

pub struct Workdir {
    pub dir: tempfile::TempDir,
}

impl Workdir {
    pub fn new() -> Result<Workdir> {
        let dir = tempfile::Builder::new().prefix("tsoify-").tempdir()?;
        std::fs::create_dir_all(dir.path().join("include"))?;
        std::fs::write(dir.path().join("include/tsoify.h"), USER_HEADER)?;
        Ok(Workdir { dir })
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// Run a tool of the build (clang) for `dm`; its first error is the
/// one-line message. A 32-bit build that fails for want of the 32-bit C
/// library says how to get it.
fn run_tool_as(cmd: &mut Command, what: &str, input: &Path, dm: DataModel) -> Result<()> {
    let out = cmd.output().with_context(|| format!("cannot run {:?}", cmd.get_program()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().find(|l| l.contains("error")).unwrap_or(stderr.lines().next().unwrap_or("")).trim().to_string();
        let hint = dm.missing_files_hint(&first).map(|h| format!(" (building ILP32, -m32); hint: {h}")).unwrap_or_default();
        bail!(InputError(format!("{what} {} failed: {first}{hint}", input.display())));
    }
    Ok(())
}

/// C (or .i) -> unoptimised bitcode with debug info and value names, locals
/// promoted to registers. We model the hardware, not the compiler: at this
/// level every C access to shared memory is still one load or store.
fn compile_c(wd: &Workdir, input: &Path, opts: &BuildOptions) -> Result<PathBuf> {
    let raw = wd.path("prog.bc");
    let mut cmd = Command::new(llvm_tool("clang")?);
    cmd.args(["-O0", "-Xclang", "-disable-O0-optnone", "-g", "-fno-discard-value-names", "-emit-llvm", "-c"])
        .args(["-fgnu89-inline", "-w", "-fno-builtin"])
        // C that compilers accepted before clang 16 and gcc 14 made these
        // errors (many SV-COMP tasks pass pointers as ints, e.g. sigma.i)
        .args(["-Wno-error=int-conversion", "-Wno-error=incompatible-pointer-types", "-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int"])
        .arg("-I")
        .arg(wd.path("include"))
        .args(opts.data_model.clang_flags())
        .args(&opts.clang_flags);
    if input.extension().is_some_and(|e| e == "i") {
        cmd.args(["-x", "cpp-output"]);
    }
    cmd.arg(input).arg("-o").arg(&raw);
    run_tool_as(&mut cmd, "compiling", input, opts.data_model)?;
    let promoted = wd.path("prog.sroa.bc");
    tsoify_pass::promote_file(&raw, &promoted).map_err(|e| input_error(format!("{}: {e}", input.display())))?;
    Ok(promoted)
}

/// C++ the same way, with clang++-19 and libstdc++. Built without
/// exceptions: tsoify does not model them, so a `throw` or `try` is refused
/// here, at its line (the pass also refuses `__cxa_throw` in IR given as
/// .ll/.bc). The library's threads, mutexes and condition variables reach
/// the runtime through the pass (pass/src/redirect.rs, runtime/src/cxx.c).
fn compile_cxx(wd: &Workdir, input: &Path, opts: &BuildOptions) -> Result<PathBuf> {
    let raw = wd.path("prog.bc");
    let mut cmd = Command::new(llvm_tool("clang++")?);
    cmd.args(["-O0", "-Xclang", "-disable-O0-optnone", "-g", "-fno-discard-value-names", "-emit-llvm", "-c"])
        // C++20 (std::jthread, std::latch, atomic waits), unless the flags say otherwise
        .args(["-std=gnu++20", "-w", "-fno-builtin", "-fno-exceptions"])
        .arg("-I")
        .arg(wd.path("include"))
        .args(opts.data_model.clang_flags())
        .args(&opts.clang_flags);
    if input.extension().is_some_and(|e| e == "ii") {
        cmd.args(["-x", "c++-cpp-output"]);
    }
    cmd.arg(input).arg("-o").arg(&raw);
    let out = cmd.output().with_context(|| format!("cannot run {:?}", cmd.get_program()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        if let Some(msg) = exceptions_refused(&stderr) {
            bail!(InputError(msg));
        }
        run_tool_as(&mut cmd, "compiling", input, opts.data_model)?;
    }
    // the library's header code folded into the user's functions
    // (pass/src/cxx.rs, mark_library_inline)
    let promoted = wd.path("prog.sroa.bc");
    tsoify_pass::prepare_cxx_file(&raw, &promoted).map_err(|e| input_error(format!("{}: {e}", input.display())))?;
    Ok(promoted)
}

/// clang's "cannot use 'throw' with exceptions disabled" as our refusal:
/// the construct and its line.
fn exceptions_refused(clang_stderr: &str) -> Option<String> {
    for line in clang_stderr.lines() {
        let Some((place, rest)) = line.split_once(": error: cannot use '") else { continue };
        let Some((what, _)) = rest.split_once("' with exceptions disabled") else { continue };
        // "dir/prog.cpp:12:5"
        let mut parts = place.rsplitn(3, ':');
        let (_col, line_no, file) = (parts.next(), parts.next().unwrap_or("?"), parts.next().unwrap_or(place));
        let file = Path::new(file).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        return Some(format!(
            "unsupported: C++ exception (`{what}`) at {file}:{line_no}: tsoify does not model exceptions; hint: report the failure another way (assert, a return value)"
        ));
    }
    None
}

/// What a file holds, by its extension.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SourceKind {
    /// .c, .i
    C,
    /// .cpp, .cc, .cxx, .C, .ii
    Cxx,
    /// .ll, .bc
    Ir,
}

/// The kind of `path` if tsoify builds it, `None` for anything else (an
/// already built program).
pub fn source_kind(path: &Path) -> Option<SourceKind> {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "c" | "i" => Some(SourceKind::C),
        "cpp" | "cc" | "cxx" | "C" | "ii" => Some(SourceKind::Cxx),
        "ll" | "bc" => Some(SourceKind::Ir),
        _ => None,
    }
}

/// The IR to instrument for `input`: compiled, or `input` itself.
fn source_ir(wd: &Workdir, input: &Path, opts: &BuildOptions) -> Result<PathBuf> {
    if !input.exists() {
        bail!(InputError(format!("{}: no such file", input.display())));
    }
    match source_kind(input) {
        Some(SourceKind::C) => compile_c(wd, input, opts),
        Some(SourceKind::Cxx) if opts.data_model == DataModel::ILP32 => bail!(InputError(format!("{}: {CXX_ILP32}", input.display()))),
        Some(SourceKind::Cxx) => compile_cxx(wd, input, opts),
        Some(SourceKind::Ir) => Ok(input.to_path_buf()),
        None => bail!(InputError(format!("{}: expected a .c, .i, .cpp (.cc, .cxx, .C, .ii), .ll or .bc file", input.display()))),
    }
}

/// Instrument `input` (C, C++ or LLVM IR, see `source_kind`) and return the instrumented module.
pub fn instrument(wd: &Workdir, input: &Path, opts: &BuildOptions) -> Result<tsoify_pass::Instrumented> {
    let ir = source_ir(wd, input, opts)?;
    let popts = pass_options(opts);
    let m = tsoify_pass::instrument_file(&ir, &popts).map_err(|e| input_error(format!("{}: {e}", input.display())))?;
    check_pointer_width(input, &m, opts.data_model)?;
    if let Some(f) = m.unplaced_fences.first() {
        bail!(InputError(format!(
            "fence point {}:{}:{} matches no store to shared memory in {}; hint: a point names the store a fence follows, as verify --infer-fences writes it",
            f.file,
            f.line,
            f.col,
            input.display()
        )));
    }
    Ok(m)
}

/// C++ is 64-bit only: the runtime's stand-ins for libstdc++ are matched
/// by LP64 mangled names (`_Znwm`, i386 has `_Znwj`) and layouts.
const CXX_ILP32: &str = "C++ is supported under LP64 only, not --data-model ILP32 (the runtime models libstdc++'s 64-bit names and layouts); hint: leave --data-model out";

/// IR given as it is (.ll, .bc) was compiled for a data model already: the
/// runtime linked to it must be of the same width.
fn check_pointer_width(input: &Path, m: &tsoify_pass::Instrumented, dm: DataModel) -> Result<()> {
    let (bits, want) = (m.pointer_bits(), if dm == DataModel::ILP32 { 32 } else { 64 });
    if dm == DataModel::ILP32 && m.needs_cxx_library() {
        bail!(InputError(format!("{}: {CXX_ILP32}", input.display())));
    }
    if bits != want {
        let other = if bits == 32 { "ILP32" } else { "LP64" };
        bail!(InputError(format!(
            "{}: the module has {bits}-bit pointers, but the data model is {dm:?}; hint: pass --data-model {other}, or compile it with{} -m32",
            input.display(),
            if bits == 32 { "out" } else { "" }
        )));
    }
    Ok(())
}

fn pass_options(opts: &BuildOptions) -> tsoify_pass::Options {
    tsoify_pass::Options {
        default_model: opts.model,
        default_bound: opts.bound,
        allow_unsupported: opts.allow_unsupported,
        export: false,
        fences: opts.fences.clone(),
    }
}

/// How the exported runtime makes each of its operations atomic for the
/// checker (`tsoify --export-atomic`).
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub enum ExportAtomic {
    /// `__VERIFIER_atomic_begin/end` around each operation
    Atomic,
    /// one global pthread mutex, for checkers without atomic blocks
    Mutex,
}

/// How buffered stores reach memory in an export (`tsoify --export-flush`).
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub enum ExportFlush {
    /// flushes chosen at the operations that can observe them, each choice
    /// a bounded `__VERIFIER_nondet_uint()`: for checkers that enumerate
    /// nondet values (our SC mode, bounded model checkers)
    Choice,
    /// flusher pthreads empty the buffers: the relaxed behaviours are plain
    /// interleavings, for stateless model checkers (Nidhugg, GenMC) that
    /// explore schedules but not nondet values
    Threads,
}

/// The checker an export is made for (`tsoify --export-for`): picks the
/// --export-atomic and --export-flush it needs and links its glue.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub enum ExportFor {
    /// Nidhugg (`nidhugg --sc --optimal`): mutexes and flusher threads
    Nidhugg,
    /// GenMC (`genmc --sc --disable-race-detection`): mutexes, flusher
    /// threads, and glue that maps the pthread, assert and heap functions
    /// to GenMC's own primitives
    Genmc,
}

impl ExportFor {
    pub fn atomic(self) -> ExportAtomic {
        ExportAtomic::Mutex
    }
    pub fn flush(self) -> ExportFlush {
        ExportFlush::Threads
    }
    fn glue(self) -> Option<&'static [u8]> {
        match self {
            ExportFor::Nidhugg => None,
            ExportFor::Genmc => Some(tsoify_runtime::EXPORT_GENMC_GLUE_BC),
        }
    }
}

/// How to export: the atomicity and flushing of the runtime's steps, and
/// the checker whose glue to link, if any.
#[derive(Clone, Copy, Debug)]
pub struct ExportOptions {
    pub atomic: ExportAtomic,
    pub flush: ExportFlush,
    pub checker: Option<ExportFor>,
}

/// The largest --buffer-size an export accepts (RT_EXPORT_MAX_BOUND in
/// runtime/src/rt.h: the exported buffers are fixed-size arrays).
pub const EXPORT_MAX_BOUND: u32 = 32;

/// `tsoify --export`: `input` with the runtime's store buffers linked in,
/// as one module for an SC model checker (runtime/ABI.md "Export mode").
pub fn export(wd: &Workdir, input: &Path, opts: &BuildOptions, how: ExportOptions) -> Result<tsoify_pass::Instrumented> {
    if opts.bound == 0 {
        bail!(InputError(
            "--export needs bounded store buffers, but --buffer-size is 0 (unbounded); hint: pass --buffer-size K with 1 <= K <= 32 (the exported buffers are fixed-size arrays)".into()
        ));
    }
    if opts.bound > EXPORT_MAX_BOUND {
        bail!(InputError(format!(
            "--export supports --buffer-size up to {EXPORT_MAX_BOUND}, not {}; hint: pass a smaller K (the exported buffers are fixed-size arrays)",
            opts.bound
        )));
    }
    if opts.data_model == DataModel::ILP32 {
        // the export runtime's bitcode is 64-bit (runtime/build.rs)
        bail!(InputError("--export builds 64-bit (LP64) only, not --data-model ILP32; hint: leave --data-model out, or check the program with verify --data-model ILP32".into()));
    }
    let ir = source_ir(wd, input, opts)?;
    let runtime = match (how.atomic, how.flush) {
        _ if how.checker == Some(ExportFor::Genmc) => tsoify_runtime::EXPORT_GENMC_BC,
        (ExportAtomic::Atomic, ExportFlush::Choice) => tsoify_runtime::EXPORT_ATOMIC_BC,
        (ExportAtomic::Mutex, ExportFlush::Choice) => tsoify_runtime::EXPORT_MUTEX_BC,
        (ExportAtomic::Atomic, ExportFlush::Threads) => tsoify_runtime::EXPORT_ATOMIC_FLUSHERS_BC,
        (ExportAtomic::Mutex, ExportFlush::Threads) => tsoify_runtime::EXPORT_MUTEX_FLUSHERS_BC,
    };
    let glue = how.checker.and_then(ExportFor::glue);
    tsoify_pass::export_file(&ir, &pass_options(opts), runtime, glue).map_err(|e| input_error(format!("{}: {e}", input.display())))
}

/// Link an instrumented module with the runtime into a native executable.
/// `data_model` picks the runtime (64- or 32-bit) and clang's -m32; `kind`
/// is what the module was built from (C programs, and IR that calls no C++,
/// are linked without libstdc++, which a 32-bit machine may lack).
pub fn link(wd: &Workdir, module: &tsoify_pass::Instrumented, output: &Path, data_model: DataModel, kind: Option<SourceKind>) -> Result<()> {
    let bc = wd.path("prog.inst.bc");
    module.write_bc(&bc)?;
    let runtime = wd.path("libtsoify_rt.a");
    std::fs::write(&runtime, data_model.runtime().map_err(input_error)?)?;
    let mut cmd = Command::new(llvm_tool("clang")?);
    cmd.args(["-O2", "-w"]).args(data_model.clang_flags()).arg(&bc).arg(&runtime).arg("-o").arg(output).arg("-lpthread");
    // C++ programs need libstdc++ (its vtables and type info, the parts of
    // the library the runtime does not stand in for); C programs do not
    // get a dependency on it
    if kind == Some(SourceKind::Cxx) || module.needs_cxx_library() {
        cmd.args(["-Wl,--as-needed", "-lstdc++", "-Wl,--no-as-needed"]);
    }
    let out = cmd.output().with_context(|| format!("cannot run {:?}", cmd.get_program()))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(msg) = undefined_functions(&stderr) {
        bail!(InputError(msg));
    }
    run_tool_as(&mut cmd, "linking", output, data_model)
}

/// The linker's "undefined reference" lines as one error: the first
/// function with where it is called, and how many more there are.
fn undefined_functions(linker_stderr: &str) -> Option<String> {
    let mut found: Vec<(String, String)> = vec![]; // (name, file:line)
    for line in linker_stderr.lines() {
        let Some((place, rest)) = line.split_once(": undefined reference to `") else { continue };
        let name = rest.trim_end_matches('\'').to_string();
        // "/usr/bin/ld: /path/prog.c:4" or "/path/prog.c:4"
        let place = place.rsplit(": ").next().unwrap_or(place);
        let place = Path::new(place).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        if !found.iter().any(|(n, _)| *n == name) {
            found.push((name, place));
        }
    }
    let (name, place) = found.first()?;
    let more = match found.len() {
        1 => String::new(),
        n => format!(" (and {} more: {})", n - 1, found[1..].iter().map(|(n, _)| format!("`{n}`")).collect::<Vec<_>>().join(", ")),
    };
    let hint = if name.starts_with("__VERIFIER_") {
        "tsoify knows __VERIFIER_nondet_<type>, __VERIFIER_assume, __VERIFIER_atomic_begin/end and __VERIFIER_atomic_* functions the program defines"
    } else {
        "define it in the program (tsoify builds one source file)"
    };
    Some(format!("{place}: call to `{name}`, which is defined nowhere (not in the program, the C library or tsoify's runtime){more}; hint: {hint}"))
}

/// The whole of `tsoify`: build `input` into the executable `output`.
pub fn build(input: &Path, output: &Path, opts: &BuildOptions) -> Result<tsoify_pass::Instrumented> {
    let wd = Workdir::new()?;
    // no 32-bit runtime: refused before anything is compiled
    opts.data_model.runtime().map_err(input_error)?;
    let m = instrument(&wd, input, opts)?;
    link(&wd, &m, output, opts.data_model, source_kind(input))?;
    Ok(m)
}

pub fn parse_model(s: &str) -> Result<u32, String> {
    match s {
        "sc" => Ok(0),
        "tso" => Ok(1),
        "pso" => Ok(2),
        _ => Err(format!("unknown memory model `{s}` (expected sc, tso or pso)")),
    }
}

pub fn model_name(m: u32) -> &'static str {
    ["sc", "tso", "pso"].get(m as usize).copied().unwrap_or("?")
}
