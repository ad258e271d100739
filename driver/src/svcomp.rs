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

use crate::channel::{Event, Status};
use crate::explore::Violation;
use crate::info::ProgramInfo;
use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------
// Task definitions

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

// ---------------------------------------------------------------------------
// Properties

/// What a property file asks for. tsoify checks `UnreachCall` and `NoDataRace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyKind {
    /// `CHECK( init(main()), LTL(G ! call(reach_error())) )`
    UnreachCall,
    /// `LTL(G ! data-race)`
    NoDataRace,
    /// `LTL(G ! overflow)`
    NoOverflow,
    /// `LTL(G valid-free)`, `LTL(G valid-deref)`, `LTL(G valid-memtrack)`
    ValidMemsafety,
    /// `LTL(G valid-memcleanup)`
    ValidMemcleanup,
    /// `LTL(F end)`
    Termination,
    /// anything else: the property text (its CHECK lines, one line)
    Other(String),
}

impl PropertyKind {
    /// Classify the text of a `.prp` file. Whitespace is insignificant;
    /// comment lines (`//`) are ignored; the entry point must be main.
    pub fn parse(text: &str) -> PropertyKind {
        let checks: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        let formula = |c: &String| -> Option<String> {
            c.strip_prefix("CHECK(init(main()),LTL(")?.strip_suffix("))").map(str::to_string)
        };
        let formulas: Option<Vec<String>> = checks.iter().map(formula).collect();
        let mut f = formulas.unwrap_or_default();
        f.sort();
        let f: Vec<&str> = f.iter().map(String::as_str).collect();
        match f.as_slice() {
            ["G!call(reach_error())"] | ["G!call(__VERIFIER_error())"] => PropertyKind::UnreachCall,
            ["G!data-race"] => PropertyKind::NoDataRace,
            ["G!overflow"] => PropertyKind::NoOverflow,
            ["Gvalid-deref", "Gvalid-free", "Gvalid-memtrack"] => PropertyKind::ValidMemsafety,
            ["Gvalid-memcleanup"] => PropertyKind::ValidMemcleanup,
            ["Fend"] => PropertyKind::Termination,
            _ => PropertyKind::Other(spec_text(text)),
        }
    }

    /// The property's SV-COMP name (`unreach-call`, `no-data-race`, ...).
    pub fn name(&self) -> String {
        match self {
            PropertyKind::UnreachCall => "unreach-call".into(),
            PropertyKind::NoDataRace => "no-data-race".into(),
            PropertyKind::NoOverflow => "no-overflow".into(),
            PropertyKind::ValidMemsafety => "valid-memsafety".into(),
            PropertyKind::ValidMemcleanup => "valid-memcleanup".into(),
            PropertyKind::Termination => "termination".into(),
            PropertyKind::Other(text) => format!("the property `{text}`"),
        }
    }

    /// The inverse of `name` for the named properties.
    pub fn from_name(name: &str) -> Option<PropertyKind> {
        Some(match name {
            "unreach-call" => PropertyKind::UnreachCall,
            "no-data-race" => PropertyKind::NoDataRace,
            "no-overflow" => PropertyKind::NoOverflow,
            "valid-memsafety" => PropertyKind::ValidMemsafety,
            "valid-memcleanup" => PropertyKind::ValidMemcleanup,
            "termination" => PropertyKind::Termination,
            _ => return None,
        })
    }

    /// Why we answer UNKNOWN without looking, or None for unreach-call.
    pub fn unsupported_reason(&self) -> Option<String> {
        match self {
            PropertyKind::UnreachCall | PropertyKind::NoDataRace => None,
            other => Some(format!("tsoify checks only unreach-call and no-data-race; {} is not supported", other.name())),
        }
    }
}

/// The property text as one line (the CHECK lines joined by a space).
fn spec_text(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).collect::<Vec<_>>().join(" ")
}

/// A property file: what it asks for and its text (the witness's `specification`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertySpec {
    pub kind: PropertyKind,
    pub text: String,
}

