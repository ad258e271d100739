//! `tsoify`: build a C/pthreads program into an executable that `verify`
//! can explore under SC, x86-TSO or PSO.

use clap::Parser;
use std::path::PathBuf;
use tsoify::build::{self, BuildOptions};
use tsoify::cli::BuildArgs;
use tsoify::exit;

#[derive(Parser, Debug)]
#[command(
    name = "tsoify",
    version,
    about = "Instrument a C/pthreads program so `verify` can explore it under relaxed memory",
    long_about = "Compiles PROGRAM with clang-19 (debug info, no optimisation of memory accesses), rewrites \
every load, store, fence, atomic and memcpy/memset that may touch shared memory into a call to the tsoify \
runtime, redirects pthread and __VERIFIER_* calls, and links the runtime in. The result is a native \
executable: give it to `verify` to check every execution.",
    after_help = "EXAMPLES:\n  tsoify dekker.c                 # writes dekker.tso\n  tsoify --export --buffer-size 2 dekker.c   # writes dekker.sc.bc, TSO encoded for any SC checker\n  verify --model sc dekker.sc.bc  # ... such as our own SC mode\n  tsoify --export --export-for nidhugg --buffer-size 1 --emit-llvm prog.c\n                                  # writes prog.sc.ll for Nidhugg: nidhugg --sc --optimal prog.sc.ll\n  tsoify --export --export-for genmc --buffer-size 1 --emit-llvm prog.c\n                                  # for GenMC: genmc --sc --disable-race-detection --input-from-bitcode-file prog.sc.ll\n  verify dekker.tso               # explore every x86-TSO execution\n  verify --model sc dekker.tso    # the same program under sequential consistency\n  tsoify --emit-llvm dekker.c     # writes dekker.tso.ll, the instrumented IR, to read\n\nEXIT CODES: 0 built, 3 the input could not be built or the options do not fit (the message says why)."
)]
struct Cli {
    /// The program: C source (.c, preprocessed .i) or LLVM IR (.ll, .bc).
    program: PathBuf,
    /// Output file (default: PROGRAM with extension .tso, or .tso.ll with --emit-llvm).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Memory model the program uses when run without `verify --model`: sc, tso or pso.
    #[arg(long, default_value = "tso", value_parser = build::parse_model)]
    model: u32,
    /// Store-buffer bound K (entries per thread) used when run without
    /// `verify --buffer-size`; 0 means unbounded.
    #[arg(long, default_value_t = 32)]
    buffer_size: u32,
    /// Write the instrumented LLVM IR (.ll) instead of an executable.
    #[arg(long)]
    emit_llvm: bool,
    /// Export mode: write one LLVM module (default PROGRAM.sc.bc, .sc.ll with
    /// --emit-llvm) in which --model is encoded with the runtime's store
    /// buffers as plain code, for any SC model checker (Nidhugg, GenMC,
    /// `verify --model sc`). Needs a bounded --buffer-size (1 to 32).
    #[arg(long)]
    export: bool,
    /// With --export: how each runtime operation is made atomic for the
    /// checker: `atomic` (__VERIFIER_atomic_begin/end) or `mutex` (pthread
    /// mutexes, for checkers without atomic blocks; with `--export-flush
    /// threads` one per store buffer, so that steps of different threads on
    /// different variables commute).
    /// [default: atomic, or what --export-for needs]
    #[arg(long, value_enum, requires = "export")]
    export_atomic: Option<build::ExportAtomic>,
    /// With --export: how buffered stores reach memory: `choice` (at each
    /// operation that can observe them, flushes picked with
    /// __VERIFIER_nondet_uint, for checkers that enumerate nondet values,
    /// such as `verify --model sc`) or `threads` (flusher pthreads, so every
    /// relaxed behaviour is an interleaving: for Nidhugg and GenMC).
    /// [default: choice, or what --export-for needs]
    #[arg(long, value_enum, requires = "export")]
    export_flush: Option<build::ExportFlush>,
    /// With --export: make the export for this checker: `nidhugg` sets
    /// `--export-atomic mutex --export-flush threads`; `genmc` sets the same
    /// and links glue that maps the pthread, assert and heap functions to
    /// GenMC's own primitives (GenMC does not model glibc's).
    #[arg(long, value_enum, requires = "export")]
    export_for: Option<build::ExportFor>,
    #[command(flatten)]
    build: BuildArgs,
}

