//! `verify --compare`: one build, several models and store-buffer bounds, one
//! table (text, JSON, CSV) and a plot.

mod common;
use common::*;

/// bound3 needs three stores buffered at once: under TSO it is SAFE for
/// bounds 1 and 2 and violated from 3 on; SC never violates it.
#[test]
fn bound3_smallest_violating_bound_is_3() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("compare.json");
    let src = repo().join("tests/litmus/bound3.c");
    let (code, out, err) = run_verify(&[
        "--compare",
        "--models",
        "sc,tso",
        "--bounds",
        "1,2,3,unbounded",
        "--json",
        json.to_str().unwrap(),
        src.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "a violation was found: {out}{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let cols = |key: &str| -> Vec<String> { rows.iter().map(|r| r[key].as_str().unwrap().to_string()).collect() };
    assert_eq!(cols("model"), ["sc", "tso", "tso", "tso", "tso"], "{v}");
    assert_eq!(cols("bound_label"), ["-", "1", "2", "3", "unbounded"], "{v}");
    assert_eq!(cols("verdict"), ["SAFE", "SAFE", "SAFE", "VIOLATION", "VIOLATION"], "{v}");
    let bounds: Vec<serde_json::Value> = rows.iter().map(|r| r["bound"].clone()).collect();
    assert_eq!(bounds, [serde_json::Value::Null, 1.into(), 2.into(), 3.into(), 0.into()], "{v}");
    assert!(rows.iter().all(|r| r["executions"].as_u64().unwrap() > 0), "{v}");
    let smallest = &v["summary"]["smallest_violating_bound"];
    assert_eq!(smallest["tso"], "3", "{v}");
    assert!(smallest["sc"].is_null(), "{v}");
    assert_eq!(v["summary"]["exit_code"], 1, "{v}");

    // the table on stdout says the same
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 5 + 1, "{out}");
    assert!(lines[0].starts_with("model") && lines[0].contains("verdict") && lines[0].contains("executions"), "{out}");
    let verdicts: Vec<(&str, &str, &str)> = lines[1..6]
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0], f[1], f[2])
        })
        .collect();
    assert_eq!(
        verdicts,
        [("sc", "-", "SAFE"), ("tso", "1", "SAFE"), ("tso", "2", "SAFE"), ("tso", "3", "VIOLATION"), ("tso", "unbounded", "VIOLATION")],
        "{out}"
    );
    assert_eq!(lines[6], "smallest violating bound: tso 3 (sc: none)", "{out}");
}

/// Dekker under the default models and bounds: CSV and SVG are written.
#[test]
fn dekker_csv_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("dekker.csv");
    let svg = dir.path().join("dekker.svg");
    // an already-built program works as well as source
    let prog = build(&repo().join("examples/dekker.c"), dir.path());
    let (code, out, err) = run_verify(&[
        "--compare",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
        prog.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "model,bound,verdict,reason,executions,assume_blocked,seconds,por", "{text}");
    // sc once, tso and pso at each default bound 1,2,4,8,32,unbounded: SC is
    // safe, and one buffered store per thread is enough to break Dekker
    let rows: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split(',').collect()).collect();
    let keys: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[0], r[1], r[2])).collect();
    let mut expected = vec![("sc", "-", "SAFE")];
    for model in ["tso", "pso"] {
        for bound in ["1", "2", "4", "8", "32", "unbounded"] {
            expected.push((model, bound, "VIOLATION"));
        }
    }
    assert_eq!(keys, expected, "{text}");
    assert!(rows.iter().all(|r| r.len() == 8 && r[4].parse::<u64>().unwrap() > 0), "{text}");
    let por: Vec<&str> = rows.iter().map(|r| r[7]).collect();
    assert_eq!(por, vec!["optimal"; 13], "{text}");
    let plot = std::fs::read_to_string(&svg).expect("the plot was written");
    assert!(plot.contains("<svg"), "{plot}");
    assert!(plot.contains("unbounded") && plot.contains("executions"), "axis labels are in the plot");
    assert!(out.lines().last().unwrap() == "smallest violating bound: tso 1, pso 1 (sc: none)", "{out}");
}

/// A limit that cuts every search short gives UNKNOWN rows and exit code 2;
/// the compare-only flags need --compare, and --model conflicts with it.
#[test]
fn unknown_exit_code_and_flag_errors() {
    let src = repo().join("examples/dekker.c");
    let src = src.to_str().unwrap();
    let (code, out, err) =
        run_verify(&["--compare", "--models", "tso", "--bounds", "2", "--max-executions", "1", "-DFENCED", src]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("UNKNOWN") && out.contains("max-executions"), "{out}");
    for args in [vec!["--bounds", "1", src], vec!["--csv", "x.csv", src], vec!["--compare", "--model", "sc", src], vec![
        "--compare",
        "--bounds",
        "one",
        src,
    ]] {
        let (code, _, err) = run_verify(&args);
        assert_eq!(code, 3, "{args:?}: {err}");
    }
}
