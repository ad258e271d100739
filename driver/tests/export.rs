//! Export mode (`tsoify --export`, issue 7): the exported module is an
//! ordinary SC program that encodes the chosen model with the runtime's own
//! store buffers. Differential tests: `verify --model sc` on the export must
//! reach exactly the outcomes (or verdict) that `verify --model tso|pso`
//! reaches on the original, at buffer bounds 1, 2 and the default 32; a
//! structural check that the export needs nothing from the native runtime;
//! and, when TSOIFY_SC_CHECKER names a command, the same verdicts through it.

mod common;
use common::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const BOUNDS: [u32; 3] = [1, 2, 32];

fn export(source: &Path, dir: &Path, model: &str, bound: u32, extra: &[&str]) -> PathBuf {
    let stem = source.file_stem().unwrap().to_str().unwrap();
    let out = dir.join(format!("{stem}.{model}.{bound}.sc.bc"));
    let o = tsoify()
        .args(["--export", "--model", model, "--buffer-size", &bound.to_string()])
        .args(extra)
        .arg(source)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "tsoify --export {} failed: {}", source.display(), String::from_utf8_lossy(&o.stderr));
    out
}

/// Outcome sets (and verdicts) of the export under SC and of the original
/// under `model`, for every bound.
fn differential(source: &Path, with_outcomes: bool) {
    differential_at(source, &["tso", "pso"], &BOUNDS, &[], with_outcomes);
}

/// The same for the given models and bounds, exported with `extra` flags.
fn differential_at(source: &Path, models: &[&str], bounds: &[u32], extra: &[&str], with_outcomes: bool) {
    let dir = tempfile::tempdir().unwrap();
    for &model in models {
        for &k in bounds {
            let ks = k.to_string();
            let (code, native) = verify_json(source, &["--outcomes", "--model", model, "--buffer-size", &ks]);
            let exported = export(source, dir.path(), model, k, extra);
            let (sc_code, sc) = verify_json(&exported, &["--outcomes", "--model", "sc"]);
            let what = format!("{} under {model} with K={k}, exported with {extra:?}", source.display());
            assert_eq!(sc["verdict"], native["verdict"], "{what}: verdicts differ (native exit {code}, export exit {sc_code})");
            assert!(!with_outcomes || !outcomes(&native).is_empty(), "{what}: no outcomes to compare");
            assert_eq!(outcomes(&sc), outcomes(&native), "{what}: the export reaches other outcomes under SC");
        }
    }
}

fn litmus(name: &str) -> PathBuf {
    repo().join("tests/litmus").join(format!("{name}.c"))
}

macro_rules! differential_tests {
    ($($fn_name:ident => $name:literal),* $(,)?) => {
        $( #[test] fn $fn_name() { differential(&litmus($name), true); } )*
    };
}

// Every two-thread litmus test.
differential_tests! {
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
    sb_cas => "SB+cas",
    sb_cas_fadd => "SB+cas+fadd",
}

/// The bundled examples: verdicts (they assert, and report no outcomes).
#[test]
fn examples() {
    for name in ["dekker", "message-passing"] {
        differential(&repo().join("examples").join(format!("{name}.c")), false);
    }
}

/// The program's own atomic blocks: natively any buffer may flush before
/// one (the export once let none; found by fuzz.py --atomic --export), and
/// none inside it, so two reads of one byte in a block agree (the export
/// flushes at the block's first access to the bytes, never after).
#[test]
fn atomic_blocks_read_other_threads_flushes() {
    for name in ["block-reads-a-flush", "block-after-xchg-flush", "block-rereads-a-byte"] {
        differential(&repo().join("tests/programs/export").join(format!("{name}.c")), true);
    }
}

/// The rest of the litmus suite: three or four worker threads, or (bound3)
/// nine steps in one thread. Each takes seconds to a minute through an
/// optimised `verify --model sc` (its runtime steps declare what they
/// touch, so the reduction commutes the independent ones; n6-3 under PSO
/// at K=2 is the longest, about 330 000 executions) but much longer in a
/// debug build, so a plain `cargo test` skips them: scripts/test runs them
/// all with `cargo test --release --test export -- --ignored`.
mod slow {
    use super::{differential, litmus};
    macro_rules! slow {
        ($($fn_name:ident => $name:literal),* $(,)?) => {
            $( #[test] #[ignore = "slow in a debug build; scripts/test runs them with --release --ignored"]
               fn $fn_name() { differential(&litmus($name), true); } )*
        };
    }
    slow! {
        bound3 => "bound3", wrc => "WRC", iriw => "IRIW", sb3 => "SB3", sb4 => "SB4", mp3 => "MP3", n6_3 => "n6-3",
        cas_ring3 => "CAS-ring3", cas_ring4 => "CAS-ring4",
    }
}

/// The atomic-mutex variant means the same (checked on the two tests that
/// need a flush chosen at a load, and a fence).
#[test]
fn mutex_variant_reaches_the_same_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["SB", "MP+fence"] {
        let exported = export(&litmus(name), dir.path(), "tso", 2, &["--export-atomic", "mutex"]);
        let text = ll_text(&exported, dir.path());
        assert!(text.contains("@pthread_mutex_lock") && !text.contains("@__VERIFIER_atomic_begin"), "{name}: steps use the mutex");
        let (_, sc) = verify_json(&exported, &["--outcomes", "--model", "sc"]);
        let (_, native) = verify_json(&litmus(name), &["--outcomes", "--model", "tso", "--buffer-size", "2"]);
        assert_eq!(outcomes(&sc), outcomes(&native), "{name} with --export-atomic mutex");
    }
}

