//! The handshake between verify and the program's worker (tsoify_channel.h,
//! "Fork-server protocol"): pinned to one CPU a waiting side yields to the
//! other, unpinned it sleeps on its pipe, and either way a side that has
//! waited long enough goes to sleep and is woken. Every path must give the
//! same search.

mod common;
use common::*;

/// Two writers and a reader of one variable.
const RACE: &str = "#include <pthread.h>\n#include <stdatomic.h>\nvoid tsoify_outcome(const char *, ...);\natomic_int x;\n\
void *w1(void *a) { atomic_store_explicit(&x, 1, memory_order_relaxed); return 0; }\n\
void *w2(void *a) { atomic_store_explicit(&x, 2, memory_order_relaxed); return 0; }\n\
int main(void) {\n  pthread_t a, b;\n  pthread_create(&a, 0, w1, 0);\n  pthread_create(&b, 0, w2, 0);\n\
  int r = atomic_load_explicit(&x, memory_order_relaxed);\n  pthread_join(a, 0);\n  pthread_join(b, 0);\n\
  tsoify_outcome(\"r=%d x=%d\", r, atomic_load_explicit(&x, memory_order_relaxed));\n  return 0;\n}\n";

fn search(program: &std::path::Path, env: &[(&str, &str)]) -> (u64, Vec<String>) {
    let (code, s) = verify_json_env(program, &["--model", "tso", "--outcomes"], env);
    assert_eq!(code, 0, "{s}");
    (s["complete"].as_u64().unwrap(), outcomes(&s))
}

#[test]
fn pinned_and_unpinned_runs_explore_the_same_executions() {
    let dir = tempfile::tempdir().unwrap();
    let program = build(&write_c(dir.path(), "race.c", RACE), dir.path());
    let pinned = search(&program, &[]);
    let unpinned = search(&program, &[("TSOIFY_PIN", "0")]);
    assert_eq!(pinned, unpinned);
    // r = 0, 1 or 2, and either writer last
    assert_eq!(pinned.1.len(), 6, "{:?}", pinned.1);
}

/// An execution that takes longer than the waiting side's yields (about
/// half a second in code the runtime does not see; a yield lets the worker
/// run a millisecond or two), so verify goes to sleep on the answer pipe
/// and the worker has to wake it; then a second search on the same worker
/// state shows the handshake went on.
#[test]
fn a_long_execution_wakes_verify_from_its_sleep() {
    let dir = tempfile::tempdir().unwrap();
    let slow = "#include <assert.h>\nint main(void) {\n  volatile unsigned long spin = 0;\n\
                for (unsigned long i = 0; i < 200000000ul; i++) spin += i;\n  assert(spin != 0);\n  return 0;\n}\n";
    let program = build(&write_c(dir.path(), "slow.c", slow), dir.path());
    let (code, s) = verify_json(&program, &["--model", "sc"]);
    assert_eq!((code, s["complete"].as_u64()), (0, Some(1)), "{s}");
}
