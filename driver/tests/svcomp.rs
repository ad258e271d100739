//! SV-COMP mode end to end: `verify --svcomp` on task files (Result line,
//! exit code, witness), and `svcomp-run` on a small suite (table and score).

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

const UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n";
const NO_DATA_RACE: &str = "CHECK( init(main()), LTL(G ! data-race) )\n";

/// Safe under every model: main reads x only after joining the writer.
const SAFE: &str = "#include <pthread.h>\nextern void abort(void);\nvoid reach_error() {}\nint x;\n\
void *t(void *a) { x = 1; return 0; }\n\
int main(void) {\n  pthread_t h;\n  pthread_create(&h, 0, t, 0);\n  pthread_join(h, 0);\n\
  if (x != 1) { ERROR: {reach_error();abort();} }\n  return 0;\n}\n";

/// Unsafe under every model: main may read x before the writer runs. The
/// call of reach_error is on line 8; reach_error is defined with an empty
/// body, as in sv-benchmarks, and the call is still the violation.
const UNSAFE: &str = "#include <pthread.h>\nextern void abort(void);\nvoid reach_error() {}\nint x;\n\
void *t(void *a) { x = 1; return 0; }\n\
int main(void) {\n  pthread_t h; pthread_create(&h, 0, t, 0);\n  if (x == 0) { ERROR: {reach_error();abort();} }\n\
  pthread_join(h, 0);\n  return 0;\n}\n";

/// abort() is reachable, reach_error is not: not an unreach-call violation.
const ABORTS: &str = "#include <pthread.h>\nextern void abort(void);\nvoid reach_error() {}\nint x;\n\
void *t(void *a) { x = 1; return 0; }\n\
int main(void) {\n  pthread_t h; pthread_create(&h, 0, t, 0);\n  if (x == 0) abort();\n  pthread_join(h, 0);\n  return 0;\n}\n";

/// Store buffering: safe under SC, unsafe under TSO and PSO.
const SB: &str = "#include <pthread.h>\nextern void abort(void);\nvoid reach_error() {}\nint x, y, r1, r2;\n\
void *t1(void *a) { x = 1; r1 = y; return 0; }\nvoid *t2(void *a) { y = 1; r2 = x; return 0; }\n\
int main(void) {\n  pthread_t a, b;\n  pthread_create(&a, 0, t1, 0);\n  pthread_create(&b, 0, t2, 0);\n\
  pthread_join(a, 0);\n  pthread_join(b, 0);\n  if (r1 == 0 && r2 == 0) { ERROR: {reach_error();abort();} }\n  return 0;\n}\n";

fn task_yml(input: &str, property: &str, expected: bool, extra_options: &str) -> String {
    format!(
        "format_version: '2.0'\ninput_files: '{input}'\nproperties:\n  - property_file: ../properties/{property}\n    expected_verdict: {expected}\n\
options:\n  language: C\n  data_model: LP64\n{extra_options}"
    )
}

/// A suite in `root`: properties/ and group g/ with the given (name, C, yml).
fn suite(root: &Path, tasks: &[(&str, &str, String)]) {
    std::fs::create_dir_all(root.join("properties")).unwrap();
    std::fs::create_dir_all(root.join("g")).unwrap();
    std::fs::write(root.join("properties/unreach-call.prp"), UNREACH_CALL).unwrap();
    std::fs::write(root.join("properties/no-data-race.prp"), NO_DATA_RACE).unwrap();
    for (name, c, yml) in tasks {
        std::fs::write(root.join(format!("g/{name}.c")), c).unwrap();
        std::fs::write(root.join(format!("g/{name}.yml")), yml).unwrap();
    }
}

/// verify in directory `cwd`: (exit code, stdout, stderr).
fn verify_in(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let o = verify().current_dir(cwd).args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn last_line(out: &str) -> &str {
    out.trim_end().lines().last().unwrap_or("")
}

#[test]
fn safe_task_is_true_and_writes_no_witness() {
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), &[("safe", SAFE, task_yml("safe.c", "unreach-call.prp", true, ""))]);
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "g/safe.yml"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("SAFE"), "the normal report comes first: {out}");
    assert_eq!(last_line(&out), "Result: TRUE", "{out}");
    assert!(!dir.path().join("witness.yml").exists());
}

