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

#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Waypoint {
    #[serde(rename = "type")]
    kind: &'static str,
    action: &'static str,
    location: WitnessLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    constraint: Option<Constraint>,
}

#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
struct Constraint {
    value: String,
    format: &'static str,
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

/// The value each `__VERIFIER_nondet_*` call of the violating execution
/// returned, in the order the calls ran, as `function_return` waypoints
/// (`\result == v` at the call's closing parenthesis), one segment each.
/// A call that is not in the input file, or whose text at its location is
/// not a nondet call the waypoint can point into, gets none: the witness
/// then constrains less, but says nothing false.
pub fn nondet_waypoints(v: &Violation, info: &ProgramInfo, input: &(String, &Path)) -> Vec<Waypoint> {
    let text = std::fs::read_to_string(input.1).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    for e in v.events.iter().filter(|e| e.kind == crate::channel::EV_NONDET) {
        let Ok(mut location) = location_of(e.loc, info, input) else { continue };
        let Some(line) = lines.get(location.line as usize - 1) else { continue };
        let Some((name, close)) = nondet_call_at(line, location.column as usize - 1) else { continue };
        if name == "__VERIFIER_nondet_pointer" {
            continue;
        }
        // (the runtime logs an unsigned value zero-extended, a signed one
        // sign-extended, in `size` bytes)
        let unsigned = name.starts_with("__VERIFIER_nondet_u") || name == "__VERIFIER_nondet_bool";
        let value = if unsigned { e.value.to_string() } else { crate::report::signed(e.value, e.size).to_string() };
        location.column = close as u32 + 1;
        out.push(Waypoint {
            kind: "function_return",
            action: "follow",
            location,
            constraint: Some(Constraint { value: format!("\\result == {value}"), format: "c_expression" }),
        });
    }
    out
}

/// The nondet function called at byte `col` of `line`, and the byte index
/// of the call's closing parenthesis (nondet functions take no arguments).
fn nondet_call_at(line: &str, col: usize) -> Option<(&str, usize)> {
    let rest = line.get(col..)?;
    let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let name = &rest[..len];
    if !name.starts_with("__VERIFIER_nondet_") {
        return None;
    }
    let after = &rest[len..];
    let open = after.find(|c: char| !c.is_whitespace()).filter(|&i| after[i..].starts_with('('))?;
    let close = after[open + 1..].find(|c: char| !c.is_whitespace()).filter(|&i| after[open + 1 + i..].starts_with(')'))?;
    Some((name, col + len + open + 1 + close))
}

/// The witness (YAML text) for a violation at `target`, reached after the
/// nondet values `values` (`nondet_waypoints`).
pub fn violation_witness(ctx: &WitnessContext, values: Vec<Waypoint>, target: WitnessLocation) -> Result<String> {
    witness_with_targets(ctx, values, vec![target])
}

/// The witness (YAML text) for a data race between the accesses at
/// `pair`: the final segment holds one `target` waypoint per access, the
/// form data-race validators read (e.g. ConcurrentWitness2Test, which runs
/// the program under ThreadSanitizer to confirm the pair races).
pub fn race_witness(ctx: &WitnessContext, pair: [WitnessLocation; 2]) -> Result<String> {
    witness_with_targets(ctx, vec![], pair.into())
}

fn witness_with_targets(ctx: &WitnessContext, before: Vec<Waypoint>, targets: Vec<WitnessLocation>) -> Result<String> {
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
             sequential consistency does not model; the witness gives the values of nondet calls and the target, not the interleaving (format 2.0 cannot name threads)",
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
        content: before
            .into_iter()
            .map(|waypoint| SegmentItem { segment: vec![WaypointItem { waypoint }] })
            .chain(std::iter::once(SegmentItem {
                segment: targets
                    .into_iter()
                    .map(|location| WaypointItem { waypoint: Waypoint { kind: "target", action: "follow", location, constraint: None } })
                    .collect(),
            }))
            .collect(),
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
    fn a_nondet_call_is_found_at_its_column() {
        let line = "  int n = __VERIFIER_nondet_uint( );";
        assert_eq!(nondet_call_at(line, 10), Some(("__VERIFIER_nondet_uint", 34)));
        assert_eq!(nondet_call_at(line, 2), None, "not a nondet call");
        assert_eq!(nondet_call_at("x = __VERIFIER_nondet_int(y);", 4), None, "an argument");
        assert_eq!(nondet_call_at("short", 40), None);
    }

    #[test]
    fn nondet_values_become_function_return_waypoints() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("prog.c");
        std::fs::write(&src, "int main(void) {\n  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_uint();\n  char c = __VERIFIER_nondet_char();\n}\n").unwrap();
        let loc = |col| crate::info::Loc { file: src.display().to_string(), func: "main".into(), line: 2, col, ..Default::default() };
        let info = ProgramInfo {
            locs: vec![Default::default(), loc(11), loc(40), crate::info::Loc { line: 3, col: 12, ..loc(0) }, crate::info::Loc { line: 1, col: 1, ..loc(0) }],
            globals: vec![],
        };
        // as the runtime logs them: size (bits + 7) / 8, aux the bits
        let nondet = |loc, value, aux: u32| Event { thread: 0, kind: crate::channel::EV_NONDET, loc, value, aux, size: aux.div_ceil(8) as u8, ..Default::default() };
        let mut v = violation(Status::ReachError, 1);
        // -5 as int, 4294967295 as unsigned, -1 as char; the last is no nondet call
        v.events = vec![nondet(1, (-5i64) as u64, 32), nondet(2, 0xffff_ffff, 32), nondet(3, 0xff, 8), nondet(4, 1, 32)];
        let input = ("prog.c".to_string(), src.as_path());
        let w = nondet_waypoints(&v, &info, &input);
        let got: Vec<(u32, u32, String)> = w.iter().map(|w| (w.location.line, w.location.column, w.constraint.as_ref().unwrap().value.clone())).collect();
        assert_eq!(
            got,
            [(2, 33, "\\result == -5".to_string()), (2, 63, "\\result == 4294967295".to_string()), (3, 35, "\\result == -1".to_string())]
        );
        assert!(w.iter().all(|w| w.kind == "function_return" && w.action == "follow"));
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
        let text = violation_witness(&ctx, vec![], target).unwrap();
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
