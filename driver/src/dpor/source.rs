//! Source DPOR: for each race of an execution, one of its initials goes
//! into the backtrack set of the node before the race's first step, unless
//! one already is there or asleep there (`add_backtracks`).

use super::*;

/// Source DPOR: add backtrack points to `path` for every race.
pub fn add_backtracks(path: &mut [Node], steps: &Steps, events: &[Event], analysis: &Analysis, ran_out: bool, scratch: &mut Scratch) {
    let x = Execution::new(steps, events, analysis, ran_out, &mut scratch.tables, scratch.shared_steps);
    let proc = |m: usize| x.steps.proc[x.steps.of_event[m]];
    for &(j, i) in &x.a.races {
        let (Some(sj), si) = (x.race_step(j), x.steps.of_event[i]) else { continue };
        if si == NO_STEP || si <= sj {
            continue;
        }
        let k = x.steps.node[sj];
        // the events after step sj that need not follow it, then i; a
        // process whose first such event has no predecessor among them can
        // start an execution in which i comes before j
        let mut seq: Vec<usize> = x.not_after(sj, si).into_iter().flat_map(|s| x.steps.events(s)).collect();
        seq.push(i);
        let mut initials: Vec<u32> = vec![];
        for (n, &m) in seq.iter().enumerate() {
            let p = proc(m);
            if initials.contains(&p) || seq[..n].iter().any(|&l| proc(l) == p) {
                continue;
            }
            // a step runs as a whole, and an atomic block too: it goes
            // first only if none of its events needs an earlier one (its
            // first event may need nothing while a later one does)
            let s = x.steps.of_event[m];
            if x.steps.events(s).chain(x.block_rest(m)).any(|m2| seq[..n].iter().any(|&l| x.hb(l, m2))) {
                continue;
            }
            // a block that sleeps here having done something else does not
            // cover the reversal, and cannot be run instead: not an initial
            // to count on (without another one, every option is explored)
            if x.steps.in_block(s) && sleeps_differently(&path[k], &x.steps.describe(s, path, events, x.last_ends)) {
                if debug_por() {
                    eprintln!("stale sleeper {p}: race {j} -> {i} at node {k}");
                }
                continue;
            }
            initials.push(p);
        }
        if debug_por() {
            eprintln!("  race {j} -> {i}: steps {sj} -> {si}, node {k}, seq {seq:?}, initials {initials:?}");
        }
        path[k].want_one_of(&initials, proc(i), x.steps.in_block(sj));
    }
}

/// A sleeping process (or one explored at a node) stands for the step it
/// took there. For a single access that is enough: whatever it reads, it
/// touches the same thing, and a reversal that starts with it is covered by
/// its explored subtree. An atomic block is several accesses whose later
/// ones depend on the values its earlier ones read (an assume that failed
/// in one execution passes in another and then writes). When a race's
/// reversal starts with such a block and the block that sleeps at the node
/// is a different one (it read other values there), the sleeping block's
/// subtree does not hold the reversal: other processes must go first so
/// that the block reads what it read in the race (the sleeping block would
/// read something else). Such a sleeper is stale for that race.
fn sleeps_differently(node: &Node, step: &Step) -> bool {
    let mut same_proc = node.sleep.iter().chain(&node.explored).filter(|z| z.proc == step.proc).peekable();
    same_proc.peek().is_some() && !same_proc.any(|z| z.same_as(step))
}
