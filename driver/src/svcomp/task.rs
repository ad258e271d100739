//! Task definitions (`.yml`, format 2.0) and the expected verdicts tsoify adds to them.

use super::property::{PropertyKind, PropertySpec};
use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Deserialize, Debug)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize, Debug)]
struct RawTask {
    input_files: OneOrMany,
    #[serde(default)]
    properties: Vec<RawProperty>,
    #[serde(default)]
    options: RawOptions,
}

#[derive(Deserialize, Debug)]
struct RawProperty {
    property_file: String,
    expected_verdict: Option<bool>,
    subproperty: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
struct RawOptions {
    language: Option<String>,
    data_model: Option<String>,
    tsoify_expected: Option<ModelExpectations>,
}

/// Our extension of a task's `options`: the expected unreach-call verdict per
/// memory model, e.g. `tsoify_expected: {sc: true, tso: false, pso: false}`.
/// BenchExec passes `options` through to tool-info modules untouched, so the
/// key does not disturb it.
#[derive(Deserialize, Serialize, Default, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ModelExpectations {
    pub sc: Option<bool>,
    pub tso: Option<bool>,
    pub pso: Option<bool>,
}

impl ModelExpectations {
    pub fn get(&self, model: &str) -> Option<bool> {
        match model {
            "sc" => self.sc,
            "tso" => self.tso,
            "pso" => self.pso,
            _ => None,
        }
    }
}

/// One property of a task, its file resolved relative to the task file.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskProperty {
    pub file: PathBuf,
    pub expected_verdict: Option<bool>,
    pub subproperty: Option<String>,
}

/// An SV-COMP task definition (format 2.0; 2.1 reads the same for us).
/// Paths are resolved relative to the directory of the `.yml`; input-file
/// patterns are taken literally (SV-COMP tasks name files, not globs).
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub path: PathBuf,
    pub input_files: Vec<PathBuf>,
    pub properties: Vec<TaskProperty>,
    pub language: Option<String>,
    pub data_model: Option<String>,
    pub expected: Option<ModelExpectations>,
}

impl Task {
    pub fn load(path: &Path) -> Result<Task> {
        let text = std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?;
        Task::parse(&text, path)
    }

