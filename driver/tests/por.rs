//! The reductions are checked against exhaustive search: with bounded
//! buffers under TSO and PSO (where eviction creates extra dependencies, and
//! under PSO a choice of which entry leaves) the outcome sets of
//! `--por source`, `--por optimal` and `--por none` must be equal, and on
//! the bundled programs (locks, deadlock, fences, atomics) the verdicts must
//! be equal. Known trace counts pin down that optimal DPOR explores exactly
//! one complete execution per class.

mod common;
use common::*;

fn outcome_set(prog: &std::path::Path, model: &str, k: u32, por: &str) -> Vec<String> {
    let (_, s) = verify_json(prog, &["--outcomes", "--model", model, "--buffer-size", &k.to_string(), "--por", por]);
    outcomes(&s)
}

/// Every reduction on a program with atomic blocks reaches `want`, and
/// `--por optimal` explores the blocks itself (the summary names it).
fn blocks_reach(prog: &std::path::Path, name: &str, want: &[&str]) {
    for model in ["sc", "tso", "pso"] {
        for por in ["source", "optimal"] {
            let (_, s) = verify_json(prog, &["--outcomes", "--model", model, "--buffer-size", "32", "--por", por]);
            assert_eq!(outcomes(&s), want, "{name} under {model}, --por {por}");
            assert_eq!(s["por"], por, "{name} under {model}: the reduction that explored");
        }
    }
}

#[test]
fn bounded_buffers_reduced_equals_exhaustive() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["SB", "MP", "n6", "R", "bound3", "mixed-own"] {
        let prog = build(&repo().join("tests/litmus").join(format!("{name}.c")), dir.path());
        for model in ["tso", "pso"] {
            for k in [1, 2] {
                let none = outcome_set(&prog, model, k, "none");
                assert!(!none.is_empty(), "{name}: no outcomes");
                for por in ["source", "optimal"] {
                    assert_eq!(outcome_set(&prog, model, k, por), none, "{name} under {model} with K={k}, --por {por}");
                }
            }
        }
    }
}

/// Atomic blocks under reduction: a block stands for all its accesses,
/// its end-of-block flushes included, and a block that sleeps after reading
/// other values than in a race does not cover that race's reversal. The
/// outcome sets equal exhaustive search's under every model and reduction
/// (the expected sets are pinned too, so a weaker exhaustive search would
/// also fail).
#[test]
fn atomic_blocks_reduced_equals_exhaustive() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str], &[&str]); 3] = [
        ("block-flush", &["x=2 y=1", "x=2 y=2"], &["x=2 y=1", "x=2 y=2"]),
        ("stale-sleeper", &["r0=259 x=259 z=1", "r0=3 x=259 z=1", "r0=3 x=3 z=1"], &["r0=259 x=259 z=1", "r0=3 x=259 z=1", "r0=3 x=3 z=1"]),
        // (y=3 at the end needs t0's stores to flush out of order: PSO only)
        ("read-before-flush", &["x=1 y=2"], &["x=1 y=2", "x=1 y=3"]),
    ];
    for (name, want_sc_tso, want_pso) in cases {
        let prog = build(&repo().join("tests/programs/atomic-por").join(format!("{name}.c")), dir.path());
        for model in ["sc", "tso", "pso"] {
            let want = if model == "pso" { want_pso } else { want_sc_tso };
            let none = outcome_set(&prog, model, 32, "none");
            assert_eq!(none, want, "{name} under {model}, exhaustive");
            for por in ["source", "optimal"] {
                assert_eq!(outcome_set(&prog, model, 32, por), none, "{name} under {model}, --por {por}");
            }
        }
    }
}

/// Violations reachable under SC (found there by exhaustive search too),
/// hence under every model and bound, that a reduction once missed under a
/// bounded buffer where `--por none` takes minutes: both reductions must
/// find them.
#[test]
fn sc_violations_are_found_under_small_bounds() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["asleep-flush-branch", "branch-for-the-running-thread"] {
        let prog = build(&repo().join("tests/programs/reduction").join(format!("{name}.c")), dir.path());
        let (code, out, err) = run_verify(&["--model", "sc", "--por", "none", prog.to_str().unwrap()]);
        assert_eq!(code, 1, "{name} under sc, --por none: {out}{err}");
        for (model, k) in [("tso", 1), ("tso", 2), ("tso", 32), ("pso", 1), ("pso", 2)] {
            for por in ["source", "optimal"] {
                let (code, out, err) = run_verify(&["--model", model, "--buffer-size", &k.to_string(), "--por", por, prog.to_str().unwrap()]);
                assert_eq!(code, 1, "{name} under {model} K={k}, --por {por}: {out}{err}");
            }
        }
    }
}

/// A program whose exhaustive search is too long for a test (1.9 million
/// executions): its SC outcome set, from `--por none`, is pinned, and both
/// reductions must reach all of it under every model. Optimal DPOR lost
/// one when it trusted a block's footprint at the end of a wakeup sequence
/// (the block reads other values there), and again when such a block, as
/// a leaf, was taken to cover a longer sequence that its own subtree,
/// with another thread asleep, then never explored.
#[test]
fn atomic_blocks_pinned_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/atomic-por/block-leaf.c"), dir.path());
    let want = ["r1=0 x=1 y=3", "r1=0 x=2 y=3", "r1=3 x=1 y=3", "r1=3 x=2 y=3"];
    blocks_reach(&prog, "block-leaf", &want);
}