#[test]
fn unsafe_task_is_false_with_a_witness() {
    let dir = tempfile::tempdir().unwrap();
    suite(dir.path(), &[("unsafe", UNSAFE, task_yml("unsafe.c", "unreach-call.prp", false, ""))]);
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "--model", "sc", "g/unsafe.yml"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.starts_with("VIOLATION reach_error"), "{out}");
    assert!(out.contains("counterexample"), "{out}");
    assert_eq!(last_line(&out), "Result: FALSE(unreach-call)", "{out}");

    // witness.yml in the current directory, a format 2.0 violation witness
    let text = std::fs::read_to_string(dir.path().join("witness.yml")).expect("witness.yml written");
    let doc: serde_json::Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let entries = doc.as_array().expect("the witness is a list of entries");
    assert_eq!(entries.len(), 1, "{text}");
    let e = &entries[0];
    assert_eq!(e["entry_type"], "violation_sequence");
    let keys: Vec<&String> = e.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 3, "entry_type, metadata, content: {text}");
    let m = &e["metadata"];
    assert_eq!(m["format_version"], "2.0");
    assert_eq!(m["producer"]["name"], "tsoify");
    assert!(m["uuid"].is_string() && m["creation_time"].is_string(), "{text}");
    let task = &m["task"];
    assert_eq!(task["input_files"], serde_json::json!(["g/unsafe.c"]), "{text}");
    let hash = tsoify::svcomp::sha256_hex(UNSAFE.as_bytes());
    assert_eq!(task["input_file_hashes"]["g/unsafe.c"], hash.as_str(), "{text}");
    assert_eq!(task["specification"], UNREACH_CALL.trim());
    assert_eq!(task["data_model"], "LP64");
    assert_eq!(task["language"], "C");
    let content = e["content"].as_array().unwrap();
    let last_segment = content.last().unwrap()["segment"].as_array().unwrap();
    let target = &last_segment.last().unwrap()["waypoint"];
    assert_eq!(target["type"], "target");
    assert_eq!(target["action"], "follow");
    let loc = &target["location"];
    assert_eq!(loc["file_name"], "g/unsafe.c");
    assert_eq!(loc["line"], 8, "the reach_error call: {text}");
    assert_eq!(loc["column"], UNSAFE.lines().nth(7).unwrap().find("reach_error").unwrap() as u64 + 1, "{text}");
    assert_eq!(loc["function"], "main");
}

#[test]
fn witness_path_and_c_input_and_tso_only_violation() {
    let dir = tempfile::tempdir().unwrap();
    let c = write_c(dir.path(), "sb.c", SB);
    let w = dir.path().join("sb-witness.yml");
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "--model", "sc", c.to_str().unwrap()]);
    assert_eq!((code, last_line(&out)), (0, "Result: TRUE"), "{out}{err}");
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "--witness", w.to_str().unwrap(), c.to_str().unwrap()]);
    assert_eq!((code, last_line(&out)), (1, "Result: FALSE(unreach-call)"), "{out}{err}");
    let text = std::fs::read_to_string(&w).expect("witness at --witness");
    assert!(text.contains("model=tso"), "the model is named: {text}");
    assert!(!dir.path().join("witness.yml").exists());
}

#[test]
fn abort_is_not_a_violation_under_svcomp() {
    let dir = tempfile::tempdir().unwrap();
    let c = write_c(dir.path(), "aborts.c", ABORTS);
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "--model", "sc", c.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(last_line(&out), "Result: TRUE", "{out}");
    // without --svcomp, abort() is a violation as before
    let (code, out, _) = verify_in(dir.path(), &["--model", "sc", c.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("VIOLATION abort"), "{out}");
}

#[test]
fn other_properties_are_unknown_without_exploring() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("properties")).unwrap();
    std::fs::write(dir.path().join("properties/no-overflow.prp"), "CHECK( init(main()), LTL(G ! overflow) )\n").unwrap();
    suite(dir.path(), &[("ovf", SAFE, task_yml("ovf.c", "no-overflow.prp", true, ""))]);
    let reason = "tsoify checks only unreach-call and no-data-race; no-overflow is not supported";
    // the task's only property is no-overflow
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "g/ovf.yml"]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(out, format!("{reason}\nResult: UNKNOWN\n"));
    // --property on a C file
    let (code, out, _) = verify_in(dir.path(), &["--svcomp", "--property", "properties/no-overflow.prp", "g/ovf.c"]);
    assert_eq!(code, 2);
    assert_eq!(out, format!("{reason}\nResult: UNKNOWN\n"));
}

