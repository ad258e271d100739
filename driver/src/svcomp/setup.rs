//! The input of one `verify --svcomp` run, and the task's data model.

use super::property::{PropertyKind, PropertySpec};
use super::task::Task;
use anyhow::{anyhow, bail, Result};
use std::path::{Path, PathBuf};

pub use crate::datamodel::DataModel;

// ---------------------------------------------------------------------------
// What `verify --svcomp` is asked to do

/// The input of one `verify --svcomp` run, resolved before anything is built.
#[derive(Debug)]
pub struct Setup {
    /// the file to build and check (a task's input file, or PROGRAM itself)
    pub program: PathBuf,
    pub task: Option<Task>,
    pub property: PropertySpec,
    pub data_model: DataModel,
}

impl Setup {
    /// The program file PROGRAM stands for: itself, or a task's single input file.
    pub fn program_of(program: &Path) -> Result<(PathBuf, Option<Task>)> {
        if !is_task_file(program) {
            return Ok((program.to_path_buf(), None));
        }
        let task = Task::load(program)?;
        if task.input_files.len() != 1 {
            bail!("{}: tasks with {} input files are not supported (tsoify checks one C file)", program.display(), task.input_files.len());
        }
        Ok((task.input_files[0].clone(), Some(task)))
    }

    /// `program` (a task .yml, a .c/.i, or a built program), the --property
    /// file if one was given, the --data-model if one was given.
    pub fn new(program: &Path, property: Option<&Path>, data_model: Option<DataModel>) -> Result<Setup> {
        let (file, task) = Setup::program_of(program)?;
        let property = match (property, &task) {
            (Some(p), _) => PropertySpec::read(p)?,
            (None, Some(t)) => match t.find_property(&PropertyKind::UnreachCall) {
                Some((_, spec)) => spec,
                None => {
                    // not ours: answer UNKNOWN naming what the task asks for
                    let first = t.properties.first().ok_or_else(|| anyhow!("{}: the task lists no properties", program.display()))?;
                    PropertySpec::read(&first.file)?
                }
            },
            (None, None) => PropertySpec::unreach_call(),
        };
        let data_model = match (data_model, task.as_ref().and_then(|t| t.data_model.as_deref())) {
            (Some(d), _) => d,
            (None, Some(d)) => DataModel::parse(d).map_err(|e| anyhow!("{}: {e}", program.display()))?,
            (None, None) => DataModel::LP64,
        };
        Ok(Setup { program: file, task, property, data_model })
    }
}

pub fn is_task_file(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml"))
}
