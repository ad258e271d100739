//! Helpers for the end-to-end tests: build C programs with the real
//! `tsoify` binary and run the real `verify` binary on them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

pub fn tsoify() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tsoify"))
}

pub fn verify() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verify"))
}

/// Build `source` into `dir`, panicking with tsoify's message on failure.
pub fn build(source: &Path, dir: &Path) -> PathBuf {
    let out = dir.join(source.file_stem().unwrap()).with_extension("tso");
    let o = tsoify().arg(source).arg("-o").arg(&out).output().unwrap();
    assert!(o.status.success(), "tsoify {} failed: {}", source.display(), String::from_utf8_lossy(&o.stderr));
    out
}

/// Run verify with `args`; returns (exit code, stdout, stderr).
pub fn run_verify(args: &[&str]) -> (i32, String, String) {
    let o: Output = verify().args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Run verify with `--json` and return the parsed summary and exit code.
pub fn verify_json(program: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    verify_json_env(program, extra, &[])
}

/// `verify_json` with environment variables set for verify.
pub fn verify_json_env(program: &Path, extra: &[&str], env: &[(&str, &str)]) -> (i32, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("summary.json");
    let mut args: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    args.extend(["--quiet".into(), "--json".into(), json.display().to_string(), program.display().to_string()]);
    let o = verify().args(&args).envs(env.iter().copied()).output().unwrap();
    let text = std::fs::read_to_string(&json)
        .unwrap_or_else(|_| panic!("verify wrote no summary: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code().unwrap_or(-1), serde_json::from_str(&text).unwrap())
}

/// The sorted outcome texts of a summary.
pub fn outcomes(summary: &serde_json::Value) -> Vec<String> {
    let mut v: Vec<String> = summary["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["outcome"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// Write a C program into `dir` and return its path.
pub fn write_c(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}
