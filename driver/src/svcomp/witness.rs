//! Violation witnesses, format 2.0 (a violation, or a data race's two accesses).

use super::setup::DataModel;
use crate::channel::{Event, Status};
use crate::explore::Violation;
use crate::info::ProgramInfo;
use anyhow::{anyhow, Context, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Serialize)]
struct WitnessEntry {
    entry_type: &'static str,
    metadata: WitnessMetadata,
    content: Vec<SegmentItem>,
}

#[derive(Serialize)]
struct WitnessMetadata {
    format_version: &'static str,
    uuid: String,
    creation_time: String,
    producer: Producer,
    task: WitnessTask,
}

#[derive(Serialize)]
struct Producer {
    name: &'static str,
    version: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    configuration: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
}

#[derive(Serialize)]
struct WitnessTask {
    input_files: Vec<String>,
    input_file_hashes: BTreeMap<String, String>,
    specification: String,
    data_model: DataModel,
    language: &'static str,
}

#[derive(Serialize)]
struct SegmentItem {
    segment: Vec<WaypointItem>,
}

#[derive(Serialize)]
struct WaypointItem {
    waypoint: Waypoint,
}

#[derive(Serialize)]
struct Waypoint {
    #[serde(rename = "type")]
    kind: &'static str,
    action: &'static str,
    location: WitnessLocation,
}

/// A program location in a witness: file_name must be one of the task's
/// input files, as written in `input_files`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct WitnessLocation {
    pub file_name: String,
    pub line: u32,
    pub column: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

/// Everything a witness says besides its target.
pub struct WitnessContext<'a> {
    /// the input file as the task names it, and where to read it
    pub input_file: (String, &'a Path),
    pub specification: &'a str,
    pub data_model: DataModel,
    /// memory model name (sc, tso, pso) and store-buffer bound (0 unbounded)
    pub model: &'a str,
    pub bound: u32,
}

/// Where the violation happened: the location of the violation event (the
/// reach_error call, or the __assert_fail call of a failed assert), which
/// must lie in the input file.
pub fn target_location(v: &Violation, info: &ProgramInfo, input: &(String, &Path)) -> Result<WitnessLocation, String> {
    if !matches!(v.status, Status::ReachError | Status::Assert) {
        return Err(format!("a {} is not an unreach-call violation", v.status.violation_kind()));
    }
    let event_loc = v.events.iter().rev().find(|e: &&Event| e.kind == crate::channel::EV_ERROR).map(|e| e.loc);
    let id = if v.loc != 0 { v.loc } else { event_loc.unwrap_or(0) };
    location_of(id, info, input).map_err(|e| format!("the violation {e}"))
}

/// The witness location of location id `id`, which must lie in the input file.
pub fn location_of(id: u32, info: &ProgramInfo, input: &(String, &Path)) -> Result<WitnessLocation, String> {
    let loc = info.loc(id).ok_or("has no source location")?;
    if loc.line == 0 {
        return Err("has no line number".into());
    }
    if !same_file(&loc.file, input.1) {
        return Err(format!("is in {}, not in the input file {}", loc.file, input.0));
    }
    Ok(WitnessLocation {
        file_name: input.0.clone(),
        line: loc.line,
        column: loc.col.max(1),
        function: (!loc.func.is_empty()).then(|| loc.func.clone()),
    })
}

/// Whether the debug-info file name `a` (relative to the directory clang ran
/// in, which is ours) names the file `b`.
fn same_file(a: &str, b: &Path) -> bool {
    match (Path::new(a).canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => Path::new(a).file_name().is_some() && Path::new(a).file_name() == b.file_name(),
    }
}

/// The witness (YAML text) for a violation at `target`.
pub fn violation_witness(ctx: &WitnessContext, target: WitnessLocation) -> Result<String> {
    witness_with_targets(ctx, vec![target])
}

/// The witness (YAML text) for a data race between the accesses at
/// `pair`: the final segment holds one `target` waypoint per access, the
/// form data-race validators read (e.g. ConcurrentWitness2Test, which runs
/// the program under ThreadSanitizer to confirm the pair races).
pub fn race_witness(ctx: &WitnessContext, pair: [WitnessLocation; 2]) -> Result<String> {
    witness_with_targets(ctx, pair.into())
}