/// A sleeping atomic block does not cover a wakeup sequence that does not
/// run it: the 21 outcomes of `sleeping-block.c` (the fuzzer's oracle's
/// set under every model; `--por none` needs 260,000 executions under TSO)
/// with every reduction. Optimal lost `r0=1 r1=1 r2=3 y=2 z=1` under TSO
/// and PSO.
#[test]
fn sleeping_blocks_cover_only_sequences_that_run_them() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/atomic-por/sleeping-block.c"), dir.path());
    let want = [
        "r0=0 r1=0 r2=1 y=1 z=1",
        "r0=0 r1=0 r2=1 y=2 z=1",
        "r0=0 r1=0 r2=3 y=1 z=1",
        "r0=0 r1=0 r2=3 y=2 z=1",
        "r0=0 r1=1 r2=1 y=1 z=1",
        "r0=0 r1=1 r2=1 y=2 z=1",
        "r0=0 r1=1 r2=3 y=1 z=1",
        "r0=0 r1=1 r2=3 y=2 z=1",
        "r0=0 r1=2 r2=1 y=1 z=1",
        "r0=0 r1=2 r2=1 y=2 z=1",
        "r0=0 r1=2 r2=3 y=1 z=1",
        "r0=1 r1=1 r2=1 y=1 z=1",
        "r0=1 r1=1 r2=1 y=2 z=1",
        "r0=1 r1=1 r2=3 y=1 z=1",
        "r0=1 r1=1 r2=3 y=2 z=1",
        "r0=1 r1=2 r2=1 y=2 z=1",
        "r0=2 r1=1 r2=1 y=1 z=1",
        "r0=2 r1=1 r2=3 y=1 z=1",
        "r0=2 r1=2 r2=1 y=1 z=1",
        "r0=2 r1=2 r2=1 y=2 z=1",
        "r0=2 r1=2 r2=3 y=1 z=1",
    ];
    blocks_reach(&prog, "sleeping-block", &want);
}

/// Optimal DPOR explores atomic blocks itself, at about source DPOR's cost
/// where executions end by aborts inside blocks (SV-COMP's lock idiom): it
/// once took 22 times as many (the branches tried before an execution's
/// end covered no sequence). The same answer as exhaustive search at the
/// small size, and with the fourth thread at most 10% more complete
/// executions than source DPOR under every model. Release build: run with
/// `cargo test --release --test por -- --ignored`.
#[test]
#[ignore]
fn optimal_explores_atomic_blocks_at_source_cost() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/atomic-por/rw-lock-abort.c"), dir.path());
    for model in ["sc", "tso", "pso"] {
        let run = |por: &str| verify_json(&prog, &["--svcomp", "--model", model, "--por", por]);
        let ((code_o, opt), (code_s, src)) = (run("optimal"), run("source"));
        assert_eq!((code_o, code_s), (0, 0), "{model}: the lock holds");
        assert_eq!(opt["por"], "optimal", "{model}: optimal explored the blocks itself");
        let (o, s) = (opt["complete"].as_u64().unwrap(), src["complete"].as_u64().unwrap());
        assert!(o * 10 <= s * 11, "{model}: optimal {o} complete executions against source's {s}");
    }
}

/// A failed __VERIFIER_assume must not hide the races that come after it:
/// both entry orders are found with every reduction, as exhaustively.
#[test]
fn assume_does_not_cut_the_race_analysis() {
    let dir = tempfile::tempdir().unwrap();
    for (name, flags) in [("plain", vec![]), ("turn", vec!["-DTURN"])] {
        let prog = dir.path().join(format!("{name}.tso"));
        let o = tsoify().arg(repo().join("tests/programs/assume-entry.c")).arg("-o").arg(&prog).args(&flags).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let both = ["e0=1 e1=2", "e0=2 e1=1"];
        if name == "plain" {
            assert_eq!(outcome_set(&prog, "sc", 32, "none"), both, "exhaustive search");
        }
        for model in ["sc", "tso", "pso"] {
            for por in ["source", "optimal"] {
                assert_eq!(outcome_set(&prog, model, 32, por), both, "{name} under {model}, --por {por}");
            }
        }
    }
}

