//! Command-line pieces shared by `tsoify` and `verify`.

use clap::Args;

/// How to build a C program (shared by `tsoify` and `verify prog.c`).
#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    /// Add DIR to clang's include path (passed to clang).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<String>,
    /// Define a macro, NAME or NAME=VALUE (passed to clang).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Any other flag for clang, e.g. --clang-flag=-std=c11 (repeatable).
    #[arg(long = "clang-flag", value_name = "FLAG", allow_hyphen_values = true)]
    pub clang_flag: Vec<String>,
    /// Instrument constructs tsoify cannot model (inline asm, unknown external
    /// calls with pointers, thread-locals) instead of refusing them; the
    /// verdict then names them.
    #[arg(long)]
    pub allow_unsupported: bool,
    /// Insert fences from FILE (the JSON list `verify --infer-fences
    /// --fences-json FILE` writes; edit it by hand to try another set): a full
    /// fence, or under PSO a store-store barrier, right after each store named.
    #[arg(long, value_name = "FILE")]
    pub with_fences: Option<std::path::PathBuf>,
    /// Build for this data model: LP64 (64-bit long and pointers, the
    /// default) or ILP32 (32-bit, built with clang -m32 for i386 Linux and
    /// linked with the 32-bit runtime; needs Debian's libc6-dev-i386 and
    /// lib32gcc-12-dev). `verify --svcomp` takes it from the task's
    /// options.data_model by default.
    #[arg(long, value_name = "MODEL", value_parser = crate::datamodel::DataModel::parse)]
    pub data_model: Option<crate::datamodel::DataModel>,
}

impl BuildArgs {
    /// The fences of --with-fences (exits with a usage error if FILE is bad).
    pub fn fences(&self) -> anyhow::Result<Vec<tsoify_pass::FencePoint>> {
        match &self.with_fences {
            Some(path) => crate::build::read_fences(path),
            None => Ok(vec![]),
        }
    }
    pub fn clang_flags(&self) -> Vec<String> {
        let mut f: Vec<String> = self.include.iter().map(|i| format!("-I{i}")).collect();
        f.extend(self.define.iter().map(|d| format!("-D{d}")));
        f.extend(self.clang_flag.iter().cloned());
        f
    }
}

/// Parse the command line; a usage error exits with 3 (2 means UNKNOWN for
/// `verify`), --help and --version with 0.
pub fn parse<T: clap::Parser>() -> T {
    match T::try_parse() {
        Ok(t) => t,
        Err(e) => {
            let code = if e.use_stderr() { crate::exit::USAGE } else { 0 };
            let _ = e.print();
            std::process::exit(code)
        }
    }
}