impl PropertySpec {
    pub fn read(path: &Path) -> Result<PropertySpec> {
        let text = std::fs::read_to_string(path).with_context(|| format!("property file {}", path.display()))?;
        Ok(PropertySpec { kind: PropertyKind::parse(&text), text: spec_text(&text) })
    }

    /// unreach-call, as SV-COMP writes it (when no property file is given).
    pub fn unreach_call() -> PropertySpec {
        PropertySpec { kind: PropertyKind::UnreachCall, text: "CHECK( init(main()), LTL(G ! call(reach_error())) )".into() }
    }
}

// ---------------------------------------------------------------------------
// Data model

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DataModel {
    ILP32,
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
}

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

    /// Lines to print before the report (one line each).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = vec![];
        if self.data_model == DataModel::ILP32 {
            notes.push("note: ILP32 task: tsoify builds 64-bit (LP64), so long and pointer sizes differ from the task's".into());
        }
        notes
    }
}

pub fn is_task_file(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("yml" | "yaml"))
}

// ---------------------------------------------------------------------------
// Answers

/// An SV-COMP answer for unreach-call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    True,
    False,
    Unknown,
}

impl Answer {
    /// `Result: TRUE`, `Result: FALSE(unreach-call)`, `Result: UNKNOWN`.
    pub fn line(self) -> String {
        format!("Result: {}", self.word())
    }
    /// `line` for the property checked: FALSE names it (`FALSE(no-data-race)`).
    pub fn line_for(self, kind: &PropertyKind) -> String {
        match (self, kind) {
            (Answer::False, PropertyKind::NoDataRace) => "Result: FALSE(no-data-race)".into(),
            _ => self.line(),
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            Answer::True => "TRUE",
            Answer::False => "FALSE(unreach-call)",
            Answer::Unknown => "UNKNOWN",
        }
    }
    /// verify's exit code for it: 0 TRUE, 1 FALSE, 2 UNKNOWN.
    pub fn exit_code(self) -> i32 {
        match self {
            Answer::True => crate::exit::SAFE,
            Answer::False => crate::exit::VIOLATION,
            Answer::Unknown => crate::exit::UNKNOWN,
        }
    }
    /// Read a `Result: ...` line back.
    pub fn parse_line(line: &str) -> Option<Answer> {
        let word = line.trim().strip_prefix("Result:")?.trim();
        Some(match word {
            "TRUE" => Answer::True,
            w if w == "FALSE" || w.starts_with("FALSE(") => Answer::False,
            "UNKNOWN" => Answer::Unknown,
            _ => return None,
        })
    }
}

/// The answer for an exploration's verdict: SAFE is TRUE, a violation
/// (with Property::UnreachCall only reach_error or a failed assert) is
/// FALSE, anything else UNKNOWN. When unsupported constructs were let
/// through (--allow-unsupported), the model is not the program: UNKNOWN.
pub fn answer(verdict: &crate::report::Verdict, unsupported_allowed: bool) -> Answer {
    if unsupported_allowed {
        return Answer::Unknown;
    }
    match verdict.verdict {
        "SAFE" => Answer::True,
        "VIOLATION" => Answer::False,
        _ => Answer::Unknown,
    }
}

// ---------------------------------------------------------------------------
// Violation witnesses, format 2.0
//
// Schema: sv-witnesses, violation-witness-2.0-schema.yml
// (https://sosy-lab.gitlab.io/benchmarking/sv-witnesses/yaml/violation-witnesses.html).
// A witness is a list of `violation_sequence` entries: metadata (format
// version "2.0", uuid, ISO 8601 creation time, producer {name, version},
// task {input_files, input_file_hashes (SHA-256), specification,
// data_model ILP32|LP64, language C}) and content: zero or more normal
// segments and one final segment whose last waypoint is the `target`.
// A location needs file_name and line; column (1-based) and function are
// optional.
//
// What we write, and why no more: the final segment alone, a `target` at
// the reach_error call (or the failed assert's __assert_fail call). Format
// 2.0 has no way to say which thread a waypoint belongs to (a waypoint is
// type, action, location, constraint), so for a concurrent program the
// schedule, the part a validator needs most, cannot be written down; later
// versions add an optional `thread_id` per waypoint (2.2's concurrency
// extension, which validators such as ConcurrentWitness2Test read), which
// we do not produce. Assumption, branching and function_return waypoints
// would need columns and values our location table does not have exactly
// (function_return must point at the closing parenthesis of the call; we
// record where a call starts), and a waypoint that is wrong makes the
// witness invalid, while one that is missing only makes it less helpful.
//
// Memory model: SV-COMP and its validators use sequential consistency. A
// violation found under --model tso or pso may need store buffering, so a
// validator may not be able to reproduce it; producer.configuration names
// the model so a reader can tell.

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
    let event_loc = v.events.iter().rev().find(|e: &&Event| e.kind == 13).map(|e| e.loc);
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
    let mut b = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut b));
    if random.is_err() {
        // no /dev/urandom: the time and process id, hashed
        let seed = format!("{:?} {}", std::time::SystemTime::now(), std::process::id());
        let h = sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(seed.as_bytes()));
        b.copy_from_slice(&h[..16]);
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", h[0..4].concat(), h[4..6].concat(), h[6..8].concat(), h[8..10].concat(), h[10..16].concat())
}

