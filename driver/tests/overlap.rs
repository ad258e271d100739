//! Posting the next execution before the last one is analysed
//! (driver/src/explore/speculation.rs) changes when executions run, never
//! which: with it forced on (TSOIFY_OVERLAP=1) and off (=0), verify
//! explores the same executions and prints the same answer and outcomes.

mod common;
use common::*;
use std::path::Path;

/// verify's output with the timings masked, and the counts of the
/// `posted ahead` line of `--stats` taken out: (exit code, output,
/// (posted, used)).
fn run(prog: &Path, args: &[&str], overlap: &str) -> (i32, String, Option<(u64, u64)>) {
    let o = verify().args(args).arg(prog).env("TSOIFY_OVERLAP", overlap).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let mut ahead = None;
    let mut kept = vec![];
    for line in text.lines() {
        match line.trim().strip_prefix("posted ahead") {
            Some(rest) => {
                let n: Vec<u64> = rest.split_whitespace().filter_map(|w| w.parse().ok()).collect();
                ahead = Some((n[0], n[1]));
            }
            // (--stats' line on --por none shows how far it got in its time)
            None if line.trim().starts_with("reduction ") => {}
            None => kept.push(untimed(line)),
        }
    }
    (o.status.code().unwrap_or(-1), kept.join("\n"), ahead)
}

/// `line` with every duration ("0.012 s", "17.5 us/execution") as "T".
fn untimed(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let unit = |w: &str| w.trim_end_matches([',', ';', ')', '.']) == "s" || w.starts_with("us/");
    let words: Vec<&str> = words.iter().enumerate().map(|(i, w)| if w.parse::<f64>().is_ok() && words.get(i + 1).is_some_and(|u| unit(u)) { "T" } else { *w }).collect();
    words.join(" ")
}

#[test]
fn posting_ahead_explores_the_same_executions() {
    let dir = tempfile::tempdir().unwrap();
    let root = repo().join("tests/programs");
    let mut programs = vec![];
    for sub in ["reduction", "counts", "atomic-por"] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(sub)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        names.sort();
        programs.extend(names.into_iter().map(|p| build(&p, dir.path())));
    }
    assert!(programs.len() >= 30, "the test programs are missing");
    for prog in &programs {
        for model in ["sc", "tso", "pso"] {
            // every outcome at buffer size 2 too, under TSO (a search
            // with the bound, not unbounded first)
            let outcomes = &["--por", "optimal", "--outcomes", "--buffer-size", "2"][..];
            let source = &["--por", "source"][..];
            for extra in [&["--por", "optimal"][..], outcomes, source].into_iter().filter(|e| model == "tso" || e.len() == 2) {
                let mut args = vec!["--model", model];
                args.extend_from_slice(extra);
                let (code_off, off, _) = run(prog, &args, "0");
                let (code_on, on, _) = run(prog, &args, "1");
                assert_eq!((code_on, &on), (code_off, &off), "{} {args:?}: with and without posting ahead", prog.display());
            }
        }
    }
}

/// lastzero posts most executions ahead and uses most of them (optimal
/// DPOR; source DPOR over a quarter), and the counts show (`--stats`);
/// with TSOIFY_OVERLAP=0 nothing is posted ahead.
#[test]
fn lastzero_uses_most_executions_posted_ahead() {
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("lastzero.tso");
    let o = tsoify().arg(repo().join("bench/lastzero.c")).arg("-DN=6").arg("-o").arg(&prog).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (model, por) in [("sc", "optimal"), ("tso", "optimal"), ("pso", "optimal"), ("tso", "source")] {
        // (--stats also runs --por none, for as long as --timeout allows)
        let args = ["--stats", "--timeout", "1", "--model", model, "--por", por];
        let (code, on, ahead) = run(&prog, &args, "1");
        let (code_off, off, none) = run(&prog, &args, "0");
        assert_eq!((code, &on), (code_off, &off), "{model} {por}");
        assert_eq!(code, 0, "{model} {por}: lastzero is safe\n{on}");
        assert_eq!(none, None, "{model} {por}: nothing posted ahead with TSOIFY_OVERLAP=0");
        let (posted, used) = ahead.unwrap_or_else(|| panic!("{model} {por}: no `posted ahead` line\n{on}"));
        let executions: u64 = on.lines().find_map(|l| l.strip_prefix("statistics: ")).and_then(|l| l.split_whitespace().next()).unwrap().parse().unwrap();
        assert!(used <= posted && posted < executions, "{model} {por}: {posted} posted, {used} used of {executions}");
        // (source DPOR's backtrack points change the next execution more
        // often: 105 of 275 under TSO)
        let share = if por == "optimal" { 2 } else { 4 };
        assert!(used * share > executions, "{model} {por}: only {used} of {executions} executions were posted ahead and used");
    }
}