/// Racy under SV-COMP's rules: main's plain read of x (line 8) and the
/// thread's plain write (line 5) are not ordered.
const RACY: &str = UNSAFE;

/// The same accesses, ordered by the join: no race. (reach_error is
/// reachable in neither, which no-data-race does not care about.)
const RACE_FREE: &str = SAFE;

#[test]
fn no_data_race_tasks_answer_true_or_false_with_the_racing_pair() {
    let dir = tempfile::tempdir().unwrap();
    suite(
        dir.path(),
        &[
            ("racy", RACY, task_yml("racy.c", "no-data-race.prp", false, "")),
            ("free", RACE_FREE, task_yml("free.c", "no-data-race.prp", true, "")),
        ],
    );
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "g/racy.yml"]);
    assert_eq!((code, last_line(&out)), (1, "Result: FALSE(no-data-race)"), "{out}{err}");
    assert!(out.starts_with("VIOLATION data race"), "{out}");
    assert!(out.contains("data race on x: ") && out.contains("T0 read (plain) at racy.c:8") && out.contains("T1 write (plain) at racy.c:5"), "{out}");
    assert!(out.contains(" (it shows the first race at steps 2 and 4):") && out.contains("T1      racy.c:5  store x = 1") && out.contains("T0      racy.c:8  load x"), "the execution is shown: {out}");
    let witness = std::fs::read_to_string(dir.path().join("witness.yml")).unwrap();
    let targets: Vec<&str> = witness.lines().filter(|l| l.contains("type: target")).collect();
    assert_eq!(targets.len(), 2, "one target per racing access: {witness}");
    for line in ["line: 8", "line: 5", "specification: CHECK( init(main()), LTL(G ! data-race) )"] {
        assert!(witness.contains(line), "{line} in {witness}");
    }
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "--witness", "w2.yml", "g/free.yml"]);
    assert_eq!((code, last_line(&out)), (0, "Result: TRUE"), "{out}{err}");
    assert!(!dir.path().join("w2.yml").exists());
    // svcomp-run scores both
    let o = Command::new(env!("CARGO_BIN_EXE_svcomp-run")).current_dir(dir.path()).args(["--models", "sc", "--property", "no-data-race", "g"]).output().unwrap();
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{table}{}", String::from_utf8_lossy(&o.stderr));
    assert!(table.contains("0 wrong"), "{table}");
}

/// An ILP32 task is built -m32, as it means: long and pointers are 4 bytes,
/// and a pointer-sized counter wraps as it does on i386. The same task
/// with --data-model LP64 is another program (reach_error is reached).
/// Under TSO too, with the witness naming the data model.
#[test]
fn ilp32_tasks_are_built_32_bit() {
    const SIZES: &str = "#include <pthread.h>\nextern void abort(void);\nvoid reach_error() {}\n\
unsigned long n = 0xffffffffUL;\nvoid *t(void *a) { n++; return 0; }\n\
int main(void) {\n  pthread_t h;\n  pthread_create(&h, 0, t, 0);\n  pthread_join(h, 0);\n\
  if (sizeof(long) != 4 || sizeof(void *) != 4 || n != 0) { ERROR: {reach_error();abort();} }\n  return 0;\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let yml = task_yml("sizes.c", "unreach-call.prp", true, "").replace("LP64", "ILP32");
    suite(dir.path(), &[("sizes", SIZES, yml)]);
    for model in ["sc", "tso", "pso"] {
        let (code, out, err) = verify_in(dir.path(), &["--svcomp", "-q", "--model", model, "g/sizes.yml"]);
        assert_eq!((code, last_line(&out)), (0, "Result: TRUE"), "{model}: {out}{err}");
        assert!(!out.contains("note:"), "nothing approximated: {out}");
    }
    let (code, out, err) = verify_in(dir.path(), &["--svcomp", "-q", "--data-model", "LP64", "--witness", "w.yml", "g/sizes.yml"]);
    assert_eq!((code, last_line(&out)), (1, "Result: FALSE(unreach-call)"), "{out}{err}");
    let witness = std::fs::read_to_string(dir.path().join("w.yml")).unwrap();
    assert!(witness.contains("data_model: LP64"), "{witness}");
}

