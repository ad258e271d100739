//! SV-COMP input and output: task definitions (`.yml`, format 2.0), property
//! files (`.prp`), the `Result:` line, violation witnesses (format 2.0), and
//! the expected verdicts and score `svcomp-run` checks a suite with.
//!
//! YAML crate: `serde-saphyr`. `serde_yaml` is archived and deprecated by its
//! author, `serde_yml` is deprecated (and had an unsoundness advisory,
//! RUSTSEC-2025-0068); `serde-saphyr` is actively maintained, pure Rust on the
//! YAML 1.2 parser of the saphyr project, panic-free on hostile input, and
//! does both directions through serde, so the task reader and the witness
//! writer are plain derived structs.
//!
//! One module per job: `task` (task definitions), `property` (property
//! files), `setup` (what one `verify --svcomp` run is asked to do),
//! `answer` (the `Result:` line), `witness` (violation witnesses) and
//! `scoring` (a suite's score, for `svcomp-run`).

mod answer;
mod property;
mod scoring;
mod setup;
mod task;
mod witness;

pub use answer::*;
pub use property::*;
pub use scoring::*;
pub use setup::*;
pub use task::*;
pub use witness::*;