#[test]
fn verdicts_of_bundled_programs_agree() {
    let dir = tempfile::tempdir().unwrap();
    let deadlock = repo().join("tests/programs/deadlock.c");
    let locked_counter = write_c(
        dir.path(),
        "counter.c",
        "#include <assert.h>\n#include <pthread.h>\npthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int n;\n\
         void *t(void *x) { pthread_mutex_lock(&m); n = n + 1; pthread_mutex_unlock(&m); return 0; }\n\
         int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(n == 2); return 0; }\n",
    );
    let racy_counter = write_c(
        dir.path(),
        "racy.c",
        "#include <assert.h>\n#include <pthread.h>\nint n;\n\
         void *t(void *x) { n = n + 1; return 0; }\n\
         int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(n == 2); return 0; }\n",
    );
    let release = write_c(
        dir.path(),
        "mp-release.c",
        "#include <assert.h>\n#include <pthread.h>\nint x, z, y, r0, r1, r2;\n\
         void *t0(void *a) { x = 1; z = 1; __atomic_store_n(&y, 1, __ATOMIC_RELEASE); return 0; }\n\
         void *t1(void *a) { r0 = __atomic_load_n(&y, __ATOMIC_ACQUIRE); r1 = x; r2 = z; return 0; }\n\
         int main(void) { pthread_t a, b; pthread_create(&a, 0, t0, 0); pthread_create(&b, 0, t1, 0);\n\
         pthread_join(a, 0); pthread_join(b, 0); assert(!(r0 == 1 && (r1 == 0 || r2 == 0))); return 0; }\n",
    );
    let cases: Vec<(std::path::PathBuf, Vec<&str>)> = vec![
        (release, vec![]),
        (repo().join("examples/dekker.c"), vec![]),
        (repo().join("examples/dekker.c"), vec!["-DFENCED"]),
        (deadlock, vec![]),
        (repo().join("tests/programs/assume-reach.c"), vec![]),
        (locked_counter, vec![]),
        (racy_counter, vec![]),
    ];
    for (src, flags) in cases {
        for model in ["sc", "tso", "pso"] {
            let run = |por: &str| {
                let mut args: Vec<&str> = flags.clone();
                args.extend(["--model", model, "--por", por, "-q", src.to_str().unwrap()]);
                let (code, out, err) = run_verify(&args);
                (code, out.lines().next().unwrap_or(&err).to_string())
            };
            let none = run("none");
            for por in ["source", "optimal"] {
                assert_eq!(run(por), none, "{} {flags:?} under {model}, --por {por}", src.display());
            }
        }
    }
}

/// Complete executions (not cut by a sleep set) of `prog` under SC.
fn complete_executions(src: &str, n: u32, por: &str) -> (u64, u64, usize) {
    complete_executions_under("sc", src, n, por)
}

fn complete_executions_under(model: &str, src: &str, n: u32, por: &str) -> (u64, u64, usize) {
    complete_executions_with(model, src, n, por, &[])
}

/// The same with more verify arguments (`--outcomes` searches with the
/// default bound directly unless `--buffer-size 0` says otherwise).
fn complete_executions_with(model: &str, src: &str, n: u32, por: &str, more: &[&str]) -> (u64, u64, usize) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let define = format!("-DN={n}");
    let path = repo().join(src);
    let mut args = vec!["--model", model, "--por", por, "--outcomes", "--json", json.to_str().unwrap(), &define];
    args.extend_from_slice(more);
    args.push(path.to_str().unwrap());
    let (code, out, err) = run_verify(&args);
    assert_eq!(code, 0, "{src} N={n}: {out}{err}");
    let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (s["complete"].as_u64().unwrap(), s["sleep_blocked"].as_u64().unwrap(), s["outcomes"].as_array().unwrap().len())
}

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

/// Families with known numbers of Mazurkiewicz traces under SC: optimal
/// DPOR explores exactly one complete execution per trace, and none is cut
/// short by a sleep set.
#[test]
fn optimal_dpor_explores_one_execution_per_trace() {
    for n in [2, 3, 4] {
        // N writers of one variable: the writes conflict pairwise, N! orders
        let (complete, blocked, _) = complete_executions("tests/programs/counts/writers.c", n, "optimal");
        assert_eq!((complete, blocked), (factorial(n as u64), 0), "writers N={n}");
        // N writers of N variables: nothing conflicts, one trace
        let (complete, blocked, _) = complete_executions("tests/programs/counts/independent.c", n, "optimal");
        assert_eq!((complete, blocked), (1, 0), "independent N={n}");
        // the same writers when main does not join them
        for por in ["optimal", "source"] {
            let (complete, _, _) = complete_executions("tests/programs/counts/writers-no-join.c", n, por);
            assert_eq!(complete, factorial(n as u64), "writers-no-join N={n} --por {por}");
        }
        // two writes each, main not joining: N! orders of each variable
        let (complete, blocked, _) = complete_executions("tests/programs/counts/two-step-no-join.c", n, "optimal");
        assert_eq!((complete, blocked), (factorial(n as u64).pow(2), 0), "two-step-no-join N={n}");
    }
    for n in [1, 2, 3] {
        // a reader and N writers of one variable: N+1 values to read (the
        // reads-from classes, seen as outcomes), (N+1)! traces, since the
        // writes' order is a dependency too
        let (complete, blocked, values) = complete_executions("tests/programs/counts/reader.c", n, "optimal");
        assert_eq!((complete, blocked, values), (factorial(n as u64 + 1), 0, n as usize + 1), "reader N={n}");
    }
}

