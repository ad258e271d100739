//! The pthread calls of runtime/src/sync.c: pthread_once, barriers,
//! read-write locks, semaphores, thread-specific data and attributes. Each
//! program is safe and race-free under every model and reduction, and its
//! broken variant (a -D flag) fails, so the synchronisation is what made it
//! safe.

mod common;
use common::*;

/// (program, the flag that breaks it, or None)
const PROGRAMS: &[(&str, Option<&str>)] = &[
    ("once", None),
    ("barrier", Some("NO_BARRIER")),
    ("rwlock", Some("READ_UNLOCKED")),
    ("semaphore", Some("SEM_START=1")),
    ("specific", None),
    ("mutexattr", None),
];

#[test]
fn sync_calls_order_what_they_promise_under_every_model_and_reduction() {
    for (name, breaker) in PROGRAMS {
        let src = repo().join("tests/programs/sync").join(format!("{name}.c"));
        let src = src.to_str().unwrap();
        for model in ["sc", "tso", "pso"] {
            for por in ["none", "source", "optimal"] {
                let (code, out, err) = run_verify(&["-q", "--model", model, "--por", por, "--races=violation", src]);
                assert_eq!((code, out.as_str()), (0, "SAFE\n"), "{name} under {model}, --por {por}: {err}");
                if let Some(flag) = breaker {
                    let (code, out, err) = run_verify(&["-q", "--model", model, "--por", por, "-D", flag, src]);
                    assert_eq!((code, out.as_str()), (1, "VIOLATION assertion\n"), "{name} -D{flag} under {model}, --por {por}: {err}");
                }
            }
        }
    }
}

#[test]
fn an_export_refuses_what_its_runtime_does_not_model() {
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("tests/programs/sync/semaphore.c");
    let o = tsoify().args(["--export", "--model", "tso", "--buffer-size", "2"]).arg(&src).arg("-o").arg(dir.path().join("s.bc")).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("call to sem_") && err.contains("semaphore.c:") && err.contains("not modelled in export mode"), "{err}");
}

/// A trylock that failed saw the mutex held: the unlock it did not see must
/// be tried before it (source and optimal DPOR once answered SAFE here:
/// the failed try left no event, so nothing showed the race).
#[test]
fn a_failed_trylock_races_with_the_unlock_it_did_not_see() {
    let src = repo().join("tests/programs/sync/trylock.c");
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source", "optimal"] {
            let (code, out, err) = run_verify(&["--model", model, "--por", por, src.to_str().unwrap()]);
            assert_eq!(code, 1, "under {model}, --por {por}: {out}{err}");
        }
    }
    // the trace names the failed try
    let (_, out, _) = run_verify(&["--model", "sc", "--por", "none", src.to_str().unwrap()]);
    assert!(out.contains("mutex lock m"), "{out}");
}

/// A recursive mutex is not modelled: UNKNOWN with the reason, never an
/// answer that rests on a mutex that deadlocks where the real one does not.
#[test]
fn a_recursive_mutex_is_unknown_with_the_reason() {
    let src = repo().join("tests/programs/sync/mutexattr.c");
    let (code, out, err) = run_verify(&["-D", "RECURSIVE", src.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.starts_with("UNKNOWN runtime: recursive mutexes are not modelled"), "{out}");
}

/// A sync call's trace step names its own line, also when other threads ran
/// (and made calls of their own) while it waited at its scheduling point.
#[test]
fn a_sync_call_keeps_its_location_across_a_thread_switch() {
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("tests/programs/sync/call-locations.c");
    let trace = dir.path().join("trace.json");
    for model in ["sc", "tso"] {
        let (code, out, err) = run_verify(&["--model", model, "--trace-json", trace.to_str().unwrap(), src.to_str().unwrap()]);
        assert_eq!(code, 1, "{out}{err}");
        let steps: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
        let mut seen = 0;
        for s in steps.as_array().unwrap() {
            let (op, at) = (s["operation"].as_str().unwrap(), s["location"].as_str().unwrap());
            let want = match op {
                "mutex lock m" => "call-locations.c:12",
                "mutex unlock m" => "call-locations.c:14",
                "pthread_create -> T1" => "call-locations.c:19",
                "pthread_create -> T2" => "call-locations.c:20",
                "pthread_join T1" => "call-locations.c:21",
                "pthread_join T2" => "call-locations.c:22",
                _ => continue,
            };
            assert_eq!(at, want, "{op} under {model}: {out}");
            seen += 1;
        }
        assert!(seen >= 6, "under {model}: {out}");
    }
}

/// C11's <threads.h> is pthreads under other names (runtime/src/c11threads.c):
/// threads with int results, a mutex, a condition variable, call_once,
/// trylock's thrd_busy and thread-specific storage behave as the standard
/// says under every model; without main's wait the check fails. An export
/// refuses these calls, as it refuses the other sync.c calls.
#[test]
fn c11_threads_are_modelled_as_pthreads() {
    let src = repo().join("tests/programs/sync/c11-threads.c");
    let src = src.to_str().unwrap();
    for model in ["sc", "tso", "pso"] {
        for por in ["none", "source", "optimal"] {
            if por != "none" {
                let (code, out, err) = run_verify(&["-q", "--model", model, "--por", por, "--races=violation", src]);
                assert_eq!((code, out.as_str()), (0, "SAFE\n"), "under {model}, --por {por}: {err}");
            }
            let (code, out, err) = run_verify(&["-q", "--model", model, "--por", por, "-D", "NO_WAIT", src]);
            assert_eq!((code, out.as_str()), (1, "VIOLATION assertion\n"), "-DNO_WAIT under {model}, --por {por}: {err}");
        }
    }
    // a recursive mtx_t is refused as a recursive pthread mutex is
    let (code, out, err) = run_verify(&["-D", "RECURSIVE", src]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.starts_with("UNKNOWN runtime: recursive mutexes are not modelled"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let o = tsoify().args(["--export", "--model", "tso"]).arg(src).arg("-o").arg(dir.path().join("c.bc")).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("not modelled in export mode"), "{err}");
}

/// The same program SAFE by exhaustive search too (TSO: 200,000
/// executions, 3 s in a release build; under SC 500,000). Release only:
/// `cargo test --release --test sync -- --ignored` (scripts/test runs it).
#[test]
#[ignore = "slow in a debug build; scripts/test runs it with --release --ignored"]
fn c11_threads_are_safe_by_exhaustive_search() {
    let src = repo().join("tests/programs/sync/c11-threads.c");
    let (code, out, err) = run_verify(&["-q", "--model", "tso", "--por", "none", "--races=violation", src.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, "SAFE\n"), "{err}");
}