    /// Parse the text of the task file `path` (used to resolve relative paths).
    pub fn parse(text: &str, path: &Path) -> Result<Task> {
        let raw: RawTask = serde_saphyr::from_str(text)
            .map_err(|e| anyhow!("{}: not an SV-COMP task definition: {}", path.display(), first_line(&e.to_string())))?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::new(),
        };
        let files = match raw.input_files {
            OneOrMany::One(f) => vec![f],
            OneOrMany::Many(v) => v,
        };
        if files.is_empty() {
            bail!("{}: the task has no input_files", path.display());
        }
        Ok(Task {
            path: path.to_path_buf(),
            input_files: files.iter().map(|f| dir.join(f)).collect(),
            properties: raw
                .properties
                .into_iter()
                .map(|p| TaskProperty {
                    file: dir.join(&p.property_file),
                    expected_verdict: p.expected_verdict,
                    subproperty: p.subproperty,
                })
                .collect(),
            language: raw.options.language,
            data_model: raw.options.data_model,
            expected: raw.options.tsoify_expected,
        })
    }

    /// The first of the task's properties whose file holds `kind`, with its text.
    pub fn find_property(&self, kind: &PropertyKind) -> Option<(&TaskProperty, PropertySpec)> {
        self.properties.iter().find_map(|p| {
            let spec = PropertySpec::read(&p.file).ok()?;
            (spec.kind == *kind).then_some((p, spec))
        })
    }

    /// The verdict expected for `property` under `model` (sc, tso, pso):
    /// `options.tsoify_expected.<model>` for unreach-call if given, else the
    /// property's `expected_verdict` for sc (SV-COMP's semantics is
    /// sequential consistency), else none.
    pub fn expected_verdict(&self, property: &TaskProperty, kind: &PropertyKind, model: &str) -> Option<bool> {
        if *kind == PropertyKind::UnreachCall {
            if let Some(v) = self.expected.and_then(|e| e.get(model)) {
                return Some(v);
            }
        }
        if model == "sc" {
            property.expected_verdict
        } else {
            None
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("").trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn task_with_list_of_inputs_properties_and_our_extension() {
        let text = "format_version: '2.0'\ninput_files:\n  - 'dekker.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\n    subproperty: none\noptions:\n  language: C\n  data_model: ILP32\n  tsoify_expected:\n    sc: true\n    tso: false\n    pso: false\n";
        let t = Task::parse(text, Path::new("suite/mutex/dekker.yml")).unwrap();
        assert_eq!(t.input_files, vec![PathBuf::from("suite/mutex/dekker.c")]);
        assert_eq!(t.properties.len(), 2);
        assert_eq!(t.properties[0].file, PathBuf::from("suite/mutex/../properties/unreach-call.prp"));
        assert_eq!(t.properties[0].expected_verdict, Some(true));
        assert_eq!(t.properties[1].subproperty.as_deref(), Some("none"));
        assert_eq!(t.language.as_deref(), Some("C"));
        assert_eq!(t.data_model.as_deref(), Some("ILP32"));
        assert_eq!(t.expected, Some(ModelExpectations { sc: Some(true), tso: Some(false), pso: Some(false) }));
        let p = &t.properties[0];
        assert_eq!(t.expected_verdict(p, &PropertyKind::UnreachCall, "tso"), Some(false));
        assert_eq!(t.expected_verdict(p, &PropertyKind::UnreachCall, "sc"), Some(true));
    }

    #[test]
    fn task_with_a_single_input_string_and_no_extension() {
        let text = "format_version: 2.0\ninput_files: 'fib_bench-2.i'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\noptions:\n  language: C\n  data_model: ILP32\n";
        let t = Task::parse(text, Path::new("fib_bench-2.yml")).unwrap();
        assert_eq!(t.input_files, vec![PathBuf::from("fib_bench-2.i")]);
        assert_eq!(t.expected, None);
        let p = &t.properties[0];
        assert_eq!(t.expected_verdict(p, &PropertyKind::UnreachCall, "sc"), Some(false));
        assert_eq!(t.expected_verdict(p, &PropertyKind::UnreachCall, "tso"), None);
        // without the extension only sc has an expectation, also for other properties
        assert_eq!(t.expected_verdict(p, &PropertyKind::NoDataRace, "sc"), Some(false));
    }

    #[test]
    fn partial_extension_falls_back_to_the_sv_comp_verdict_for_sc() {
        let text = "input_files: a.c\nproperties:\n  - property_file: u.prp\n    expected_verdict: true\noptions:\n  tsoify_expected: {tso: false}\n";
        let t = Task::parse(text, Path::new("a.yml")).unwrap();
        let p = &t.properties[0];
        assert_eq!(t.expected_verdict(p, &PropertyKind::UnreachCall, "sc"), Some(true));
        assert_eq!(t.expected_verdict(p, &PropertyKind::UnreachCall, "tso"), Some(false));
        assert_eq!(t.expected_verdict(p, &PropertyKind::UnreachCall, "pso"), None);
    }

    #[test]
    fn bad_task_files_are_errors() {
        assert!(Task::parse("just: a map\n", Path::new("x.yml")).is_err());
        assert!(Task::parse("input_files: []\n", Path::new("x.yml")).is_err());
        assert!(Task::parse("input_files: a.c\noptions:\n  tsoify_expected: {x86: true}\n", Path::new("x.yml")).is_err());
        assert!(Task::parse("input_files: a.c\nproperties:\n  - property_file: p.prp\n    expected_verdict: maybe\n", Path::new("x.yml")).is_err());
    }

}