/// A wakeup sequence can begin with a thread parked on an await, waiting
/// for the very release it was to go before: such a branch cannot start
/// where it was put, and the sequences below it must still be explored.
/// Falling back to every option there (as before) made optimal DPOR explore
/// more than source DPOR (982 against 603 complete executions under SC,
/// 1,062 against 603 under TSO); it must explore no more, and reach every
/// lock order.
#[test]
fn optimal_dpor_skips_branches_of_parked_threads() {
    for model in ["sc", "tso", "pso"] {
        let (source, _, source_orders) = complete_executions_under(model, "tests/programs/counts/spinlock.c", 3, "source");
        let (optimal, blocked, optimal_orders) = complete_executions_under(model, "tests/programs/counts/spinlock.c", 3, "optimal");
        assert_eq!((source_orders, optimal_orders), (6, 6), "lock orders under {model}");
        assert_eq!(blocked, 0, "optimal under {model}: sleep-blocked executions");
        assert!(optimal <= source, "under {model}: optimal explored {optimal} complete executions, source {source}");
    }
}

/// Where a thread waits for room in its full buffer, only its own flushes
/// get a flush-first branch: a flush of a thread that can run there makes
/// room for no one, and such branches only repeated classes (TSO K = 1: 8
/// executions, 2 sleep-blocked, before; 6 complete, 1 sleep-blocked now:
/// at the node of that one both threads wait for room, b to store x again
/// and c to store r2, and the branch for c's flush covers nothing b's did
/// not). The outcomes are exhaustive search's.
#[test]
fn room_waits_branch_only_on_the_waiting_threads_flushes() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/counts/room-wait-flushes.c"), dir.path());
    let none = outcome_set(&prog, "tso", 1, "none");
    assert_eq!(none.len(), 6, "room-wait-flushes under TSO K=1: {none:?}");
    assert_eq!(outcome_set(&prog, "tso", 1, "optimal"), none);
    let (complete, blocked, values) = complete_executions_with("tso", "tests/programs/counts/room-wait-flushes.c", 0, "optimal", &["--buffer-size", "1", "--direct-bound"]);
    assert_eq!((complete, blocked, values), (6, 1, 6), "room-wait-flushes under TSO K=1, optimal");
}

/// A thread that waits at its exit for its own flush, beside one that
/// waits for room, gets no flush-first branch there: the runtime names the
/// threads that wait for room (K = 2, optimal: TSO 6 executions, 2 of them
/// sleep-blocked, and PSO 9, 2 sleep-blocked, while every blocked thread's
/// flushes were tried). The outcomes are exhaustive search's.
#[test]
fn room_waits_name_the_waiting_threads() {
    let src = "tests/programs/counts/room-wait-exit.c";
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join(src), dir.path());
    for (model, want) in [("tso", 4), ("pso", 7)] {
        let none = outcome_set(&prog, model, 2, "none");
        assert_eq!(none.len(), 4, "room-wait-exit under {model} K=2: {none:?}");
        assert_eq!(outcome_set(&prog, model, 2, "optimal"), none, "under {model}");
        let (complete, blocked, values) = complete_executions_with(model, src, 0, "optimal", &["--buffer-size", "2", "--direct-bound"]);
        assert_eq!((complete, blocked, values), (want, 0, 4), "room-wait-exit under {model} K=2, optimal");
    }
}

/// Source DPOR with sleep sets reaches the same counts on these families
/// (it is optimal when no sleep set blocks), far below exhaustive search.
#[test]
fn source_dpor_counts_on_known_families() {
    let (complete, _, _) = complete_executions("tests/programs/counts/writers.c", 3, "source");
    assert_eq!(complete, 6);
    let (none, _, _) = complete_executions("tests/programs/counts/writers.c", 3, "none");
    assert!(none > 100 * complete, "exhaustive search: {none} executions");
}

/// A read of an address its own thread has buffered commutes with that
/// thread's flush of it: only the other thread's read makes two traces.
/// (Counted as a race, the own read tripled the executions of the fenced
/// mutual-exclusion tasks under TSO; the fuzz test checks the outcomes.)
#[test]
fn own_reads_commute_with_own_flushes() {
    for model in ["tso", "pso"] {
        for por in ["source", "optimal"] {
            let (complete, _, values) = complete_executions_under(model, "tests/programs/counts/own-read.c", 0, por);
            assert_eq!((complete, values), (2, 2), "{model} --por {por}");
        }
    }
}