/// ISO 8601 in UTC, e.g. `2026-11-23T02:47:36Z`.
fn creation_time(t: std::time::SystemTime) -> String {
    let secs = t.duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // days since 1970-01-01 to a civil date (H. Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

// ---------------------------------------------------------------------------
// Scoring a suite

/// How one run ended, as the runner saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Answer(Answer),
    /// verify exited 3 (input error) or printed no Result line
    Error(String),
    /// the runner's wall-clock limit killed it
    Timeout,
}

impl Outcome {
    pub fn word(&self) -> &str {
        match self {
            Outcome::Answer(Answer::True) => "TRUE",
            Outcome::Answer(Answer::False) => "FALSE",
            Outcome::Answer(Answer::Unknown) => "UNKNOWN",
            Outcome::Error(_) => "ERROR",
            Outcome::Timeout => "TIMEOUT",
        }
    }
    fn answer(&self) -> Option<Answer> {
        match self {
            Outcome::Answer(a) if *a != Answer::Unknown => Some(*a),
            _ => None,
        }
    }
}

/// SV-COMP's score for one answer: correct TRUE +2, correct FALSE +1,
/// wrong FALSE -16, wrong TRUE -32, no answer (or no expectation) 0.
pub fn score(expected: Option<bool>, outcome: &Outcome) -> i64 {
    match (expected, outcome.answer()) {
        (Some(true), Some(Answer::True)) => 2,
        (Some(false), Some(Answer::False)) => 1,
        (Some(true), Some(Answer::False)) => -16,
        (Some(false), Some(Answer::True)) => -32,
        _ => 0,
    }
}

/// `yes`, `NO`, `-` (no answer) or `?` (no expectation).
pub fn correctness(expected: Option<bool>, outcome: &Outcome) -> &'static str {
    match (expected, outcome.answer()) {
        (None, _) => "?",
        (Some(_), None) => "-",
        (Some(e), Some(a)) => {
            if (a == Answer::True) == e {
                "yes"
            } else {
                "NO"
            }
        }
    }
}

/// One line of the runner's table.
#[derive(Clone, Debug)]
pub struct Row {
    pub task: String,
    pub model: String,
    pub expected: Option<bool>,
    pub outcome: Outcome,
    pub seconds: f64,
}

impl Row {
    pub fn is_wrong(&self) -> bool {
        correctness(self.expected, &self.outcome) == "NO"
    }
    pub fn is_correct(&self) -> bool {
        correctness(self.expected, &self.outcome) == "yes"
    }
}

fn expected_word(e: Option<bool>) -> &'static str {
    match e {
        Some(true) => "TRUE",
        Some(false) => "FALSE",
        None => "?",
    }
}

/// The table: task | model | expected | result | correct? | seconds.
pub fn format_table(rows: &[Row]) -> String {
    let w = rows.iter().map(|r| r.task.len()).max().unwrap_or(4).max(4);
    let mut out = format!("{:<w$}  {:<5}  {:<8}  {:<7}  {:<8}  {:>8}\n", "task", "model", "expected", "result", "correct?", "seconds");
    for r in rows {
        out.push_str(&format!(
            "{:<w$}  {:<5}  {:<8}  {:<7}  {:<8}  {:>8.2}\n",
            r.task,
            r.model,
            expected_word(r.expected),
            r.outcome.word(),
            correctness(r.expected, &r.outcome),
            r.seconds
        ));
    }
    out
}

