//! The reduction is checked against exhaustive search: with bounded buffers
//! under TSO and PSO (where eviction creates extra dependencies, and under
//! PSO a choice of which entry leaves) the outcome sets of
//! `--por dpor` and `--por none` must be equal, and on the bundled programs
//! (locks, deadlock, fences, atomics) the verdicts must be equal.

mod common;
use common::*;

fn outcome_set(prog: &std::path::Path, model: &str, k: u32, por: &str) -> Vec<String> {
    let (_, s) = verify_json(prog, &["--outcomes", "--model", model, "--buffer-size", &k.to_string(), "--por", por]);
    outcomes(&s)
}

#[test]
fn bounded_buffers_reduced_equals_exhaustive() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["SB", "MP", "n6", "R", "bound3", "mixed-own"] {
        let prog = build(&repo().join("tests/litmus").join(format!("{name}.c")), dir.path());
        for model in ["tso", "pso"] {
            for k in [1, 2] {
                let none = outcome_set(&prog, model, k, "none");
                let dpor = outcome_set(&prog, model, k, "source");
                assert!(!none.is_empty(), "{name}: no outcomes");
                assert_eq!(dpor, none, "{name} under {model} with K={k}");
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
            assert_eq!(run("source"), run("none"), "{} {flags:?} under {model}", src.display());
        }
    }
}
