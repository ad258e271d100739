//! The search over wide nondet values (concolic execution; the runtime side
//! is runtime/src/sym.c, the instrumentation pass/src/concolic.rs).
//!
//! A wide `__VERIFIER_nondet_*` call is a variable named by its thread and
//! its ordinal among that thread's wide nondet calls. Its value comes from
//! the input vector the execution runs with (0 for a variable it does not
//! name). Every branch and assume on an expression over the variables, in
//! any thread, is a choice point of the partial-order search like a small
//! nondet value (a value node of dpor/mod.rs, kind CH_BRANCH): its options are
//! its two sides, and the concrete run takes the side its inputs give.
//! After each execution, for each branch it met first, the solver is asked
//! whether the other side is feasible together with the path condition of
//! the execution so far (every earlier branch outcome, of every thread;
//! only those over variables connected to the branch's matter, see `Parts`);
//! if so, the model is kept with the node, and when the search explores
//! that option it replays the prefix with those inputs (the model
//! satisfies every earlier outcome, so the prefix replays alike: nothing
//! but tracked branches depends on the values, or the execution is
//! flagged untracked), else the option is marked done. An execution that
//! replays a prefix without flipping a branch runs with the inputs that
//! took the flipped node's current option (`Node::inputs`), and one that
//! follows a wakeup branch with the inputs of the execution it came from.
//!
//! Why this is exact. Within one order of events, the search takes every
//! side of every branch that is feasible given all outcomes before it, so
//! it reaches every feasible combination of outcomes (by induction along
//! the execution: a feasible combination agrees with the explored tree up
//! to some node, where its side is feasible, hence explored). Across
//! orders: which combinations are feasible does not depend on the order in
//! which the branches ran (a combination is one formula, a conjunction),
//! and the values decide nothing else. So for one input vector x the
//! program is an ordinary one in which a branch is a step of its own
//! thread that reads nothing shared, and the reduction is exact for it;
//! the search is that reduction for every x at once, an execution shared
//! by the vectors that take its sides. Hence a branch touches nothing the
//! reduction sees (its TOUCH event has no access), and two threads'
//! branches on one variable are not ordered both ways: the second one's
//! feasible sides depend on the first one's outcome, but the first one's
//! other side is an option of its own, under which the second has the
//! sides it lacked, so every combination is reached in the one order. An
//! order a reversed race brings meets the branches in another order and
//! takes the sides feasible there (some combinations twice, none lost).
//! Sleep sets stay exact because another thread's event can only narrow a
//! branch's feasible sides (it adds outcomes to the path condition, never
//! removes one), and a step with a branch is open (dependent with
//! everything) for sleep sets until all its sides have run, as for nondet
//! values. Until 2026-12-03 each branch wrote a pseudo-location per
//! variable, which ordered them both ways: two threads comparing one value
//! with ten constants each made C(20,10) orders (SV-COMP
//! pthread-finding-k-matches, UNKNOWN then, 22 executions now).
//! `tests/litmus/nondetfuzz.py` checks this against `--por none`.
//!
//! A branch whose thread branched on the same expression before (the same
//! operations on the same variables and constants, runtime/src/sym.c) is
//! no choice: its side follows from the earlier one in every order.
//!
//! Values in memory are followed as the memory model moves their bytes
//! (through store buffers and flushes; runtime/ABI.md), so a value one
//! thread stores and another reads is as exact as one in a register.
//!
//! What is not exact keeps the answer from SAFE, with the reason: a value
//! that goes where the tracking cannot follow (UNTRACKED), a solver that
//! gives up, and the caps.

use crate::channel::{self, Input, Shm};
use crate::dpor;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Solver queries made for one execution at most (the rest: UNKNOWN).
pub const MAX_QUERIES_PER_EXECUTION: usize = 1024;

/// The time one query may take (the solver then gives up: UNKNOWN).
const QUERY_LIMIT: Duration = Duration::from_secs(10);