#[test]
fn bad_inputs_are_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.yml"), "input_files: [a.c, b.c]\nproperties: []\n").unwrap();
    let (code, _, err) = verify_in(dir.path(), &["--svcomp", "two.yml"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("2 input files"), "{err}");
    let (code, _, err) = verify_in(dir.path(), &["--svcomp", "--property", "missing.prp", "x.c"]);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = verify_in(dir.path(), &["--property", "p.prp", "x.c"]);
    assert_eq!(code, 3, "--property needs --svcomp: {err}");
}

fn svcomp_run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_svcomp-run")).args(args).output().unwrap();
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn row<'a>(out: &'a str, task: &str, model: &str) -> Vec<&'a str> {
    out.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.len() == 6 && w[0] == task && w[1] == model)
        .unwrap_or_else(|| panic!("no row {task} {model}: {out}"))
}

#[test]
fn svcomp_run_prints_the_table_and_the_score() {
    let dir = tempfile::tempdir().unwrap();
    let sb_expected = "  tsoify_expected:\n    sc: true\n    tso: false\n    pso: false\n";
    suite(
        dir.path(),
        &[
            ("safe", SAFE, task_yml("safe.c", "unreach-call.prp", true, "")),
            ("unsafe", UNSAFE, task_yml("unsafe.c", "unreach-call.prp", false, "")),
            ("sb", SB, task_yml("sb.c", "unreach-call.prp", true, sb_expected)),
            // no unreach-call property: not a task for the runner
            ("race", UNSAFE, task_yml("race.c", "no-data-race.prp", false, "")),
        ],
    );
    std::fs::write(dir.path().join("g/notes.yml"), "just: some yaml\n").unwrap();
    let (code, out, err) = svcomp_run(&[dir.path().to_str().unwrap(), "--models", "sc,tso", "--timeout", "60", "--jobs", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    let header: Vec<&str> = out.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["task", "model", "expected", "result", "correct?", "seconds"]);
    assert_eq!(&row(&out, "g/safe", "sc")[2..5], ["TRUE", "TRUE", "yes"]);
    assert_eq!(&row(&out, "g/safe", "tso")[2..5], ["?", "TRUE", "?"]);
    assert_eq!(&row(&out, "g/unsafe", "sc")[2..5], ["FALSE", "FALSE", "yes"]);
    assert_eq!(&row(&out, "g/sb", "sc")[2..5], ["TRUE", "TRUE", "yes"]);
    assert_eq!(&row(&out, "g/sb", "tso")[2..5], ["FALSE", "FALSE", "yes"]);
    assert!(!out.contains("g/race") && !out.contains("g/notes"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("g/")).count(), 6, "{out}");
    // sc: safe +2, unsafe +1, sb +2; tso: sb +1 (safe and unsafe have no tso expectation)
    assert!(out.contains("score sc: 5 (3 tasks: 2 correct true, 1 correct false, 0 wrong true, 0 wrong false, 0 unknown, 0 without expectation;"), "{out}");
    assert!(out.contains("score tso: 1 (3 tasks: 0 correct true, 1 correct false, 0 wrong true, 0 wrong false, 0 unknown, 2 without expectation;"), "{out}");
}

#[test]
fn svcomp_run_exits_1_on_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    // claims the unsafe program is safe: tsoify's FALSE is scored as wrong
    suite(dir.path(), &[("wrong", UNSAFE, task_yml("wrong.c", "unreach-call.prp", true, ""))]);
    let (code, out, err) = svcomp_run(&[dir.path().to_str().unwrap(), "--models", "sc"]);
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(&row(&out, "g/wrong", "sc")[2..5], ["TRUE", "FALSE", "NO"]);
    assert!(out.contains("score sc: -16 (1 tasks: 0 correct true, 0 correct false, 0 wrong true, 1 wrong false,"), "{out}");
    // nothing to run is a usage error
    let empty = tempfile::tempdir().unwrap();
    let (code, _, err) = svcomp_run(&[empty.path().to_str().unwrap()]);
    assert_eq!(code, 3, "{err}");
}