/// A thread that stores x and reads it back while another stores x (CoWR):
/// TSO and PSO cost 4 complete executions against 3 under SC, with no
/// sleep-blocked one, and the reductions reach exactly the outcomes of
/// exhaustive search on it and on Peterson's idiom. (The hidden-writes rule
/// of chronological traces brought CoWR to 3, but kept sleeping reads
/// asleep through writes that only their own buffered store hid: optimal
/// DPOR lost violations with it, see the next tests, and it is gone.)
#[test]
fn reads_over_own_stores_reach_what_exhaustive_search_reaches() {
    let (sc, _, _) = complete_executions_under("sc", "tests/programs/counts/cowr-hidden.c", 0, "optimal");
    assert_eq!(sc, 3, "cowr-hidden under SC");
    let unbounded = ["--buffer-size", "0"];
    for model in ["tso", "pso"] {
        for por in ["optimal", "source"] {
            let (n, blocked, values) = complete_executions_with(model, "tests/programs/counts/cowr-hidden.c", 0, por, &unbounded);
            assert_eq!((n, blocked, values), (4, 0, 3), "cowr-hidden under {model}, {por}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/counts/hidden-writes.c"), dir.path());
    // (unbounded PSO takes exhaustive search a minute here)
    for (model, k) in [("tso", 0), ("tso", 1), ("pso", 1)] {
        let none = outcome_set(&prog, model, k, "none");
        let sb = none.iter().any(|o| o == "r1=1 s1=0 r2=0 s2=0 z=0");
        assert_eq!(sb, k == 0, "hidden-writes under {model} K={k}: store buffering on both flags needs room for two stores: {none:?}");
        for por in ["source", "optimal"] {
            assert_eq!(outcome_set(&prog, model, k, por), none, "hidden-writes under {model} K={k}, --por {por}");
        }
    }
}

/// With the hidden-writes rule, optimal DPOR lost a violation under TSO
/// with one buffer entry on a relaxed program of Nidhugg's corpus (source
/// and exhaustive search found it). Each bound, each reduction, searched
/// with the bound directly.
#[test]
fn hidden_writes_with_a_bound_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/hidden-writes-bounded.c"), dir.path());
    for k in [1, 2, 0] {
        for por in ["optimal", "source"] {
            let (code, out, err) = run_verify(&["--model", "tso", "--buffer-size", &k.to_string(), "--direct-bound", "--por", por, prog.to_str().unwrap()]);
            assert_eq!(code, 1, "hidden-writes-bounded under tso K={k}, --por {por}: {out}{err}");
        }
    }
}

/// Three threads that store x and read it back, unsafe even under SC: with
/// the hidden-writes rule optimal DPOR answered SAFE on both under TSO and
/// PSO in the default search (unbounded buffers first). Every model and
/// reduction must find the violation.
#[test]
fn reads_over_own_stores_lose_no_violation() {
    let dir = tempfile::tempdir().unwrap();
    for (name, fails) in [("uncovering-flush", "rb == 2 && rc == 1"), ("covered-reads-defer", "ra == 1 && rb == 2 && rc == 1")] {
        let prog = build(&repo().join("tests/programs/reduction").join(format!("{name}.c")), dir.path());
        for model in ["sc", "tso", "pso"] {
            for por in ["optimal", "source"] {
                let (code, out, err) = run_verify(&["--model", model, "--por", por, prog.to_str().unwrap()]);
                assert_eq!(code, 1, "{name} under {model}, --por {por}: {out}{err}");
                assert!(out.contains(fails), "{name}: the assertion that fails: {out}");
            }
        }
    }
}

/// Found on real sv-benchmarks tasks: the step that ends an execution (main
/// returning without a join, an abort-style assume) stops the other threads,
/// so they must also be tried before it; a failed assume inside an atomic
/// function must let the others run on; and an ILP32 task's smaller
/// pthread_mutex_t must not be overwritten past its end. main's return and
/// exit() are steps of their own: a thread created just before them may
/// run first (it sees main's last store). A block that aborts ends the
/// execution from its first step on: it sleeps through no other thread's
/// step (abort-in-block, found by tests/litmus/endfuzz.py). main's return
/// is taken while main's frame lives, so a thread may use its locals
/// (store-to-main-local: SAFE before, even with --por none). Every
/// reduction and model gives the answer exhaustive search gives.
#[test]
fn endings_do_not_hide_other_threads() {
    let dir = tempfile::tempdir().unwrap();
    let witness = dir.path().join("witness.yml");
    for (name, want) in [("no-join", 1), ("atomic-no-join", 1), ("abort-assume", 1), ("atomic-assume", 1), ("small-mutex", 0), ("rw-lock", 1), ("store-then-return", 1), ("exit-after-create", 1), ("pthread-exit-main", 1), ("flush-before-end", 1), ("abort-in-block", 1), ("store-to-main-local", 1)] {
        let prog = repo().join("tests/programs/ending").join(format!("{name}.c"));
        for model in ["sc", "tso", "pso"] {
            for por in ["none", "source", "optimal"] {
                let args = ["--svcomp", "--witness", witness.to_str().unwrap(), "--model", model, "--por", por, prog.to_str().unwrap()];
                let (code, out, _) = run_verify(&args);
                assert_eq!(code, want, "{name} under {model}, --por {por}: {out}");
            }
        }
    }
}