#[allow(non_camel_case_types)]
mod z3 {
    use super::*;
    pub type Z3_config = *mut c_void;
    pub type Z3_context = *mut c_void;
    pub type Z3_sort = *mut c_void;
    pub type Z3_ast = *mut c_void;
    pub type Z3_symbol = *mut c_void;
    pub type Z3_solver = *mut c_void;
    pub type Z3_model = *mut c_void;
    pub type Z3_params = *mut c_void;
    pub const L_TRUE: c_int = 1;
    pub const L_FALSE: c_int = -1;

    // The few functions of Z3's C API that the search needs (Debian's
    // libz3, `scripts/setup`); a hand-written binding keeps the build free
    // of bindgen and of a Z3 source build.
    #[link(name = "z3")]
    extern "C" {
        pub fn Z3_mk_config() -> Z3_config;
        pub fn Z3_del_config(c: Z3_config);
        pub fn Z3_set_param_value(c: Z3_config, id: *const c_char, v: *const c_char);
        pub fn Z3_mk_context(c: Z3_config) -> Z3_context;
        pub fn Z3_del_context(c: Z3_context);
        pub fn Z3_mk_bv_sort(c: Z3_context, sz: c_uint) -> Z3_sort;
        pub fn Z3_mk_unsigned_int64(c: Z3_context, v: u64, ty: Z3_sort) -> Z3_ast;
        pub fn Z3_mk_string_symbol(c: Z3_context, s: *const c_char) -> Z3_symbol;
        pub fn Z3_mk_const(c: Z3_context, s: Z3_symbol, ty: Z3_sort) -> Z3_ast;
        pub fn Z3_mk_bvadd(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvsub(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvmul(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvudiv(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvsdiv(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvurem(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvsrem(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvand(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvor(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvxor(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvshl(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvlshr(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvashr(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_eq(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_not(c: Z3_context, a: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvult(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvule(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvugt(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvuge(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvslt(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvsle(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvsgt(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_bvsge(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_ite(c: Z3_context, i: Z3_ast, t: Z3_ast, e: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_zero_ext(c: Z3_context, i: c_uint, a: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_sign_ext(c: Z3_context, i: c_uint, a: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_extract(c: Z3_context, high: c_uint, low: c_uint, a: Z3_ast) -> Z3_ast;
        pub fn Z3_mk_solver(c: Z3_context) -> Z3_solver;
        pub fn Z3_solver_inc_ref(c: Z3_context, s: Z3_solver);
        pub fn Z3_solver_dec_ref(c: Z3_context, s: Z3_solver);
        pub fn Z3_to_app(c: Z3_context, a: Z3_ast) -> *mut c_void;
        pub fn Z3_get_app_decl(c: Z3_context, a: *mut c_void) -> *mut c_void;
        pub fn Z3_model_get_const_interp(c: Z3_context, m: Z3_model, d: *mut c_void) -> Z3_ast;
        pub fn Z3_mk_params(c: Z3_context) -> Z3_params;
        pub fn Z3_params_inc_ref(c: Z3_context, p: Z3_params);
        pub fn Z3_params_dec_ref(c: Z3_context, p: Z3_params);
        pub fn Z3_params_set_uint(c: Z3_context, p: Z3_params, k: Z3_symbol, v: c_uint);
        pub fn Z3_solver_set_params(c: Z3_context, s: Z3_solver, p: Z3_params);
        pub fn Z3_solver_assert(c: Z3_context, s: Z3_solver, a: Z3_ast);
        pub fn Z3_solver_push(c: Z3_context, s: Z3_solver);
        pub fn Z3_solver_pop(c: Z3_context, s: Z3_solver, n: c_uint);
        pub fn Z3_solver_reset(c: Z3_context, s: Z3_solver);
        pub fn Z3_solver_check(c: Z3_context, s: Z3_solver) -> c_int;
        pub fn Z3_solver_check_assumptions(c: Z3_context, s: Z3_solver, n: c_uint, a: *const Z3_ast) -> c_int;
        pub fn Z3_mk_fresh_const(c: Z3_context, prefix: *const c_char, ty: Z3_sort) -> Z3_ast;
        pub fn Z3_mk_bool_sort(c: Z3_context) -> Z3_sort;
        pub fn Z3_mk_implies(c: Z3_context, a: Z3_ast, b: Z3_ast) -> Z3_ast;
        pub fn Z3_solver_get_model(c: Z3_context, s: Z3_solver) -> Z3_model;
        pub fn Z3_model_inc_ref(c: Z3_context, m: Z3_model);
        pub fn Z3_model_dec_ref(c: Z3_context, m: Z3_model);
        pub fn Z3_get_numeral_uint64(c: Z3_context, v: Z3_ast, u: *mut u64) -> bool;
    }
}

/// An expression node (operands: node ids of the same execution, 1-based
/// into the slice `Solver::ast` gets).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Node {
    op: u8,
    bits: u8,
    pred: u8,
    a: u32,
    b: u32,
    c: u32,
    k: u64,
}

/// Executions one Z3 context serves: making one costs more than most
/// executions' queries, but the context keeps every term it made until it
/// is deleted, so it is replaced now and then.
const EXECUTIONS_PER_CONTEXT: u32 = 1000;

#[derive(Default)]
pub struct Concolic {
    /// the solver of the last executions, and how many it served
    solver: Option<(Solver, u32)>,
    /// verify's --timeout, as an instant: no query runs past it
    deadline: Option<Instant>,
    /// a query was not asked (or given up) because the deadline passed:
    /// the search stops as at a timeout
    pub cut: bool,
    /// a wide nondet value was taken in some execution
    pub used: bool,
    /// why the search over values is not exhaustive (empty: it is)
    pub reasons: Vec<String>,
    /// values pinned where the tracking could not follow them (each
    /// feasible value a path of its own: exact, but long for a wide one)
    pub pinned: Vec<String>,
    pub queries: u64,
    /// branch sides found feasible (each gets its own input vector)
    pub input_vectors: u64,
}

impl Concolic {
    pub fn new(deadline: Option<Instant>) -> Concolic {
        Concolic { input_vectors: 1, deadline, ..Concolic::default() }
    }

    /// A solver with nothing asserted (the context of earlier executions
    /// while it has served fewer than EXECUTIONS_PER_CONTEXT).
    fn fresh_solver(&mut self) -> (Solver, u32) {
        match self.solver.take() {
            Some((mut s, n)) if n < EXECUTIONS_PER_CONTEXT => {
                s.reset();
                (s, n + 1)
            }
            _ => (Solver::new(), 1),
        }
    }

    fn reason(&mut self, r: String) {
        push_once(&mut self.reasons, r);
    }

    /// After an execution run with `inputs`: for each branch node it added
    /// to `path` (from `prefix` on), find whether its other side is
    /// feasible given every earlier outcome of the execution; keep a model
    /// for it, or mark it done.
    pub fn branches(&mut self, s: &Shm, path: &mut [dpor::Node], prefix: usize, inputs: &[Input]) {
        if s.sym_flags & channel::SYMF_USED == 0 {
            return;
        }
        self.used = true;
        if s.sym_flags & channel::SYMF_UNTRACKED != 0 {
            let why = channel::c_text(&s.sym_reason, channel::MESSAGE_BYTES);
            self.reason(why);
        } else if s.sym_flags & channel::SYMF_PINNED != 0 {
            push_once(&mut self.pinned, channel::c_text(&s.sym_reason, channel::MESSAGE_BYTES));
        }
        let end = (s.trail_len as usize).min(path.len());
        let at: Vec<usize> = (0..end).filter(|&i| path[i].branch).collect();
        let new: Vec<usize> = at.iter().copied().filter(|&i| i >= prefix).collect();
        if new.is_empty() {
            return;
        }
        // the other side of each new branch stays unexplored unless the
        // solver finds it feasible (a reason says why when it cannot tell)
        let give_up = |me: &mut Concolic, path: &mut [dpor::Node], from: usize, why: String| {
            for &i in at[from..].iter().filter(|&&i| i >= prefix) {
                let other = 1 - path[i].chosen;
                path[i].done.insert(other);
            }
            me.reason(why);
        };
        let n = (s.n_sym_nodes as usize).min(channel::MAX_SYM_NODES);
        let n_path = (s.n_path as usize).min(channel::MAX_PATH);
        if n_path < at.len() {
            give_up(self, path, 0, "a branch on a nondet value whose condition the explorer could not read".into());
            return;
        }
        let nodes: Vec<Node> = s.sym_nodes[..n.max(1)].iter().skip(1).map(|r| Node { op: r.op, bits: r.bits, pred: r.pred, a: r.a, b: r.b, c: r.c, k: r.k }).collect();
        let valid = |id: u32| id != 0 && (id as usize) < n;
        // --timeout came first: the search stops as at a timeout
        let out_of_time = |me: &mut Concolic, path: &mut [dpor::Node], from: usize| {
            me.cut = true;
            give_up(me, path, from, "the time limit came before every branch on nondet values was searched".into());
        };
        let parts = Parts::new(&nodes);
        let (mut solver, uses) = self.fresh_solver();
        let mut asked = 0;
        'search: for (b, &i) in at.iter().enumerate() {
            let p = s.path[b];
            let taken = p.taken & 1 != 0;
            if !valid(p.node) || taken as u32 != path[i].chosen {
                give_up(self, path, b, "a branch on a nondet value out of step with its path condition".into());
                break 'search;
            }
            if i >= prefix && p.taken & channel::PATH_ONE_SIDED != 0 && !both_sides_of_assumes() {
                // an assume that passed in a thread whose values are its
                // own: the other side only stops it (runtime/src/sym.c
                // __tsoify_sym_assume)
                path[i].done.insert(1 - path[i].chosen);
            } else if i >= prefix {
                let other = 1 - path[i].chosen;
                if asked == MAX_QUERIES_PER_EXECUTION {
                    give_up(self, path, b, format!("an execution met more than {MAX_QUERIES_PER_EXECUTION} new branches on nondet values; the rest were not searched"));
                    break 'search;
                }
                // (a query is capped at 10 s, and at what is left of --timeout)
                let left = self.deadline.map_or(QUERY_LIMIT, |d| d.saturating_duration_since(Instant::now()).min(QUERY_LIMIT));
                if left.is_zero() {
                    out_of_time(self, path, b);
                    break 'search;
                }
                solver.limit(left);
                asked += 1;
                self.queries += 1;
                let e = solver.condition(&nodes, p.node, !taken);
                match solver.check_with(&parts, parts.of(p.node), e) {
                    Some(Some(values)) => {
                        let mut next: Vec<Input> = inputs.iter().copied().filter(|x| !values.iter().any(|v| v.0 == x.thread && v.1 == x.ordinal)).collect();
                        next.extend(values.iter().map(|&(thread, ordinal, value)| Input { thread, ordinal, value }));
                        next.sort();
                        if next.len() > channel::MAX_INPUTS {
                            path[i].done.insert(other);
                            self.reason(format!("more than {} nondet values in one execution", channel::MAX_INPUTS));
                        } else {
                            path[i].model = Some(Rc::new(next));
                        }
                    }
                    Some(None) => {
                        path[i].done.insert(other); // infeasible
                    }
                    None if left < QUERY_LIMIT => {
                        out_of_time(self, path, b);
                        break 'search;
                    }
                    None => {
                        path[i].done.insert(other);
                        self.reason("the solver could not decide a path condition".into());
                    }
                }
            }
            let e = solver.condition(&nodes, p.node, taken);
            solver.assert(parts.of(p.node), e);
        }
        self.solver = Some((solver, uses));
    }
}

/// TSOIFY_ASSUME_BOTH_SIDES=1 takes the failing side of every assume too
/// (the reference tests/litmus/nondetfuzz.py compares against).
fn both_sides_of_assumes() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("TSOIFY_ASSUME_BOTH_SIDES").is_ok_and(|v| v == "1"))
}

/// Add `s` to `list` unless it is there already.
fn push_once(list: &mut Vec<String>, s: String) {
    if !list.contains(&s) {
        list.push(s);
    }
}

/// Hand an input vector to the runtime.
pub fn set_inputs(s: &mut Shm, inputs: &[Input]) {
    let n = inputs.len().min(channel::MAX_INPUTS);
    s.inputs[..n].copy_from_slice(&inputs[..n]);
    s.n_inputs = n as u32;
}

/// Which expressions of an execution share a variable: conditions in
/// different parts constrain disjoint variables, so a query needs only the
/// conditions of its own part (the values of the other variables stay as
/// they are, and those satisfy their own conditions). Without this, a loop
/// of branches on a fresh value each (SV-COMP qrcu: 16,000 per execution)
/// made every query carry every earlier branch, and Z3 took minutes.
struct Parts {
    /// the part of each node (a node id, the part's representative)
    root: Vec<u32>,
}

impl Parts {
    fn new(nodes: &[Node]) -> Parts {
        // union-find over node ids (1-based; 0 is the concrete node)
        let mut parent: Vec<u32> = (0..=nodes.len() as u32).collect();
        fn find(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        }
        for (i, n) in nodes.iter().enumerate() {
            let id = i as u32 + 1;
            let operands: &[u32] = match n.op {
                channel::SYM_VAR | channel::SYM_CONST => &[],
                channel::SYM_ZEXT | channel::SYM_SEXT | channel::SYM_TRUNC => &[n.a],
                channel::SYM_SELECT => &[n.a, n.b, n.c],
                _ => &[n.a, n.b], // (an icmp's c is its width, not a node)
            };
            for &o in operands {
                // a constant operand joins nothing (constants are shared)
                if o == 0 || o > id || nodes[o as usize - 1].op == channel::SYM_CONST {
                    continue;
                }
                let (x, y) = (find(&mut parent, id), find(&mut parent, o));
                parent[x as usize] = y;
            }
        }
        let root = (0..parent.len() as u32).map(|x| find(&mut parent, x)).collect();
        Parts { root }
    }

    fn of(&self, id: u32) -> u32 {
        self.root.get(id as usize).copied().unwrap_or(0)
    }
}

/// One Z3 context (for the queries of up to EXECUTIONS_PER_CONTEXT
/// executions). A query of a part with few conditions runs in a scratch
/// solver (push, the part's conditions, the query, check, pop: cheap on a
/// solver that holds nothing else); a part with many gets a solver of its
/// own that keeps them, asked incrementally. Solvers are kept for reuse:
/// making one costs milliseconds.
struct Solver {
    ctx: z3::Z3_context,
    asts: HashMap<u32, z3::Z3_ast>,
    /// (thread, ordinal) -> (width, term, node id)
    vars: HashMap<(u32, u32), (u32, z3::Z3_ast, u32)>,
    /// the time limit of a query (ms)
    limit_ms: u32,
    parts: HashMap<u32, Part>,
    scratch: Option<Kept>,
    /// solvers emptied for reuse
    spare: Vec<Kept>,
}

/// A solver and the time limit last set on it (ms).
#[derive(Clone, Copy)]
struct Kept {
    solver: z3::Z3_solver,
    limit_ms: u32,
}

/// The conditions of one part, and its own solver once it has many
/// (those asserted there first).
#[derive(Default)]
struct Part {
    own: Option<Kept>,
    conditions: Vec<z3::Z3_ast>,
    asserted: usize,
}

/// Conditions from which a part gets a solver of its own.
const OWN_SOLVER_FROM: usize = 64;

impl Solver {
    fn new() -> Solver {
        unsafe {
            let cfg = z3::Z3_mk_config();
            let k = CString::new("timeout").unwrap();
            let v = CString::new("10000").unwrap();
            z3::Z3_set_param_value(cfg, k.as_ptr(), v.as_ptr());
            let ctx = z3::Z3_mk_context(cfg);
            z3::Z3_del_config(cfg);
            Solver { ctx, asts: HashMap::new(), vars: HashMap::new(), limit_ms: 10_000, parts: HashMap::new(), scratch: None, spare: vec![] }
        }
    }

    /// Let each query take at most `d`.
    fn limit(&mut self, d: Duration) {
        self.limit_ms = d.as_millis().clamp(1, u32::MAX as u128) as u32;
    }

    /// Forget the last execution: no solvers, no terms of its nodes (node
    /// ids are per execution).
    fn reset(&mut self) {
        for (_, part) in self.parts.drain() {
            if let Some(kept) = part.own {
                unsafe { z3::Z3_solver_reset(self.ctx, kept.solver) };
                self.spare.push(kept);
            }
        }
        self.asts.clear();
        self.vars.clear();
    }

    /// A solver with nothing asserted (its time limit as last set).
    fn take_solver(&mut self) -> Kept {
        let ctx = self.ctx;
        self.spare.pop().unwrap_or_else(|| unsafe {
            let s = z3::Z3_mk_solver(ctx);
            z3::Z3_solver_inc_ref(ctx, s);
            Kept { solver: s, limit_ms: 0 }
        })
    }

    fn set_limit(&self, kept: &mut Kept) {
        // (the same, near enough: parameters cost a little)
        if kept.limit_ms.abs_diff(self.limit_ms) < 100 {
            return;
        }
        kept.limit_ms = self.limit_ms;
        unsafe {
            let params = z3::Z3_mk_params(self.ctx);
            z3::Z3_params_inc_ref(self.ctx, params);
            let k = CString::new("timeout").unwrap();
            z3::Z3_params_set_uint(self.ctx, params, z3::Z3_mk_string_symbol(self.ctx, k.as_ptr()), self.limit_ms);
            z3::Z3_solver_set_params(self.ctx, kept.solver, params);
            z3::Z3_params_dec_ref(self.ctx, params);
        }
    }

    /// Condition `e` holds from here on (in part `part`).
    fn assert(&mut self, part: u32, e: z3::Z3_ast) {
        self.parts.entry(part).or_default().conditions.push(e);
    }

    /// Node `id` is not 0 (`taken`) or is 0.
    fn condition(&mut self, nodes: &[Node], id: u32, taken: bool) -> z3::Z3_ast {
        let bits = nodes[id as usize - 1].bits as u32;
        let e = self.ast(nodes, id);
        unsafe {
            let zero = z3::Z3_mk_unsigned_int64(self.ctx, 0, z3::Z3_mk_bv_sort(self.ctx, bits));
            let is_zero = z3::Z3_mk_eq(self.ctx, e, zero);
            if taken {
                z3::Z3_mk_not(self.ctx, is_zero)
            } else {
                is_zero
            }
        }
    }

    /// Values for the variables of part `part` that satisfy its conditions
    /// and `e`: Some(Some(values)), Some(None) when unsatisfiable, None
    /// when the solver gave up.
    fn check_with(&mut self, parts: &Parts, part: u32, e: z3::Z3_ast) -> Option<Option<Vec<(u32, u32, u64)>>> {
        let ctx = self.ctx;
        let p = self.parts.entry(part).or_default();
        let scratch = p.own.is_none() && p.conditions.len() < OWN_SOLVER_FROM;
        let kept = if scratch { self.scratch } else { p.own };
        let mut kept = kept.unwrap_or_else(|| self.take_solver());
        self.set_limit(&mut kept);
        let solver = kept.solver;
        let p = self.parts.get_mut(&part).expect("made above");
        unsafe {
            // the scratch solver holds the part's conditions for this
            // check only; its own solver keeps them
            let from = if scratch {
                z3::Z3_solver_push(ctx, solver);
                0
            } else {
                p.asserted
            };
            for &c in &p.conditions[from..] {
                z3::Z3_solver_assert(ctx, solver, c);
            }
        }
        if scratch {
            self.scratch = Some(kept);
        } else {
            p.asserted = p.conditions.len();
            p.own = Some(kept);
        }
        let out = unsafe {
            // on its own solver, e under a fresh literal assumed for this
            // check only (no push and pop, which cost Z3 more than the
            // check once many conditions are asserted)
            let r = if scratch {
                z3::Z3_solver_assert(ctx, solver, e);
                z3::Z3_solver_check(ctx, solver)
            } else {
                let q = z3::Z3_mk_fresh_const(ctx, c"q".as_ptr(), z3::Z3_mk_bool_sort(ctx));
                z3::Z3_solver_assert(ctx, solver, z3::Z3_mk_implies(ctx, q, e));
                z3::Z3_solver_check_assumptions(ctx, solver, 1, &q)
            };
            if r == z3::L_TRUE {
                let m = z3::Z3_solver_get_model(self.ctx, solver);
                z3::Z3_model_inc_ref(self.ctx, m);
                let mut values = vec![];
                let mut ok = true;
                // each variable's value in the model, 0 for one the model
                // leaves free (any value does), read without evaluating
                // (Z3_model_eval with completion adds each free one to the
                // model); variables of other parts keep their values
                for (&(thread, ordinal), &(_, var, node)) in &self.vars {
                    if parts.of(node) != part {
                        continue;
                    }
                    let decl = z3::Z3_get_app_decl(self.ctx, z3::Z3_to_app(self.ctx, var));
                    let v = z3::Z3_model_get_const_interp(self.ctx, m, decl);
                    let mut u = 0u64;
                    if v.is_null() || z3::Z3_get_numeral_uint64(self.ctx, v, &mut u) {
                        values.push((thread, ordinal, u));
                    } else {
                        ok = false;
                    }
                }
                z3::Z3_model_dec_ref(self.ctx, m);
                ok.then_some(Some(values))
            } else if r == z3::L_FALSE {
                Some(None)
            } else {
                None
            }
        };
        if scratch {
            unsafe { z3::Z3_solver_pop(ctx, solver, 1) };
        }
        out
    }

    fn ast(&mut self, nodes: &[Node], id: u32) -> z3::Z3_ast {
        if let Some(&a) = self.asts.get(&id) {
            return a;
        }
        let n = nodes[id as usize - 1];
        let c = self.ctx;
        let a = unsafe {
            let sort = |bits: u32| z3::Z3_mk_bv_sort(c, bits);
            match n.op {
                channel::SYM_VAR => {
                    let (thread, ordinal) = ((n.k >> 32) as u32, n.k as u32);
                    let name = CString::new(format!("t{thread}_n{ordinal}_w{}", n.bits)).unwrap();
                    let v = z3::Z3_mk_const(c, z3::Z3_mk_string_symbol(c, name.as_ptr()), sort(n.bits as u32));
                    self.vars.insert((thread, ordinal), (n.bits as u32, v, id));
                    v
                }
                channel::SYM_CONST => z3::Z3_mk_unsigned_int64(c, n.k, sort(n.bits as u32)),
                channel::SYM_ICMP => {
                    let (x, y) = (self.ast(nodes, n.a), self.ast(nodes, n.b));
                    let cmp = match n.pred {
                        32 => z3::Z3_mk_eq(c, x, y),
                        33 => z3::Z3_mk_not(c, z3::Z3_mk_eq(c, x, y)),
                        34 => z3::Z3_mk_bvugt(c, x, y),
                        35 => z3::Z3_mk_bvuge(c, x, y),
                        36 => z3::Z3_mk_bvult(c, x, y),
                        37 => z3::Z3_mk_bvule(c, x, y),
                        38 => z3::Z3_mk_bvsgt(c, x, y),
                        39 => z3::Z3_mk_bvsge(c, x, y),
                        40 => z3::Z3_mk_bvslt(c, x, y),
                        _ => z3::Z3_mk_bvsle(c, x, y),
                    };
                    let one = z3::Z3_mk_unsigned_int64(c, 1, sort(1));
                    let zero = z3::Z3_mk_unsigned_int64(c, 0, sort(1));
                    z3::Z3_mk_ite(c, cmp, one, zero)
                }
                channel::SYM_ZEXT | channel::SYM_SEXT | channel::SYM_TRUNC => {
                    let x = self.ast(nodes, n.a);
                    let from = nodes[n.a as usize - 1].bits as u32;
                    let to = n.bits as u32;
                    if n.op == channel::SYM_TRUNC || to < from {
                        z3::Z3_mk_extract(c, to - 1, 0, x)
                    } else if to == from {
                        x
                    } else if n.op == channel::SYM_ZEXT {
                        z3::Z3_mk_zero_ext(c, to - from, x)
                    } else {
                        z3::Z3_mk_sign_ext(c, to - from, x)
                    }
                }
                // (sym.c compares the integer under it instead)
                channel::SYM_ITOFP => unreachable!("a float node in a path condition"),
                channel::SYM_SELECT => {
                    let cond = self.ast(nodes, n.a);
                    let one = z3::Z3_mk_unsigned_int64(c, 1, sort(1));
                    let (x, y) = (self.ast(nodes, n.b), self.ast(nodes, n.c));
                    z3::Z3_mk_ite(c, z3::Z3_mk_eq(c, cond, one), x, y)
                }
                op => {
                    let (x, y) = (self.ast(nodes, n.a), self.ast(nodes, n.b));
                    let f = match op {
                        channel::SYM_ADD => z3::Z3_mk_bvadd,
                        channel::SYM_SUB => z3::Z3_mk_bvsub,
                        channel::SYM_MUL => z3::Z3_mk_bvmul,
                        channel::SYM_UDIV => z3::Z3_mk_bvudiv,
                        channel::SYM_SDIV => z3::Z3_mk_bvsdiv,
                        channel::SYM_UREM => z3::Z3_mk_bvurem,
                        channel::SYM_SREM => z3::Z3_mk_bvsrem,
                        channel::SYM_AND => z3::Z3_mk_bvand,
                        channel::SYM_OR => z3::Z3_mk_bvor,
                        channel::SYM_XOR => z3::Z3_mk_bvxor,
                        channel::SYM_SHL => z3::Z3_mk_bvshl,
                        channel::SYM_LSHR => z3::Z3_mk_bvlshr,
                        _ => z3::Z3_mk_bvashr,
                    };
                    f(c, x, y)
                }
            }
        };
        self.asts.insert(id, a);
        a
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        self.reset();
        unsafe {
            for kept in self.spare.drain(..).chain(self.scratch.take()) {
                z3::Z3_solver_dec_ref(self.ctx, kept.solver);
            }
            z3::Z3_del_context(self.ctx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(op: u8, a: u32, b: u32, c: u32) -> Node {
        Node { op, bits: 32, pred: 0, a, b, c, k: 0 }
    }

    /// Conditions join a part through shared variables (however deep in
    /// their expressions), never through a shared constant; an icmp's `c`
    /// (its width) joins nothing.
    #[test]
    fn parts_follow_shared_variables_only() {
        let nodes = [
            node(channel::SYM_VAR, 0, 0, 0),     // 1: x
            node(channel::SYM_VAR, 0, 0, 0),     // 2: y
            node(channel::SYM_CONST, 0, 0, 0),   // 3: a constant used by both
            node(channel::SYM_ICMP, 1, 3, 2),    // 4: x == k (c = width 2, not node 2)
            node(channel::SYM_ICMP, 2, 3, 32),   // 5: y == k
            node(channel::SYM_ADD, 1, 3, 0),     // 6: x + k
            node(channel::SYM_ZEXT, 6, 0, 0),    // 7: zext(x + k)
            node(channel::SYM_VAR, 0, 0, 0),     // 8: z
            node(channel::SYM_SELECT, 4, 8, 2),  // 9: (x == k) ? z : y
        ];
        let parts = Parts::new(&nodes[..8]);
        assert_eq!(parts.of(4), parts.of(7), "x == k and zext(x + k) share x");
        assert_ne!(parts.of(4), parts.of(5), "x == k and y == k share only a constant");
        assert_ne!(parts.of(8), parts.of(1));
        let parts = Parts::new(&nodes);
        assert_eq!(parts.of(4), parts.of(5), "the select joins x, y and z");
        assert_eq!(parts.of(8), parts.of(5));
    }
}
