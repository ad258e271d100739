//! The data model a program is built for: LP64 (64-bit, the default) or
//! ILP32 (`--data-model ILP32`, or an SV-COMP task's `options.data_model`),
//! which is built with `-m32` for i386 Linux and linked with the 32-bit
//! runtime (runtime/build.rs). `verify` stays 64-bit either way: the channel
//! has one layout under both (runtime/include/tsoify_channel.h).

use serde::Serialize;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum DataModel {
    ILP32,
    #[default]
    LP64,
}

impl DataModel {
    pub fn parse(s: &str) -> Result<DataModel, String> {
        match s {
            "ILP32" | "32bit" => Ok(DataModel::ILP32),
            "LP64" | "64bit" => Ok(DataModel::LP64),
            _ => Err(format!("unknown data model `{s}` (expected ILP32 or LP64)")),
        }
    }

    /// As `--data-model` spells it.
    pub fn name(self) -> &'static str {
        match self {
            DataModel::ILP32 => "ILP32",
            DataModel::LP64 => "LP64",
        }
    }

    /// What clang needs to compile and link for this data model.
    pub fn clang_flags(self) -> &'static [&'static str] {
        match self {
            DataModel::ILP32 => &["-m32"],
            DataModel::LP64 => &[],
        }
    }

    /// The runtime library to link, or why there is none (one line with a
    /// hint): a machine without the 32-bit C library cannot build ILP32, and
    /// building 64-bit instead would check another program.
    pub fn runtime(self) -> Result<&'static [u8], String> {
        match self {
            DataModel::LP64 => Ok(tsoify_runtime::LIBRARY),
            DataModel::ILP32 if !tsoify_runtime::LIBRARY32.is_empty() => Ok(tsoify_runtime::LIBRARY32),
            DataModel::ILP32 => Err(no_runtime32(tsoify_runtime::LIBRARY32_MISSING)),
        }
    }

    /// The hint for a 32-bit compile or link that failed for want of files.
    pub fn missing_files_hint(self, clang_error: &str) -> Option<&'static str> {
        let missing = ["file not found", "cannot find", "No such file"].iter().any(|m| clang_error.contains(m));
        (self == DataModel::ILP32 && missing).then_some(INSTALL_HINT)
    }
}

const INSTALL_HINT: &str = "install Debian's 32-bit C library (apt-get install libc6-dev-i386 lib32gcc-12-dev, or scripts/setup)";

/// The refusal when runtime/build.rs could not build the 32-bit runtime
/// (`why`: clang's first error there).
fn no_runtime32(why: &str) -> String {
    let why = why.lines().next().unwrap_or("").trim();
    format!("--data-model ILP32: this tsoify has no 32-bit runtime ({why}); hint: {INSTALL_HINT}, then rebuild tsoify")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_32_bit_files_are_one_line_with_a_hint() {
        let msg = no_runtime32("/usr/include/features-time64.h:20:10: fatal error: 'bits/wordsize.h' file not found\n1 error generated.");
        assert_eq!(msg.lines().count(), 1, "{msg}");
        assert!(msg.contains("'bits/wordsize.h' file not found") && msg.contains("hint: install Debian's 32-bit C library"), "{msg}");
        let link = "/usr/bin/ld: cannot find crtbeginS.o: No such file or directory";
        assert!(DataModel::ILP32.missing_files_hint(link).is_some());
        assert!(DataModel::LP64.missing_files_hint(link).is_none());
        assert!(DataModel::ILP32.missing_files_hint("error: use of undeclared identifier 'x'").is_none());
    }
}