/// Per model: the score, the counts behind it and the time.
pub fn format_scores(rows: &[Row], models: &[String]) -> String {
    let mut out = String::new();
    for m in models {
        let rs: Vec<&Row> = rows.iter().filter(|r| &r.model == m).collect();
        let count = |f: &dyn Fn(&Row) -> bool| rs.iter().filter(|r| f(r)).count();
        let ok = |r: &Row, a: Answer| correctness(r.expected, &r.outcome) == "yes" && r.outcome == Outcome::Answer(a);
        let bad = |r: &Row, a: Answer| correctness(r.expected, &r.outcome) == "NO" && r.outcome == Outcome::Answer(a);
        let total: i64 = rs.iter().map(|r| score(r.expected, &r.outcome)).sum();
        let seconds: f64 = rs.iter().map(|r| r.seconds).sum();
        out.push_str(&format!(
            "score {m}: {total} ({} tasks: {} correct true, {} correct false, {} wrong true, {} wrong false, {} unknown, {} without expectation; {:.1} s)\n",
            rs.len(),
            count(&|r| ok(r, Answer::True)),
            count(&|r| ok(r, Answer::False)),
            count(&|r| bad(r, Answer::True)),
            count(&|r| bad(r, Answer::False)),
            count(&|r| r.expected.is_some() && r.outcome.answer().is_none()),
            count(&|r| r.expected.is_none()),
            seconds
        ));
    }
    out
}