/// A failed assume makes only itself (and in an atomic block, the whole
/// block) infeasible: a violation of another thread that does not depend
/// on it is real, and its counterexample leaves the failed assume out.
#[test]
fn a_violation_beside_a_failed_assume_is_real() {
    let cases = [("beside", 1, "t2"), ("store-before", 1, "t2"), ("store-in-block", 0, "")];
    for (name, want, in_function) in cases {
        let src = repo().join("tests/programs/assume").join(format!("{name}.c"));
        for model in ["sc", "tso", "pso"] {
            for por in ["none", "source", "optimal"] {
                let (code, out, err) = run_verify(&["--model", model, "--por", por, src.to_str().unwrap()]);
                assert_eq!(code, want, "{name} under {model}, --por {por}: {out}{err}");
                if want == 1 {
                    assert!(out.contains(&format!("void *{in_function}(void *): assertion")), "{name}: {out}");
                    assert!(!out.contains("assume failed"), "{name}: the counterexample shows the failed assume: {out}");
                }
            }
        }
    }
}

/// Wrong SAFE answers found on Nidhugg's litmus corpus in relaxed form
/// (issue 18), each shrunk to its shape: every reduction must find what
/// exhaustive search finds, at the bounds where it is reachable, and agree
/// with it where the bound forbids it (K = 1).
#[test]
fn reductions_find_what_exhaustive_search_finds() {
    let cases: [(&str, &[(&str, u32, i32)]); 4] = [
        ("branch-for-the-running-thread", &[("sc", 0, 1), ("tso", 2, 1), ("tso", 0, 1), ("pso", 2, 1)]),
        ("pso-store-below-bound", &[("pso", 1, 0), ("pso", 2, 1), ("pso", 32, 1), ("pso", 0, 1)]),
        ("pso-which-entry-leaves", &[("pso", 1, 0), ("pso", 2, 1), ("pso", 3, 1), ("pso", 0, 1)]),
        ("unflushed-at-end", &[("sc", 0, 1), ("tso", 0, 1), ("tso", 32, 1), ("pso", 0, 1), ("pso", 32, 1)]),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, configs) in cases {
        let prog = build(&repo().join("tests/programs/reduction").join(format!("{name}.c")), dir.path());
        for &(model, k, want) in configs {
            for por in ["none", "source", "optimal"] {
                let (code, out, err) = run_verify(&["--model", model, "--buffer-size", &k.to_string(), "--por", por, prog.to_str().unwrap()]);
                assert_eq!(code, want, "{name} under {model} K={k}, --por {por}: {out}{err}");
            }
        }
    }
}

/// Bounded PSO, where the room a store needs could have been made by
/// another entry's flush (wrong SAFE answers of both reductions before the
/// flushes a store needed raced with it; shrunk from Nidhugg's litmus
/// corpus in relaxed form). The expected answers are exhaustive search's
/// (`--por none`, too slow to repeat here in a debug build: 3 s and 43 s at
/// K = 2, no answer in 120 s for the second at K = 1, which the bound
/// makes SAFE: y = 1 cannot enter before x = 1 has left).
#[test]
fn room_made_by_another_flush() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["pso-full-same-address", "pso-room-made-by-flush"] {
        let prog = build(&repo().join("tests/programs/reduction").join(format!("{name}.c")), dir.path());
        for (k, want) in [(1, 0), (2, 1), (3, 1), (0, 1)] {
            for por in ["source", "optimal"] {
                let (code, out, err) = run_verify(&["--model", "pso", "--buffer-size", &k.to_string(), "--por", por, prog.to_str().unwrap()]);
                assert_eq!(code, want, "{name} under pso K={k}, --por {por}: {out}{err}");
            }
        }
    }
}

/// bench/lastzero.c at N = 12 (13 threads) explores exactly what Nidhugg
/// does: 15,360 complete executions under optimal DPOR in every model, and
/// 15,360 complete + 163,835 sleep-blocked under source DPOR. The runtime
/// once kept its table of reported sleepers across executions: it filled
/// after about a million entries, every later choice then reported no
/// sleepers, and the search exploded (SC source at N = 11 and TSO optimal
/// at N = 12 never finished). Release only, with
/// `cargo test --release --test por -- --ignored` (scripts/test runs it).
#[test]
#[ignore = "slow in a debug build; scripts/test runs it with --release --ignored"]
fn lastzero_counts_equal_nidhuggs() {
    for model in ["sc", "tso", "pso"] {
        assert_eq!(complete_executions_under(model, "bench/lastzero.c", 12, "optimal").0, 15360, "optimal under {model}");
    }
    let (complete, blocked, _) = complete_executions_under("sc", "bench/lastzero.c", 12, "source");
    assert_eq!((complete, blocked), (15360, 163835), "source under sc");
}

/// bench/fib.c (the fib_bench shape: each thread adds the other's counter
/// to its own, N times) explores exactly GenMC's counts, measured with
/// GenMC v0.11 on the same program with relaxed atomics (its plain accesses
/// are ours: the hardware's loads and stores): SC 19 and 141 at N = 2 and
/// 3, TSO 20 and 175 (the store-buffering outcomes a thread's buffered
/// counter allows). No execution is cut short by a sleep set.
#[test]
fn fib_counts_equal_genmcs() {
    for (model, n, want) in [("sc", 2, 19), ("sc", 3, 141), ("tso", 2, 20), ("tso", 3, 175)] {
        let (complete, blocked, _) = complete_executions_under(model, "bench/fib.c", n, "optimal");
        assert_eq!((complete, blocked), (want, 0), "fib N = {n} under {model}");
    }
}

