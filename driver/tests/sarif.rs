//! `verify --sarif`: the log validates against OASIS's SARIF 2.1.0 schema
//! (tests/data/sarif-schema-2.1.0.json, draft-07) and says what the text
//! report says: the rule, the failing line, and one thread-flow location per
//! step of the counterexample, named as the text trace names it.

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The validator of OASIS's schema, as draft-07.
fn schema_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo().join("driver/tests/data/sarif-schema-2.1.0.json")).unwrap();
    let mut schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-07/schema#");
    // The pattern of the two `language` properties (run, toolComponent) has
    // a stray `]`: a literal `]` in the ECMA-262 grammar without the u flag
    // (Annex B), a syntax error with it. jsonschema checks the schema's
    // patterns against its meta-schema ("format": "regex") the strict way
    // and refuses the whole schema, so escape it: the same pattern either
    // way (and verify writes no language).
    for def in ["run", "toolComponent"] {
        let language = &mut schema["definitions"][def]["properties"]["language"]["pattern"];
        assert_eq!(language, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
        *language = Value::from(r"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\]?$");
    }
    // formats too (the URIs are "uri" and "uri-reference")
    jsonschema::draft7::options().should_validate_formats(true).build(&schema).expect("the SARIF schema compiles as draft-07")
}

/// Panics with every schema error of `log`.
fn assert_valid(v: &jsonschema::Validator, log: &Value, what: &str) {
    let errors: Vec<String> = v.iter_errors(log).map(|e| format!("  {} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{what}: the SARIF log does not validate:\n{}\n{}", errors.join("\n"), serde_json::to_string_pretty(log).unwrap());
}

/// Run verify in `cwd` with `args` and `--sarif` to a fresh file; returns
/// (exit code, stdout, the log).
fn verify_sarif(cwd: &Path, args: &[&str]) -> (i32, String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.sarif");
    let o = verify().current_dir(cwd).arg("--sarif").arg(&path).args(args).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("no SARIF written: {out}{}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code().unwrap_or(-1), out, serde_json::from_str(&text).unwrap())
}

fn dekker(dir: &Path) -> PathBuf {
    build(&repo().join("examples/dekker.c"), dir)
}

/// The rows of the text counterexample (step, thread, location, operation...).
fn text_trace_rows(out: &str) -> Vec<&str> {
    out.lines()
        .skip_while(|l| !l.starts_with("counterexample ("))
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.split_whitespace().next().is_some_and(|w| w.parse::<u32>().is_ok()))
        .collect()
}

fn flow_locations(result: &Value) -> Vec<Value> {
    let flows = result["codeFlows"][0]["threadFlows"].as_array().unwrap();
    flows.iter().flat_map(|f| f["locations"].as_array().unwrap().clone()).collect()
}

fn line_of(source: &Path, needle: &str) -> u64 {
    let text = std::fs::read_to_string(source).unwrap();
    1 + text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle} not in {}", source.display())) as u64
}