/// Flusher threads (`--export-flush threads`): every relaxed behaviour is
/// an interleaving of the flushers with the program, so the export needs
/// no nondet values. Our SC mode on it must reach exactly the outcomes the
/// native model does, under TSO and PSO: with fine locking
/// (`--export-atomic mutex`, the form for Nidhugg) on every two-thread
/// litmus test, with atomic steps on the one-thread test (our explorer
/// orders every pair of atomic blocks, so more is minutes). K = 1 keeps
/// the checker's interleavings few; K = 2 (TSO) where a thread buffers
/// two stores, and for the TSO ring (export.c) where slots are reused.
fn flusher_case(name: &str, atomic: &str, k: u32) {
    // PSO gives each thread K flushers: at K = 2 that is many minutes here
    let models: &[&str] = if k == 1 { &["tso", "pso"] } else { &["tso"] };
    differential_at(&litmus(name), models, &[k], &["--export-flush", "threads", "--export-atomic", atomic], true);
}

mod flushers {
    use super::flusher_case;
    macro_rules! flusher_tests {
        ($($fn_name:ident => ($name:literal, $atomic:literal, $k:literal)),* $(,)?) => {
            $( #[test] fn $fn_name() { flusher_case($name, $atomic, $k); } )*
        };
    }
    flusher_tests! {
        sb => ("SB", "mutex", 1),
        sb_mfences => ("SB+mfences", "mutex", 1),
        sb_xchg => ("SB+xchg", "mutex", 1),
        mp => ("MP", "mutex", 1),
        mp_fence => ("MP+fence", "mutex", 1),
        lb => ("LB", "mutex", 1),
        two_plus_two_w => ("2+2W", "mutex", 1),
        two_plus_two_w_k2 => ("2+2W", "mutex", 2),
        r => ("R", "mutex", 1),
        s => ("S", "mutex", 1),
        n6 => ("n6", "mutex", 1),
        n6_k2 => ("n6", "mutex", 2),
        corr => ("CoRR", "mutex", 1),
        own_read => ("own-read", "mutex", 1),
        own_read_atomic_steps => ("own-read", "atomic", 1),
        mixed_bytes => ("mixed-bytes", "mutex", 1),
        mixed_overlap => ("mixed-overlap", "mutex", 1),
        mixed_own => ("mixed-own", "mutex", 1),
        // TSO at K = 2: the ring's slots are reused, loads forward from one
        // of two entries, a fence waits for two flushes
        mp_k2 => ("MP", "mutex", 2),
        sb_mfences_k2 => ("SB+mfences", "mutex", 2),
        mixed_own_k2 => ("mixed-own", "mutex", 2),
        mixed_overlap_k2 => ("mixed-overlap", "mutex", 2),
    }
}

/// What a stateless checker needs of a flusher-thread export: no nondet
/// value, no atomic block (with --export-atomic mutex), no memory
/// intrinsic or libc call it would run natively, locks it can see
/// initialised.
#[test]
fn flusher_export_needs_only_threads_and_locks() {
    let dir = tempfile::tempdir().unwrap();
    for model in ["tso", "pso"] {
        let exported = export(&litmus("SB"), dir.path(), model, 2, &["--export-flush", "threads", "--export-atomic", "mutex"]);
        let text = ll_text(&exported, dir.path());
        for absent in ["__VERIFIER_nondet", "__VERIFIER_atomic_begin", "@llvm.memcpy", "@llvm.memmove", "@llvm.memset", "@memcmp", "@memcpy"] {
            assert!(!text.contains(absent), "{model}: the flusher export mentions {absent}");
        }
        for present in ["@pthread_mutex_init", "@pthread_create", "@__VERIFIER_assume", "@__tsoify_x.flusher"] {
            assert!(text.contains(present), "{model}: the flusher export lacks {present}");
        }
    }
}

/// `--export-for genmc`: mutexes and flusher threads, and the pthread,
/// assert and heap functions defined in terms of GenMC's primitives, so
/// nothing glibc-only is left for GenMC to run natively; every global has
/// an explicit alignment (GenMC 0.11 lays out a global without one at
/// address 0, over the others). `--export-for nidhugg` is the mutex and
/// flusher export without glue.
#[test]
fn export_for_genmc_links_its_glue() {
    let dir = tempfile::tempdir().unwrap();
    let genmc = ll_text(&export(&litmus("SB"), dir.path(), "tso", 1, &["--export-for", "genmc"]), dir.path());
    let glue_calls = ["@__VERIFIER_thread_create", "@__VERIFIER_thread_join", "@__VERIFIER_mutex_lock", "@__VERIFIER_mutex_unlock", "@__VERIFIER_assert_fail"];
    for present in glue_calls.iter().chain(&["@__tsoify_x.flusher", "define internal i32 @pthread_create("]) {
        assert!(genmc.contains(present), "the GenMC export lacks {present}");
    }
    let glibc: Vec<String> = declared(&genmc).into_iter().filter(|d| d.starts_with("pthread_") || d == "__assert_fail" || d == "malloc").collect();
    assert!(glibc.is_empty(), "the GenMC export still calls glibc's {glibc:?}");
    let unaligned: Vec<&str> = genmc.lines().filter(|l| l.starts_with('@') && (l.contains(" global ") || l.contains(" constant ")) && !l.contains(", align ")).collect();
    assert!(unaligned.is_empty(), "globals without an alignment: {unaligned:?}");
    // an access the runtime must split stops GenMC with a named error
    let stop = "@tsoify_genmc_cannot_check_an_unaligned_or_odd_sized_access";
    assert!(genmc.contains(&format!("call void {stop}()")), "the GenMC export does not stop at split accesses");
    let nidhugg = ll_text(&export(&litmus("SB"), dir.path(), "tso", 1, &["--export-for", "nidhugg"]), dir.path());
    assert!(!nidhugg.contains(stop), "only the GenMC export stops at split accesses");
    assert!(nidhugg.contains("@__tsoify_x.flusher") && declared(&nidhugg).contains("pthread_mutex_lock"), "the Nidhugg export is the mutex and flusher one");
    assert!(!nidhugg.contains("__VERIFIER_thread_create"), "the Nidhugg export has no GenMC glue");
}

/// An --export-atomic or --export-flush the chosen checker cannot use is
/// an error, not silently replaced.
#[test]
fn export_for_refuses_a_conflicting_choice() {
    for (flag, value, needed) in [("--export-flush", "choice", "--export-flush threads"), ("--export-atomic", "atomic", "--export-atomic mutex")] {
        let o = tsoify().args(["--export", "--export-for", "genmc", flag, value]).arg(litmus("SB")).arg("-o").arg("/dev/null").output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{flag} {value}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(err.contains(needed) && err.contains("hint:"), "{flag} {value}: {err}");
    }
}

/// PSO flusher exports give each thread K flushers: a large K is allowed,
/// but tsoify says what it costs (and nothing at K <= 2).
#[test]
fn flusher_export_under_pso_notes_a_large_bound() {
    let dir = tempfile::tempdir().unwrap();
    for (k, noted) in [("32", true), ("2", false)] {
        let o = tsoify()
            .args(["--export", "--export-flush", "threads", "--model", "pso", "--buffer-size", k])
            .arg(litmus("SB"))
            .arg("-o")
            .arg(dir.path().join("sb.sc.bc"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "K={k}: {err}");
        assert_eq!(err.contains("flusher threads") && err.contains("--buffer-size 1 or 2"), noted, "K={k}: {err}");
    }
}

#[test]
fn export_refuses_unbounded_and_oversized_buffers() {
    for (k, needle) in [("0", "unbounded"), ("33", "up to 32")] {
        let o = tsoify().args(["--export", "--buffer-size", k]).arg(litmus("SB")).arg("-o").arg("/dev/null").output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "K={k}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(err.contains(needle) && err.contains("hint:"), "K={k}: {err}");
    }
}

/// The export's runtime is not instrumented again: whatever model verify
/// is asked for, no store of the export is buffered, so TSO explores
/// exactly what SC does.
#[test]
fn an_export_is_not_instrumented_again() {
    let dir = tempfile::tempdir().unwrap();
    let exported = export(&repo().join("examples/dekker.c"), dir.path(), "tso", 2, &[]);
    let (_, sc) = verify_json(&exported, &["--model", "sc"]);
    let (_, tso) = verify_json(&exported, &["--model", "tso"]);
    assert_eq!(sc["verdict"], "VIOLATION");
    assert_eq!((&tso["verdict"], &tso["executions"]), (&sc["verdict"], &sc["executions"]));
}

fn ll_text(bc: &Path, dir: &Path) -> String {
    let ll = dir.join("dis.ll");
    let o = std::process::Command::new(tsoify::build::llvm_tool("llvm-dis").unwrap()).arg(bc).arg("-o").arg(&ll).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(ll).unwrap()
}

/// Functions a module declares but does not define.
fn declared(ll: &str) -> BTreeSet<String> {
    ll.lines()
        .filter(|l| l.starts_with("declare "))
        .filter_map(|l| l.split('@').nth(1).and_then(|r| r.split('(').next()).map(|n| n.trim_matches('"').to_string()))
        .filter(|n| !n.starts_with("llvm."))
        .collect()
}

/// The export needs nothing from the native runtime (no scheduler, no
/// channel, no fork) and calls nothing the original program did not,
/// beyond the checker's interface.
#[test]
fn export_is_self_contained_and_makes_no_new_calls() {
    let dir = tempfile::tempdir().unwrap();
    let checker_interface = ["__VERIFIER_nondet_uint", "__VERIFIER_assume", "__VERIFIER_atomic_begin", "__VERIFIER_atomic_end", "__assert_fail", "pthread_self"];
    for (source, atomic) in [(repo().join("examples/dekker.c"), "atomic"), (litmus("mixed-own"), "atomic"), (litmus("SB"), "mutex")] {
        let ll = dir.path().join("orig.ll");
        let o = std::process::Command::new(tsoify::build::llvm_tool("clang").unwrap())
            .args(["-S", "-emit-llvm", "-O0", "-I"])
            .arg(repo().join("include"))
            .arg(&source)
            .arg("-o")
            .arg(&ll)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let original = declared(&std::fs::read_to_string(&ll).unwrap());
        let exported = export(&source, dir.path(), "tso", 2, &["--export-atomic", atomic]);
        let text = ll_text(&exported, dir.path());
        let mut allowed: BTreeSet<String> = original.clone();
        allowed.extend(checker_interface.iter().map(|s| s.to_string()));
        if atomic == "mutex" {
            allowed.extend(["pthread_mutex_lock".to_string(), "pthread_mutex_unlock".to_string()]);
        }
        let extra: Vec<String> = declared(&text).into_iter().filter(|d| !allowed.contains(d)).collect();
        assert!(extra.is_empty(), "{}: the export calls {extra:?}, which the original did not", source.display());
        for native in ["rt_shm", "rt_choose_proc", "rt_run_execution", "rt_leave_execution", "tsoify_shm", "swapcontext", "@fork", "@mmap", "@getenv", "TSOIFY_CHANNEL", "__tsoify_user_main", "__tsoify_locs"] {
            assert!(!text.contains(native), "{}: the export mentions {native}", source.display());
        }
        assert!(text.contains("define dso_local i32 @main("), "the program's own main is kept");
        assert!(!text.lines().any(|l| l.starts_with("declare") && l.contains("@__tsoify")), "every runtime function is in the export");
    }
}

/// TSOIFY_SC_CHECKER: a command that takes an exported .bc as its last
/// argument and exits 0 when no execution fails, non-zero with a message
/// that mentions an assertion when one does (e.g. `nidhugg --sc
/// --optimal`, see the README); any other failure fails the test.
/// TSOIFY_SC_CHECKER_FOR (nidhugg, genmc) makes the export with
/// --export-for; else TSOIFY_SC_CHECKER_ATOMIC and TSOIFY_SC_CHECKER_FLUSH
/// choose --export-atomic and --export-flush. Verdicts of the programs
/// with assertions are compared with native verify. With
/// TSOIFY_SC_CHECKER_TIMEOUT=S a run is stopped after S seconds and
/// listed as timed out (at the end too), not compared; without it every
/// run goes to its end.
#[test]
fn external_sc_checker_agrees() {
    let Ok(cmd) = std::env::var("TSOIFY_SC_CHECKER") else {
        eprintln!("skipped: TSOIFY_SC_CHECKER unset");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let checker_for = std::env::var("TSOIFY_SC_CHECKER_FOR").ok();
    let atomic = std::env::var("TSOIFY_SC_CHECKER_ATOMIC").unwrap_or_else(|_| "atomic".into());
    let mut flush = std::env::var("TSOIFY_SC_CHECKER_FLUSH").unwrap_or_else(|_| "choice".into());
    let flags: Vec<String> = match &checker_for {
        Some(name) => {
            flush = "threads".into();
            vec!["--export-for".into(), name.clone()]
        }
        None => vec!["--export-atomic".into(), atomic.clone(), "--export-flush".into(), flush.clone()],
    };
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    // flusher threads: PSO gives each thread K flushers, too many for a checker at K = 32
    let bounds: &[u32] = if flush == "threads" { &[1, 2] } else { &BOUNDS };
    let timeout: Option<u32> = std::env::var("TSOIFY_SC_CHECKER_TIMEOUT").ok().map(|s| s.parse().expect("TSOIFY_SC_CHECKER_TIMEOUT: seconds"));
    let mut timed_out: Vec<String> = vec![];
    for source in [repo().join("examples/dekker.c"), repo().join("examples/message-passing.c"), litmus("bound3")] {
        for model in ["tso", "pso"] {
            for &k in bounds {
                let (code, native) = verify_json(&source, &["--model", model, "--buffer-size", &k.to_string()]);
                assert!(code == 0 || code == 1, "native verdict {}", native["verdict"]);
                let exported = export(&source, dir.path(), model, k, &flags);
                let start = std::time::Instant::now();
                let mut run = match timeout {
                    // coreutils timeout: exit 124 when the limit stopped the run
                    Some(s) => {
                        let mut c = std::process::Command::new("timeout");
                        c.args(["--kill-after=5", &s.to_string(), "sh"]);
                        c
                    }
                    None => std::process::Command::new("sh"),
                };
                let o = run.arg("-c").arg(format!("{cmd} \"$0\"")).arg(&exported).output().unwrap();
                let said = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
                if timeout.is_some() && matches!(o.status.code(), Some(124) | Some(137)) {
                    let what = format!("{} {model} K={k}", source.display());
                    eprintln!("{what}: native {} / {cmd}: timed out ({:.2} s)", native["verdict"], start.elapsed().as_secs_f64());
                    timed_out.push(what);
                    continue;
                }
                let theirs = match (o.status.success(), said.to_lowercase().contains("assert")) {
                    (true, _) => "SAFE",
                    (false, true) => "VIOLATION",
                    (false, false) => "an error",
                };
                eprintln!("{} {model} K={k}: native {} / {cmd}: {theirs} ({:.2} s)", source.display(), native["verdict"], start.elapsed().as_secs_f64());
                assert_eq!(theirs, native["verdict"].as_str().unwrap(), "{} under {model}, K={k}: {said}", source.display());
            }
        }
    }
    if !timed_out.is_empty() {
        eprintln!("not compared: {} run(s) timed out after {} s: {}", timed_out.len(), timeout.unwrap(), timed_out.join(", "));
    }
}