/// A compare-exchange ring where the violation needs two failed CASes
/// before the first success: both reductions find it under every model
/// (optimal answered SAFE while a failed compare-exchange was a read for
/// the reduction; `--por none` finds it too, after 400,000 executions).
#[test]
fn failed_compare_exchanges_do_not_hide_interleavings() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/casrot-miss.c"), dir.path());
    for model in ["sc", "tso", "pso"] {
        for por in ["source", "optimal"] {
            let (code, out, err) = run_verify(&["--model", model, "--por", por, prog.to_str().unwrap()]);
            assert_eq!(code, 1, "casrot-miss under {model}, --por {por}: {out}{err}");
            assert!(out.contains("assert"), "casrot-miss under {model}, --por {por}: the trace names the assertion: {out}");
        }
    }
}

/// Store buffering without joins: 4 classes under TSO and PSO, and optimal
/// DPOR explores one complete execution for each, as source DPOR does.
#[test]
fn optimal_explores_store_buffering_once_per_class() {
    for model in ["tso", "pso"] {
        let (optimal, blocked, _) = complete_executions_under(model, "tests/programs/counts/sb-no-join.c", 0, "optimal");
        let (source, _, _) = complete_executions_under(model, "tests/programs/counts/sb-no-join.c", 0, "source");
        assert_eq!((optimal, blocked), (4, 0), "sb-no-join under {model}, optimal");
        assert_eq!(source, 4, "sb-no-join under {model}, source");
    }
}

/// A store that found room in a bounded buffer only because a flush made
/// it cannot go before that flush unless the reversal makes room some other
/// way; optimal DPOR reversed such races anyway, the branch could not run,
/// and the sequences it had covered were lost (fuzz.py --corpus --cas,
/// seeds 103 and 104). Source DPOR is the reference (checked against
/// exhaustive search on the small programs above).
#[test]
fn room_races_do_not_hide_other_sequences() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("room-after-flush", "r1=0 r0=2 r2=1 v0=2 v1=2"),
        ("room-after-flush-xchg", "r0=1 r1=0 x=1 y=1"),
    ];
    for (name, missed) in cases {
        let prog = build(&repo().join("tests/programs/reduction").join(format!("{name}.c")), dir.path());
        for model in ["tso", "pso"] {
            for k in [1, 2] {
                let source = outcome_set(&prog, model, k, "source");
                assert!(source.iter().any(|o| o == missed), "{name} under {model} with K={k}: source reaches {missed}: {source:?}");
                assert_eq!(outcome_set(&prog, model, k, "optimal"), source, "{name} under {model} with K={k}, --por optimal");
            }
        }
    }
}

/// A buffered store dropped with its stack frame never flushes; the
/// explorer learns of it (a DROP event) and matches the thread's next flush
/// with its own store. Matched with the dropped one, a wakeup sequence
/// began with a flush that could not run where it was to start.
#[test]
fn dropped_stores_do_not_misplace_flushes() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/dropped-stack-store.c"), dir.path());
    for model in ["tso", "pso"] {
        let (code, out, _) = run_verify(&["--model", model, "--stats", "--outcomes", prog.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(", 0 not enabled where they start"), "dropped-stack-store under {model}: every wakeup sequence can start: {out}");
        assert_eq!(outcome_set(&prog, model, 0, "optimal"), ["r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0"], "dropped-stack-store under {model}");
    }
}

/// What an execution reported before a sleep set cut it short is no
/// outcome: that execution repeats one explored before, of which the
/// report is only a part (found by tests/litmus/endfuzz.py: main reports
/// and leaves by pthread_exit while the others go on). Every reduction
/// reaches exactly the outcomes of exhaustive search.
#[test]
fn sleep_blocked_executions_report_no_outcome() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/ending/report-then-exit.c"), dir.path());
    for (model, k) in [("sc", 0), ("tso", 1), ("tso", 32), ("pso", 2)] {
        let none = outcome_set(&prog, model, k, "none");
        assert!(none.iter().all(|o| o.ends_with("t1 aborts")), "{model} K={k}: {none:?}");
        for por in ["source", "optimal"] {
            assert_eq!(outcome_set(&prog, model, k, por), none, "{model} K={k} --por {por}");
        }
    }
}

/// An atomic block whose assume fails early must not stand for the block
/// run later, once the value it waits for has arrived (PSO, two entries:
/// tests/programs/atomic-por/block-after-flush.c). `--por none` takes
/// about ten seconds here in a release build, so the outcome it reaches
/// (r2=1 x=1 y=2, from the oracle too) is written down.
#[test]
fn a_failed_block_covers_no_later_run_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/atomic-por/block-after-flush.c"), dir.path());
    for k in [2, 32] {
        for por in ["source", "optimal"] {
            let got = outcome_set(&prog, "pso", k, por);
            assert!(got.iter().any(|o| o == "r2=1 x=1 y=2"), "pso K={k} --por {por}: {got:?}");
        }
    }
}

