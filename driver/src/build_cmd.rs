//! Building a program for `verify` by running the `tsoify` binary.
//!
//! `verify` accepts source (.c, .i, .ll, .bc) and rebuilds programs with
//! fences (`--infer-fences`); it used to call `build::build` itself, and
//! so linked libLLVM, whose start alone (340,000 relocations, 2,500 page
//! faults) cost about 12 ms of CPU and 20-60 ms of wall time on the test
//! machine: every `verify prog.tso`, most of them on an instrumented
//! program that needs no LLVM at all, paid it (dekker under TSO: 53 ms of
//! wall time, 11 without). Now the build runs in a `tsoify` process and
//! `verify` does not load libLLVM.

use crate::build::{model_name, BuildOptions, InputError};
use anyhow::{anyhow, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// tsoify's prefix for a construct `--allow-unsupported` let through
/// (bin/tsoify.rs prints one line per warning).
const WARNING: &str = "tsoify: warning: allowed unsupported construct: ";

/// The `tsoify` next to the running executable, else the one on PATH.
pub fn tsoify_binary() -> PathBuf {
    let beside = std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.join("tsoify")));
    beside.filter(|p| p.is_file()).unwrap_or_else(|| PathBuf::from("tsoify"))
}

/// The command line that builds `input` into `output` as `opts` say; a
/// fence list goes through a file (`--with-fences`) written into `scratch`.
fn command(input: &Path, output: &Path, opts: &BuildOptions, scratch: &Path) -> Result<Command> {
    let mut cmd = Command::new(tsoify_binary());
    cmd.arg(input).arg("-o").arg(output);
    cmd.args(["--model", model_name(opts.model)]).arg("--buffer-size").arg(opts.bound.to_string());
    cmd.arg("--data-model").arg(opts.data_model.name());
    if opts.allow_unsupported {
        cmd.arg("--allow-unsupported");
    }
    // (-I and -D are clang flags too: `BuildArgs::clang_flags`)
    cmd.args(opts.clang_flags.iter().map(|f| format!("--clang-flag={f}")));
    if !opts.fences.is_empty() {
        let list = scratch.join(format!("{}.fences.json", output.file_name().and_then(|n| n.to_str()).unwrap_or("prog")));
        std::fs::write(&list, serde_json::to_string(&opts.fences)?).map_err(|e| anyhow!("cannot write {}: {e}", list.display()))?;
        cmd.arg("--with-fences").arg(list);
    }
    Ok(cmd)
}

/// Build `input` into `output` with the `tsoify` binary; returns the
/// constructs `--allow-unsupported` let through. tsoify's own message is
/// the error (an `InputError` where tsoify refused the input: exit 3).
pub fn build(input: &Path, output: &Path, opts: &BuildOptions, scratch: &Path) -> Result<Vec<String>> {
    let mut cmd = command(input, output, opts, scratch)?;
    let out = cmd.output().map_err(|e| {
        anyhow!("cannot run {} to build {} ({e}); hint: put tsoify beside verify or on PATH, or build with tsoify first and give verify the .tso", tsoify_binary().display(), input.display())
    })?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        // tsoify says what went wrong in one line, "tsoify: <reason>"
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        let reason = lines.iter().rev().find_map(|l| l.strip_prefix("tsoify: ")).map_or_else(|| lines.join("; "), str::to_string);
        let reason = if reason.is_empty() { format!("tsoify failed on {} ({})", input.display(), out.status) } else { reason };
        return Err(if out.status.code() == Some(crate::exit::USAGE) { anyhow!(InputError(reason)) } else { anyhow!(reason) });
    }
    Ok(stderr.lines().filter_map(|l| l.strip_prefix(WARNING)).map(str::to_string).collect())
}