#[test]
fn dekker_under_tso_is_a_valid_sarif_log_with_the_counterexample() {
    let validator = schema_validator();
    let dir = tempfile::tempdir().unwrap();
    let prog = dekker(dir.path());
    let trace_json = dir.path().join("trace.json");
    let (code, out, log) = verify_sarif(&repo(), &["--trace-json", trace_json.to_str().unwrap(), prog.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("VIOLATION assertion"), "{out}");
    assert_valid(&validator, &log, "dekker under TSO");
    // the validator is not vacuous: a level SARIF does not know, a flow
    // location's order below -1, or no version are refused
    for (pointer, bad) in [("/runs/0/results/0/level", Value::from("fatal")), ("/runs/0/results/0/codeFlows/0/threadFlows/0/locations/0/executionOrder", Value::from(-2)), ("/version", Value::from("2.0.0"))] {
        let mut broken = log.clone();
        *broken.pointer_mut(pointer).unwrap() = bad;
        assert!(!validator.is_valid(&broken), "{pointer}");
    }

    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["tool"]["driver"]["name"], "tsoify verify");
    assert_eq!(run["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run["invocations"][0]["exitCode"], 1);

    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{results:?}");
    let r = &results[0];
    assert_eq!(r["ruleId"], "assertion-violation");
    assert_eq!(r["level"], "error");
    let rule = &run["tool"]["driver"]["rules"][r["ruleIndex"].as_u64().unwrap() as usize];
    assert_eq!(rule["id"], "assertion-violation");
    let message = r["message"]["text"].as_str().unwrap();
    assert!(message.starts_with("assertion `before == 0"), "{message}");
    assert!(message.ends_with("failed under TSO (buffer size 32)"), "{message}");

    // at the failing assert of dekker.c, relative to the directory verify ran in
    let source = repo().join("examples/dekker.c");
    let assert_line = line_of(&source, "assert(before == 0");
    let at = &r["locations"][0]["physicalLocation"];
    assert_eq!(at["artifactLocation"]["uri"], "examples/dekker.c");
    assert_eq!(at["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(at["region"]["startLine"], assert_line);
    assert_eq!(r["locations"][0]["logicalLocations"][0]["name"], "critical_section");

    // one thread-flow location per step of the text trace, in its order,
    // each the step as the trace shows it
    let rows = text_trace_rows(&out);
    let steps: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&trace_json).unwrap()).unwrap();
    let locs = flow_locations(r);
    assert!(rows.len() > 5, "{out}");
    assert_eq!(locs.len(), rows.len(), "thread-flow locations against the text trace:\n{out}");
    assert_eq!(steps.len(), rows.len());
    for (i, ((l, s), row)) in locs.iter().zip(&steps).zip(&rows).enumerate() {
        assert_eq!(l["executionOrder"], i as u64 + 1);
        let thread = format!("T{}", s["thread"]);
        let (op, buffer) = (s["operation"].as_str().unwrap(), s["buffer"].as_str().unwrap());
        let text = if buffer.is_empty() { format!("{thread}: {op}") } else { format!("{thread}: {op} ({buffer})") };
        assert_eq!(l["location"]["message"]["text"], text.as_str(), "step {}", i + 1);
        assert!(row.contains(op) && row.contains(&thread), "{row} / {text}");
        assert_eq!(l["properties"]["thread"], thread.as_str());
        // the step's file:line as the trace prints it
        let (file, line) = s["location"].as_str().unwrap().rsplit_once(':').unwrap();
        let pl = &l["location"]["physicalLocation"];
        assert!(pl["artifactLocation"]["uri"].as_str().unwrap().ends_with(file), "{pl}");
        assert_eq!(pl["region"]["startLine"].to_string(), line);
    }
    let last = locs.last().unwrap();
    assert!(last["location"]["message"]["text"].as_str().unwrap().contains("VIOLATION: assertion"), "{last}");
    assert_eq!(last["location"]["physicalLocation"]["region"]["startLine"], assert_line);

    // the bug itself: a flag store buffered in a thread, later flushed from
    // that thread's buffer, at the store's line
    let texts: Vec<&str> = locs.iter().map(|l| l["location"]["message"]["text"].as_str().unwrap()).collect();
    let mut pairs = 0;
    for (flag, line_text) in [("flag0", "flag0 = 1;"), ("flag1", "flag1 = 1;")] {
        let store = texts.iter().position(|t| t.contains(&format!(": store {flag} = 1 (buffered in T"))).unwrap_or_else(|| panic!("no buffered store of {flag}: {texts:#?}"));
        let thread = texts[store].split(':').next().unwrap();
        let flush = texts.iter().position(|t| *t == format!("{thread}: flush {flag} = 1 ({thread}'s buffer -> memory)")).unwrap_or_else(|| panic!("no flush of {thread}'s {flag}: {texts:#?}"));
        assert!(store < flush);
        assert_eq!(texts[store], format!("{thread}: store {flag} = 1 (buffered in {thread})"));
        assert_eq!(locs[flush]["properties"]["thread"], thread);
        assert_eq!(locs[flush]["properties"]["storeBuffer"], format!("{thread}'s buffer -> memory"));
        for i in [store, flush] {
            assert_eq!(locs[i]["location"]["physicalLocation"]["region"]["startLine"], line_of(&source, line_text));
        }
        pairs += 1;
    }
    assert_eq!(pairs, 2);

    // --quiet writes the same log (only the arguments differ)
    let (_, quiet_out, mut quiet) = verify_sarif(&repo(), &["--quiet", prog.to_str().unwrap()]);
    assert_eq!(quiet_out.trim(), "VIOLATION assertion");
    let mut loud = log.clone();
    for l in [&mut loud, &mut quiet] {
        l["runs"][0]["invocations"][0]["arguments"] = Value::Null;
    }
    assert_eq!(loud, quiet);
}

#[test]
fn safe_and_unknown_have_no_results_and_unknown_says_why() {
    let validator = schema_validator();
    let dir = tempfile::tempdir().unwrap();
    let prog = dekker(dir.path());
    let p = prog.to_str().unwrap();

    let (code, out, log) = verify_sarif(&repo(), &["--quiet", "--model", "sc", "--races=off", p]);
    assert_eq!((code, out.trim()), (0, "SAFE"));
    assert_valid(&validator, &log, "dekker under SC");
    let run = &log["runs"][0];
    assert_eq!(run["results"], serde_json::json!([]));
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run["invocations"][0]["exitCode"], 0);
    assert!(run["invocations"][0].get("toolExecutionNotifications").is_none(), "{run}");
    assert_eq!(run["properties"]["verdict"], "SAFE");

    // dekker's flags race (plain accesses): still SAFE and no result, but a
    // note says so, as the text report does
    let (code, _, log) = verify_sarif(&repo(), &["--quiet", "--model", "sc", p]);
    assert_eq!(code, 0);
    assert_valid(&validator, &log, "dekker under SC, races seen");
    let inv = &log["runs"][0]["invocations"][0];
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    assert_eq!(inv["executionSuccessful"], true);
    let n = &inv["toolExecutionNotifications"][0];
    assert_eq!((&n["level"], &n["descriptor"]["id"]), (&Value::from("note"), &Value::from("data-races-seen")), "{inv}");

    let (code, out, log) = verify_sarif(&repo(), &["--quiet", "--model", "sc", "--max-executions", "1", p]);
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with("UNKNOWN"), "{out}");
    assert_valid(&validator, &log, "dekker cut after one execution");
    let run = &log["runs"][0];
    assert_eq!(run["results"], serde_json::json!([]));
    let inv = &run["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert_eq!(inv["exitCode"], 2);
    let n = &inv["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "error");
    let text = n["message"]["text"].as_str().unwrap();
    assert!(text.starts_with("UNKNOWN ") && text.contains("max-executions"), "{text}");
    assert!(text.contains("no proof"), "{text}");
}

#[test]
fn other_kinds_validate_and_name_their_rule() {
    let validator = schema_validator();
    let dir = tempfile::tempdir().unwrap();
    let races = build(&repo().join("tests/programs/races/plain-flag.c"), dir.path());
    let deadlock = build(&repo().join("tests/programs/deadlock.c"), dir.path());
    let sb = build(&repo().join("tests/litmus/SB.c"), dir.path());
    let cases: [(&str, Vec<&str>, &str, &str); 3] = [
        ("data race", vec!["--model", "sc", "--races=violation", races.to_str().unwrap()], "data-race", "plain-flag.c"),
        ("deadlock", vec![deadlock.to_str().unwrap()], "deadlock", "deadlock.c"),
        ("not robust", vec!["--robustness", sb.to_str().unwrap()], "not-robust", "SB.c"),
    ];
    for (what, args, rule, file) in cases {
        let (code, out, log) = verify_sarif(&repo(), &args);
        assert_eq!(code, 1, "{what}: {out}");
        assert_valid(&validator, &log, what);
        let r = &log["runs"][0]["results"][0];
        assert_eq!(r["ruleId"], rule, "{what}");
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
        assert!(uri.ends_with(file), "{what}: {uri}");
        let rows = text_trace_rows(&out).len();
        let locs = flow_locations(r).len();
        assert!(locs > 0, "{what}");
        if rows > 0 {
            assert_eq!(locs, rows, "{what}: {out}");
        }
        if rule != "deadlock" {
            assert!(r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"].as_u64().unwrap() > 0, "{what}: {r}");
        }
    }
    // a source outside the working directory: an absolute file URI
    let source = repo().join("tests/programs/deadlock.c");
    let (_, _, log) = verify_sarif(dir.path(), &[source.to_str().unwrap()]);
    let uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.starts_with("file:///") && uri.ends_with("/tests/programs/deadlock.c"), "{uri}: {log}");
    assert_valid(&validator, &log, "absolute URIs");
}

/// The whole log of Dekker under TSO, pinned (paths and version normalised).
#[test]
fn dekker_sarif_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dekker(dir.path());
    let (_, _, mut log) = verify_sarif(&repo(), &["--quiet", prog.to_str().unwrap()]);
    let arguments = &mut log["runs"][0]["invocations"][0]["arguments"];
    assert_eq!(arguments[0], "--sarif");
    arguments[1] = Value::from("OUT.sarif");
    let text = serde_json::to_string_pretty(&log).unwrap();
    let repo_uri = format!("file://{}/", repo().display());
    let text = text
        .replace(&repo_uri, "file:///REPO/")
        .replace(&dir.path().display().to_string(), "TMP")
        .replace(&format!("\"{}\"", env!("CARGO_PKG_VERSION")), "\"VERSION\"");
    insta::assert_snapshot!("dekker_tso", text);
}