/// How an option value is spelled on the command line.
fn value_name<T: clap::ValueEnum>(v: T) -> String {
    v.to_possible_value().map(|p| p.get_name().to_string()).unwrap_or_default()
}

/// --export-atomic and --export-flush, filled in from --export-for; a
/// choice the checker cannot use is an error rather than silently replaced.
fn export_options(cli: &Cli) -> anyhow::Result<build::ExportOptions> {
    let Some(checker) = cli.export_for else {
        return Ok(build::ExportOptions {
            atomic: cli.export_atomic.unwrap_or(build::ExportAtomic::Atomic),
            flush: cli.export_flush.unwrap_or(build::ExportFlush::Choice),
            checker: None,
        });
    };
    if let Some(a) = cli.export_atomic.filter(|&a| a != checker.atomic()) {
        anyhow::bail!(
            "--export-for {} needs --export-atomic {}, not {}; hint: leave --export-atomic out",
            value_name(checker),
            value_name(checker.atomic()),
            value_name(a)
        );
    }
    if let Some(f) = cli.export_flush.filter(|&f| f != checker.flush()) {
        anyhow::bail!(
            "--export-for {} needs --export-flush {}, not {}; hint: leave --export-flush out",
            value_name(checker),
            value_name(checker.flush()),
            value_name(f)
        );
    }
    Ok(build::ExportOptions { atomic: checker.atomic(), flush: checker.flush(), checker: Some(checker) })
}

fn main() {
    let cli: Cli = tsoify::cli::parse();
    let opts = BuildOptions {
        model: cli.model,
        bound: cli.buffer_size,
        allow_unsupported: cli.build.allow_unsupported,
        clang_flags: cli.build.clang_flags(),
        verbose: false,
        fences: cli.build.fences().unwrap_or_else(|e| {
            eprintln!("tsoify: {e}");
            std::process::exit(exit::USAGE)
        }),
        data_model: cli.build.data_model.unwrap_or_default(),
    };
    let result = (|| -> anyhow::Result<PathBuf> {
        let wd = build::Workdir::new()?;
        // no 32-bit runtime: refused before anything is compiled
        opts.data_model.runtime().map_err(anyhow::Error::msg)?;
        if cli.export {
            let how = export_options(&cli)?;
            if how.flush == build::ExportFlush::Threads && build::model_name(cli.model) == "pso" && cli.buffer_size > 2 {
                eprintln!(
                    "tsoify: note: under PSO each thread gets --buffer-size ({}) flusher threads; a checker explores far fewer interleavings with --buffer-size 1 or 2",
                    cli.buffer_size
                );
            }
            let m = build::export(&wd, &cli.program, &opts, how)?;
            let ext = if cli.emit_llvm { "sc.ll" } else { "sc.bc" };
            let out = cli.output.clone().unwrap_or_else(|| cli.program.with_extension(ext));
            if cli.emit_llvm { m.write_ll(&out)? } else { m.write_bc(&out)? }
            return Ok(out);
        }
        let m = build::instrument(&wd, &cli.program, &opts)?;
        for w in &m.warnings {
            eprintln!("tsoify: warning: allowed unsupported construct: {w}");
        }
        if cli.emit_llvm {
            let out = cli.output.clone().unwrap_or_else(|| cli.program.with_extension("tso.ll"));
            m.write_ll(&out)?;
            Ok(out)
        } else {
            let out = cli.output.clone().unwrap_or_else(|| cli.program.with_extension("tso"));
            build::link(&wd, &m, &out, opts.data_model, build::source_kind(&cli.program))?;
            Ok(out)
        }
    })();
    match result {
        Ok(out) => eprintln!("tsoify: wrote {}", out.display()),
        Err(e) => {
            eprintln!("tsoify: {e}");
            // input that cannot be built and failures around it are both exit 3
            std::process::exit(exit::USAGE);
        }
    }
}