fn witness_with_targets(ctx: &WitnessContext, targets: Vec<WitnessLocation>) -> Result<String> {
    let bytes = std::fs::read(ctx.input_file.1).with_context(|| format!("{}", ctx.input_file.1.display()))?;
    let mut hashes = BTreeMap::new();
    hashes.insert(ctx.input_file.0.clone(), sha256_hex(&bytes));
    let configuration = if ctx.model == "sc" {
        "model=sc".to_string()
    } else {
        format!("model={},buffer-size={}", ctx.model, if ctx.bound == 0 { "unbounded".to_string() } else { ctx.bound.to_string() })
    };
    let description = (ctx.model != "sc").then(|| {
        format!(
            "violation found under {}: it may need stores to wait in store buffers, which a validator that assumes \
             sequential consistency does not model; the witness gives the target only (format 2.0 cannot name threads)",
            if ctx.model == "tso" { "x86-TSO" } else { "PSO" }
        )
    });
    let entry = WitnessEntry {
        entry_type: "violation_sequence",
        metadata: WitnessMetadata {
            format_version: "2.0",
            uuid: uuid_v4(),
            creation_time: creation_time(std::time::SystemTime::now()),
            producer: Producer { name: "tsoify", version: env!("CARGO_PKG_VERSION").to_string(), configuration: Some(configuration), description },
            task: WitnessTask {
                input_files: vec![ctx.input_file.0.clone()],
                input_file_hashes: hashes,
                specification: ctx.specification.to_string(),
                data_model: ctx.data_model,
                language: "C",
            },
        },
        content: vec![SegmentItem {
            segment: targets.into_iter().map(|location| WaypointItem { waypoint: Waypoint { kind: "target", action: "follow", location } }).collect(),
        }],
    };
    serde_saphyr::to_string(&vec![entry]).map_err(|e| anyhow!("witness: {e}"))
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// A random (version 4) UUID, RFC 4122.
fn uuid_v4() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// ISO 8601 in UTC to the second, e.g. `2026-11-23T02:47:36Z`.
fn creation_time(t: std::time::SystemTime) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    time::OffsetDateTime::from(t).format(&format).unwrap_or_else(|_| "1970-01-01T00:00:00Z".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svcomp::PropertySpec;
    #[test]
    fn time_uuid_and_hash() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_402_056);
        assert_eq!(creation_time(t), "2026-11-23T02:47:36Z");
        assert_eq!(creation_time(std::time::UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(951_782_400); // leap day
        assert_eq!(creation_time(t), "2000-02-29T00:00:00Z");
        let u = uuid_v4();
        assert_eq!(u.len(), 36);
        assert_eq!(u.as_bytes()[14], b'4');
        assert!(matches!(u.as_bytes()[19], b'8' | b'9' | b'a' | b'b'), "{u}");
        assert_ne!(u, uuid_v4());
        assert_eq!(sha256_hex(b"hello world"), "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9");
    }

    fn violation(status: Status, loc: u32) -> Violation {
        Violation {
            status,
            message: String::new(),
            signal: 0,
            thread: 1,
            loc,
            events: vec![Event { thread: 1, kind: 13, loc, ..Default::default() }],
            events_truncated: false,
            outcome: String::new(),
        }
    }

    #[test]
    fn witness_has_the_2_0_structure_and_a_target() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("prog.c");
        std::fs::write(&src, "int main(void) { reach_error(); }\n").unwrap();
        let info = ProgramInfo {
            locs: vec![
                Default::default(),
                crate::info::Loc { file: src.display().to_string(), func: "main".into(), line: 1, col: 18, ..Default::default() },
                crate::info::Loc { file: "/usr/include/other.h".into(), func: "f".into(), line: 3, col: 1, ..Default::default() },
            ],
            globals: vec![],
        };
        let input = ("tasks/prog.c".to_string(), src.as_path());
        let target = target_location(&violation(Status::ReachError, 1), &info, &input).unwrap();
        assert_eq!(target, WitnessLocation { file_name: "tasks/prog.c".into(), line: 1, column: 18, function: Some("main".into()) });
        assert!(target_location(&violation(Status::ReachError, 2), &info, &input).unwrap_err().contains("not in the input file"));
        assert!(target_location(&violation(Status::Abort, 1), &info, &input).is_err());
        assert!(target_location(&violation(Status::Assert, 0), &info, &input).is_err());

        let spec = PropertySpec::unreach_call();
        let ctx = WitnessContext { input_file: input.clone(), specification: &spec.text, data_model: DataModel::ILP32, model: "tso", bound: 32 };
        let text = violation_witness(&ctx, target).unwrap();
        let doc: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        let entries = doc.as_array().expect("a list of entries");
        assert_eq!(entries.len(), 1);
        let e = &entries[0];
        assert_eq!(e["entry_type"], "violation_sequence");
        let m = &e["metadata"];
        assert_eq!(m["format_version"], "2.0", "{text}");
        assert_eq!(m["uuid"].as_str().unwrap().len(), 36);
        assert!(m["creation_time"].as_str().unwrap().ends_with('Z'));
        assert_eq!(m["producer"]["name"], "tsoify");
        assert_eq!(m["producer"]["configuration"], "model=tso,buffer-size=32");
        assert_eq!(m["task"]["input_files"], serde_json::json!(["tasks/prog.c"]));
        assert_eq!(m["task"]["input_file_hashes"]["tasks/prog.c"], sha256_hex(&std::fs::read(&src).unwrap()));
        assert_eq!(m["task"]["specification"], "CHECK( init(main()), LTL(G ! call(reach_error())) )");
        assert_eq!(m["task"]["data_model"], "ILP32");
        assert_eq!(m["task"]["language"], "C");
        let content = e["content"].as_array().unwrap();
        assert_eq!(content.len(), 1);
        let w = &content[0]["segment"][0]["waypoint"];
        assert_eq!(w["type"], "target");
        assert_eq!(w["action"], "follow");
        assert!(w.get("constraint").is_none());
        assert_eq!(w["location"], serde_json::json!({"file_name": "tasks/prog.c", "line": 1, "column": 18, "function": "main"}));
    }

}