/// Answers that contradict each other across models: every SC execution is
/// a TSO execution and every TSO execution a PSO one (at one buffer bound),
/// so a violation under a stronger model is one under every weaker model,
/// and TRUE under a weaker model means TRUE under every stronger one. A
/// contradiction means one of the answers is wrong, whatever the task's
/// expectation says (this needs no expected verdict for TSO and PSO).
pub fn model_contradictions(rows: &[Row]) -> Vec<String> {
    const STRENGTH: [&str; 3] = ["sc", "tso", "pso"];
    let mut out = vec![];
    let mut tasks: Vec<&str> = rows.iter().map(|r| r.task.as_str()).collect();
    tasks.dedup();
    for task in tasks {
        let answer = |m: &str| rows.iter().find(|r| r.task == task && r.model == m).and_then(|r| r.outcome.answer());
        for (i, strong) in STRENGTH.iter().enumerate() {
            for weak in &STRENGTH[i + 1..] {
                if answer(strong) == Some(Answer::False) && answer(weak) == Some(Answer::True) {
                    out.push(format!("{task}: FALSE under {strong} but TRUE under {weak} (every {strong} execution is a {weak} execution)"));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contradictions_across_models_are_reported() {
        let row = |task: &str, model: &str, a: Answer| Row { task: task.into(), model: model.into(), expected: None, outcome: Outcome::Answer(a), seconds: 0.0 };
        let rows = vec![
            row("ok", "sc", Answer::True),
            row("ok", "tso", Answer::False),
            row("ok", "pso", Answer::False),
            row("bad", "sc", Answer::False),
            row("bad", "tso", Answer::True),
            row("bad", "pso", Answer::Unknown),
        ];
        let c = model_contradictions(&rows);
        assert_eq!(c, vec!["bad: FALSE under sc but TRUE under tso (every sc execution is a tso execution)".to_string()]);
    }

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

    #[test]
    fn property_files() {
        use PropertyKind::*;
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! call(reach_error())) )\n"), UnreachCall);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )"), UnreachCall);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! data-race) )\n"), NoDataRace);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! overflow) )\n"), NoOverflow);
        assert_eq!(
            PropertyKind::parse(
                "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n"
            ),
            ValidMemsafety
        );
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G valid-memcleanup) )\n"), ValidMemcleanup);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(F end) )\n"), Termination);
        assert_eq!(
            PropertyKind::parse("CHECK( init(main()), LTL(G def-behavior) )\n"),
            Other("CHECK( init(main()), LTL(G def-behavior) )".into())
        );
        // another entry point is not the unreach-call we check
        assert!(matches!(PropertyKind::parse("CHECK( init(start()), LTL(G ! call(reach_error())) )"), Other(_)));
        assert_eq!(UnreachCall.unsupported_reason(), None);
        assert_eq!(NoDataRace.unsupported_reason(), None);
        assert_eq!(NoOverflow.unsupported_reason().unwrap(), "tsoify checks only unreach-call and no-data-race; no-overflow is not supported");
        assert_eq!(PropertyKind::from_name("valid-memsafety"), Some(ValidMemsafety));
        assert_eq!(PropertyKind::from_name("unreach-call"), Some(UnreachCall));
    }

    #[test]
    fn result_lines() {
        assert_eq!(Answer::True.line(), "Result: TRUE");
        assert_eq!(Answer::False.line(), "Result: FALSE(unreach-call)");
        assert_eq!(Answer::Unknown.line(), "Result: UNKNOWN");
        for a in [Answer::True, Answer::False, Answer::Unknown] {
            assert_eq!(Answer::parse_line(&a.line()), Some(a));
        }
        assert_eq!(Answer::parse_line("SAFE"), None);
        assert_eq!((Answer::True.exit_code(), Answer::False.exit_code(), Answer::Unknown.exit_code()), (0, 1, 2));
        let v = |verdict| crate::report::Verdict { verdict, reason: String::new() };
        assert_eq!(answer(&v("SAFE"), false), Answer::True);
        assert_eq!(answer(&v("VIOLATION"), false), Answer::False);
        assert_eq!(answer(&v("UNKNOWN"), false), Answer::Unknown);
        assert_eq!(answer(&v("SAFE"), true), Answer::Unknown);
    }

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

    #[test]
    fn scores_and_table() {
        let row = |task: &str, model: &str, expected, outcome| Row { task: task.into(), model: model.into(), expected, outcome, seconds: 1.0 };
        let t = Outcome::Answer(Answer::True);
        let f = Outcome::Answer(Answer::False);
        let u = Outcome::Answer(Answer::Unknown);
        assert_eq!(score(Some(true), &t), 2);
        assert_eq!(score(Some(false), &f), 1);
        assert_eq!(score(Some(true), &f), -16);
        assert_eq!(score(Some(false), &t), -32);
        assert_eq!(score(Some(false), &u), 0);
        assert_eq!(score(None, &t), 0);
        assert_eq!(score(Some(true), &Outcome::Timeout), 0);
        let rows = vec![
            row("a", "sc", Some(true), t.clone()),
            row("b", "sc", Some(false), f.clone()),
            row("c", "sc", Some(false), t.clone()),
            row("a", "tso", None, f.clone()),
            row("b", "tso", Some(false), Outcome::Error("x".into())),
        ];
        let table = format_table(&rows);
        assert!(table.lines().next().unwrap().split_whitespace().eq(["task", "model", "expected", "result", "correct?", "seconds"]));
        assert!(table.lines().nth(3).unwrap().split_whitespace().eq(["c", "sc", "FALSE", "TRUE", "NO", "1.00"]));
        assert!(table.lines().nth(4).unwrap().split_whitespace().eq(["a", "tso", "?", "FALSE", "?", "1.00"]));
        assert!(table.lines().nth(5).unwrap().split_whitespace().eq(["b", "tso", "FALSE", "ERROR", "-", "1.00"]));
        let s = format_scores(&rows, &["sc".into(), "tso".into()]);
        assert!(s.starts_with("score sc: -29 (3 tasks: 1 correct true, 1 correct false, 1 wrong true, 0 wrong false, 0 unknown, 0 without expectation; 3.0 s)"), "{s}");
        assert!(s.contains("score tso: 0 (2 tasks: 0 correct true, 0 correct false, 0 wrong true, 0 wrong false, 1 unknown, 1 without expectation; 2.0 s)"), "{s}");
        assert!(rows[2].is_wrong() && !rows[3].is_wrong());
    }
}
