//! Bug-first probes beside the search: which executions are followed by a
//! probe (`probe_due`, `Probing`) and how a probe runs (`Probes::run_one`:
//! a PCT or rotation schedule from the start, its violation kept).

use super::*;

/// How often probes run beside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probing {
    Off,
    /// every PROBE_EVERY executions, fewer as the search gets long
    /// (`probe_due`): what an answer that may well be SAFE can afford
    ThinningOut,
    /// every PROBE_EVERY executions throughout (asked for, or SV-COMP,
    /// which scores a violation found: some need hundreds of PCT probes,
    /// SV-COMP pthread-nondet/nondet-loop-bound-1 under TSO about 900)
    Steady,
}

/// Executions of the search per probe execution, at first.
pub const PROBE_EVERY: u64 = 8;

/// Executions after which the probes thin out: PROBE_EVERY apart until
/// then (every rotation probe has run by then, and as many PCT probes),
/// then twice as far apart each time the search doubles its length, so
/// that a long search pays 256 probes per doubling (a quarter of a
/// percent more executions at a million) where a short one pays an eighth.
pub const PROBES_THIN_OUT_AFTER: u64 = 4096;

/// Whether a probe runs after the search's `executions`-th execution.
pub fn probe_due(executions: u64) -> bool {
    let doublings = (executions / PROBES_THIN_OUT_AFTER).checked_ilog2().map_or(0, |l| l + 1);
    executions.is_multiple_of(PROBE_EVERY << doublings.min(40))
}

/// Bug-first probes. A depth-first search reaches a violation that needs a
/// thread to run after twenty others only after exploring their
/// interleavings (SV-COMP pthread-nondet/nondet-loop-bound-1: millions).
/// Between executions of the search, a probe runs the program once from the
/// start with no prefix, guide or sleep set, scheduled by random priorities
/// seeded with its number (PCT; runtime/src/choice.c): such a bug has a
/// chance of one in the number of threads in each probe. A probe changes
/// nothing in the search: its execution is not analysed and not counted as
/// one of the search's; only a violation it shows is kept (it is a real
/// execution), and ends the search. It runs with the nondet values of the
/// search's next execution, and draws those it does not name (0, 1, -1,
/// 2, INT_MAX or random: runtime/src/choice.c `rt_probe_value`); half the
/// PCT probes give each wide draw the previous draw's value instead, for
/// bugs that need inputs equal (`rt_probe_echoes`). One
/// probe per PROBE_EVERY executions, fewer as the search goes on by
/// default (`probe_due`), costs a SAFE answer an eighth more executions
/// at most. On by default (`verify --no-probes`;
/// `--probes` and `--svcomp` keep the rate: `Probing`).
///
/// Every other probe, until they are all run, is a rotation probe
/// (`rotation_probe`): threads take turns at every step, the opposite of
/// PCT's few switches, for bugs that need the most alternation (GenMC's
/// fib_bench: two threads each adding the other's value while a third
/// waits to see the sum; a search meets that schedule after all those
/// with fewer switches).
#[derive(Default)]
pub(super) struct Probes {
    run: u64,
    /// PCT probes so far (each seeded with its number)
    pct: u64,
}

/// The `k`-th rotation probe (runtime/src/choice.c `rotation_pick`), or
/// None when all have run: main's first `setup` steps (its thread
/// creations, in the common shape), the thread held back to the end (main
/// itself, one of the first threads, or none), the steps of a turn (an
/// update is a load or two and a store) and the thread the turns start
/// after. The likeliest shapes first: main creating two or three threads.
fn rotation_probe(k: u64) -> Option<u32> {
    const SETUPS: [u32; 6] = [2, 3, 1, 4, 0, 5];
    const HELD: [u32; 6] = [0, 1, 2, 3, 4, channel::PROBE_NO_HELD];
    const QUANTA: [u32; 4] = [1, 2, 3, 4];
    const STARTS: [u32; 2] = [0, 1];
    let mut k = usize::try_from(k).ok()?;
    let mut next = |n: usize| {
        let i = k % n;
        k /= n;
        i
    };
    let start = STARTS[next(STARTS.len())];
    let quantum = QUANTA[next(QUANTA.len())];
    let held = HELD[next(HELD.len())];
    let setup = *SETUPS.get(k)?;
    Some(channel::PROBE_ROTATE | quantum << 24 | held << 16 | setup << 8 | start)
}

impl Probes {
    pub(super) fn due(&self, cfg: &Config, stats: &Stats) -> bool {
        // (with --outcomes or --robustness every execution is wanted, and
        // the search's own reach them)
        let due = match cfg.probes {
            Probing::Off => false,
            Probing::ThinningOut => probe_due(stats.executions),
            Probing::Steady => stats.executions.is_multiple_of(PROBE_EVERY),
        };
        due && !cfg.all && !cfg.robustness
    }

    /// Run a probe; true when it showed a violation (kept in `search`).
    pub(super) fn run_one(&mut self, server: &mut Server, search: &mut Search) -> Result<bool> {
        self.run += 1;
        let s = server.shm();
        s.prefix_len = 0;
        s.guide_len = 0;
        s.n_sleepers = 0;
        // the nondet values of the search's next execution: they pass its
        // assumptions (with none, every value is 0 and a program that
        // assumes a range never gets past it); the runtime draws the rest
        crate::concolic::set_inputs(s, &search.inputs);
        // odd runs: the rotations while they last; the rest: PCT, seeded
        // with the run's number
        let rotation = if self.run % 2 == 1 { rotation_probe(self.run / 2) } else { None };
        s.probe = rotation.unwrap_or_else(|| {
            self.pct += 1;
            (self.pct as u32).max(1) & !channel::PROBE_ROTATE
        });
        let status = server.run();
        server.shm().probe = 0;
        let status = status?;
        search.stats.probes += 1;
        let s = server.shm();
        let (status, witness) = settle_status(s, status);
        Ok(search.record_violation(s, status, witness))
    }
}

#[cfg(test)]
mod probe_schedule_tests {
    use super::{probe_due, PROBES_THIN_OUT_AFTER, PROBE_EVERY};

    fn probes_in(n: u64) -> u64 {
        (1..n).filter(|&k| probe_due(k)).count() as u64
    }

    #[test]
    fn one_in_eight_at_first_then_fewer_per_execution_as_the_search_doubles() {
        // (the search's first executions: PROBE_EVERY apart, as before)
        assert_eq!(probes_in(PROBES_THIN_OUT_AFTER), (PROBES_THIN_OUT_AFTER - 1) / PROBE_EVERY);
        assert!(probe_due(8) && !probe_due(12) && probe_due(4088));
        // then 16 apart up to twice that, 32 apart up to four times, ...
        assert!(!probe_due(4104) && probe_due(4112) && !probe_due(8208) && probe_due(8224));
        let per_doubling = |from: u64| probes_in(2 * from) - probes_in(from);
        assert_eq!(per_doubling(4096), 256);
        assert_eq!(per_doubling(1 << 20), 256);
        // a long search: well under 1% more executions
        assert!(probes_in(1_000_000) * 100 < 1_000_000, "{}", probes_in(1_000_000));
    }
}
