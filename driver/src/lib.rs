//! The tsoify driver: building instrumented programs (`tsoify`) and
//! exploring their executions (`verify`).

pub mod build;
pub mod build_cmd;
pub mod cli;
pub mod compare;
pub mod concolic;
pub mod datamodel;
pub mod dpor;
pub mod channel;
pub mod explore;
pub mod fences;
pub mod handoff;
pub mod html;
pub mod info;
pub mod race_thread;
pub mod races;
pub mod report;
pub mod robust;
pub mod sarif;
pub mod svcomp;

/// Exit codes shared by both binaries.
pub mod exit {
    pub const SAFE: i32 = 0;
    pub const VIOLATION: i32 = 1;
    pub const UNKNOWN: i32 = 2;
    pub const USAGE: i32 = 3;
}
