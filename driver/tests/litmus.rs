//! The litmus suite: for every test in tests/litmus, the SET of final
//! outcomes reachable under SC, TSO and PSO must equal the expected set in
//! its .expect file exactly (the sets come from tests/litmus/oracle.py, an
//! independent brute-force model; `oracle.py --check` verifies them and the
//! published table). Every test runs with both reductions (`--por source`
//! and `--por optimal`) and, where the program is small enough, also
//! exhaustively (`--por none`), so each reduction is checked against both
//! the oracle and full search.

mod common;
use common::*;

#[derive(serde::Deserialize)]
struct Expect {
    outcomes: Models,
    bounded: Option<Bounded>,
}
#[derive(serde::Deserialize)]
struct Models {
    sc: Vec<String>,
    tso: Vec<String>,
    pso: Vec<String>,
}
#[derive(serde::Deserialize)]
struct Bounded {
    safe: Vec<u32>,
    violation: Vec<u32>,
}

fn expect(name: &str) -> Expect {
    let p = repo().join("tests/litmus").join(format!("{name}.expect"));
    toml::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

/// Which searches to run: with the reduction only, or also exhaustively.
#[derive(Clone, Copy, PartialEq)]
enum Searches {
    DporOnly,
    DporAndNone,
}

fn check(name: &str, searches: Searches) {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/litmus").join(format!("{name}.c")), dir.path());
    let e = expect(name);
    for m in ["sc", "tso", "pso"] {
        let want = match m {
            "sc" => &e.outcomes.sc,
            "tso" => &e.outcomes.tso,
            _ => &e.outcomes.pso,
        };
        let mut want = want.clone();
        want.sort();
        let pors: &[&str] = if searches == Searches::DporAndNone { &["source", "optimal", "none"] } else { &["source", "optimal"] };
        for por in pors {
            let (_, summary) = verify_json(&prog, &["--outcomes", "--model", m, "--buffer-size", "0", "--por", por]);
            assert_eq!(outcomes(&summary), want, "{name} under {m} with --por {por}: reachable outcomes differ from the expected set");
        }
    }
}

macro_rules! litmus {
    ($($fn_name:ident => $file:literal),* $(,)?) => {
        $( #[test] fn $fn_name() { check($file, Searches::DporAndNone); } )*
    };
}

litmus! {
    sb => "SB",
    sb_mfences => "SB+mfences",
    sb_xchg => "SB+xchg",
    mp => "MP",
    mp_fence => "MP+fence",
    lb => "LB",
    two_plus_two_w => "2+2W",
    r => "R",
    s => "S",
    n6 => "n6",
    corr => "CoRR",
    own_read => "own-read",
    mixed_bytes => "mixed-bytes",
    mixed_overlap => "mixed-overlap",
    mixed_own => "mixed-own",
    bound3 => "bound3",
    sb_cas => "SB+cas",
    sb_cas_fadd => "SB+cas+fadd",
}

/// Three or four worker threads: with the reduction only (the exhaustive
/// search takes too long for CI).
mod many_threads {
    use super::{check, Searches};
    macro_rules! reduced {
        ($($fn_name:ident => $file:literal),* $(,)?) => {
            $( #[test] fn $fn_name() { check($file, Searches::DporOnly); } )*
        };
    }
    reduced! {
        wrc => "WRC", iriw => "IRIW", sb3 => "SB3", sb4 => "SB4", mp3 => "MP3", n6_3 => "n6-3",
        cas_ring3 => "CAS-ring3", cas_ring4 => "CAS-ring4",
    }
}

/// bound3 needs three stores buffered at once: SAFE for K=1,2, a violation
/// for K=3 and unbounded (K=0).
#[test]
fn bounded_buffers() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/litmus/bound3.c"), dir.path());
    let b = expect("bound3").bounded.expect("bound3.expect has a [bounded] table");
    for k in &b.safe {
        let (code, s) = verify_json(&prog, &["--model", "tso", "--buffer-size", &k.to_string()]);
        assert_eq!((code, s["verdict"].as_str().unwrap()), (0, "SAFE"), "bound3 with K={k}");
    }
    for k in &b.violation {
        let (code, s) = verify_json(&prog, &["--model", "tso", "--buffer-size", &k.to_string()]);
        assert_eq!((code, s["verdict"].as_str().unwrap()), (1, "VIOLATION"), "bound3 with K={k}");
    }
}

/// The oracle that produced the expected sets agrees with every .expect file
/// and with the published table.
#[test]
fn oracle_agrees_with_expectations() {
    let o = std::process::Command::new("python3")
        .arg(repo().join("tests/litmus/oracle.py"))
        .arg("--check")
        .current_dir(repo())
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
}