/// Under PSO with a small bound, which entry leaves to make room decides
/// what other threads can still miss. The outcome sets are exhaustive
/// search's (`--por none`, too slow to repeat in a debug build: 10,046,
/// 116,340 and 77,302 executions at K = 1, 2, 3 for pso-room-choice-seen;
/// at K = 2 a read of x[4] == 1 cannot miss both x[0] and x[2]; the
/// second program's set is also oracle.py's). Skipping the room choices
/// no thread sees later in one execution lost an outcome of the second:
/// the reversal of another race carries the flush along, and the branch
/// that would have made the other choice sleeps.
#[test]
fn room_choices_are_not_lost() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/pso-room-choice-seen.c"), dir.path());
    let all: Vec<String> = (0..8).map(|b| format!("r0={} r1={} r2={}", b >> 2, (b >> 1) & 1, b & 1)).collect();
    let k1: Vec<String> = ["r0=0 r1=0 r2=0", "r0=0 r1=0 r2=1", "r0=0 r1=1 r2=1", "r0=1 r1=1 r2=1"].map(String::from).to_vec();
    let k2: Vec<String> = all.iter().filter(|o| *o != "r0=1 r1=0 r2=0").cloned().collect();
    for (k, want) in [(1, &k1), (2, &k2), (3, &all), (0, &all)] {
        for por in ["source", "optimal"] {
            assert_eq!(&outcome_set(&prog, "pso", k, por), want, "pso-room-choice-seen under pso K={k}, --por {por}");
        }
    }
    let prog = build(&repo().join("tests/programs/reduction/pso-room-maker-seen-later.c"), dir.path());
    let none = outcome_set(&prog, "pso", 2, "none");
    assert!(none.iter().any(|o| o == "r1=2 r2=0 x=1 y=1"), "pso-room-maker-seen-later: exhaustive search reaches the outcome: {none:?}");
    assert_eq!(none.len(), 8, "pso-room-maker-seen-later: exhaustive search: {none:?}");
    for por in ["source", "optimal"] {
        assert_eq!(outcome_set(&prog, "pso", 2, por), none, "pso-room-maker-seen-later under pso K=2, --por {por}");
    }
}

/// A thread that buffers stores to 1,000 addresses under PSO has 1,000
/// flush processes: with 16-bit process ids it stopped at 512 ("buffered
/// more than 512 addresses", UNKNOWN; SV-COMP queue_ok_longer). The flag
/// can overtake the last element under PSO, not under TSO.
#[test]
fn pso_threads_may_buffer_many_addresses() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/pso-many-addresses.c"), dir.path());
    for por in ["optimal", "source"] {
        for k in ["0", "32"] {
            let (code, s) = verify_json(&prog, &["--model", "pso", "--buffer-size", k, "--por", por]);
            assert_eq!(code, 1, "PSO K={k} --por {por}: {s}");
            assert_eq!(s["reason"], "assertion", "PSO K={k} --por {por}: {s}");
        }
        let (code, s) = verify_json(&prog, &["--model", "tso", "--por", por]);
        assert_eq!(code, 0, "TSO --por {por}: {s}");
    }
}

/// Optimal DPOR reverses the races of the prefix an execution replays
/// again in every execution: a race's reversing sequence also holds the
/// steps after it, which differ from one execution to the next. Reversing
/// each race only in the first execution that held it (tried as a speed-up
/// on 2026-12-01) lost 6 of the 120 outcomes of this program under PSO, and
/// so did sequences cut at the race's second step (the later steps that
/// need not follow the first, only up to the second: tried on 2026-12-04,
/// after Nidhugg's and GenMC's tests and fuzz.py had found nothing).
#[test]
fn races_of_the_replayed_prefix_are_reversed_again() {
    let dir = tempfile::tempdir().unwrap();
    let prog = build(&repo().join("tests/programs/reduction/prefix-races-again.c"), dir.path());
    for (model, classes) in [("sc", 105), ("tso", 105), ("pso", 120)] {
        let source = outcome_set(&prog, model, 0, "source");
        assert_eq!(source.len(), classes, "prefix-races-again under {model}: source reaches every outcome");
        if model == "pso" {
            assert!(source.iter().any(|o| o == "a=000 b=000 v3=1 v4=1 v0=1"), "the outcome a search that reversed each race once missed: {source:?}");
        }
        assert_eq!(outcome_set(&prog, model, 0, "optimal"), source, "prefix-races-again under {model}, --por optimal");
    }
}

/// `--stats` measures the reduction by running `--por none` too; without
/// a --timeout that run once had no limit, and lastzero at N = 12 (a 0.4 s
/// search) was still running after 86 minutes. Now it stops after 10 s (or ten
/// times the search's time) and the ratio says it is a lower bound.
#[test]
fn stats_bound_the_unreduced_comparison() {
    let src = repo().join("bench/lastzero.c");
    let (code, out, err) = run_verify(&["--model", "sc", "--stats", "-DN=10", src.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    let line = out.lines().find(|l| l.trim_start().starts_with("reduction")).unwrap_or_else(|| panic!("a reduction line: {out}"));
    assert!(line.contains("(cut by timeout: at least)") && line.contains(">"), "{line}");
}
