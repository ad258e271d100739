//! The search over wide nondet values (concolic execution; the runtime side
//! is runtime/src/sym.c, the instrumentation pass/src/concolic.rs).
//!
//! A wide `__VERIFIER_nondet_*` call is a variable named by its thread and
//! its ordinal among that thread's wide nondet calls. Its value comes from
//! an input vector, the same for a whole run of the partial-order search
//! (so the reduction sees no value choice for it): the explorer runs the
//! complete search once per input vector. Every execution reports the path
//! conditions it met (branches and assumes on expressions over the
//! variables); for each prefix of them not asked before, the solver is
//! asked for values that keep the prefix and take the other side of the
//! next condition, and each answer not seen yet is a new input vector.
//!
//! When is this exhaustive? While one thread runs, the path conditions of
//! an execution come in program order, the same for every schedule, and
//! the runtime's memory shadow is exact; flipping every prefix of every
//! execution then reaches every feasible path through that part (the
//! usual argument: a path not yet seen agrees with an explored one up to
//! some condition, and the query for that prefix gives values that follow
//! it one condition further). After a thread is created the runtime flags
//! any branch on, store of or read of a tracked value
//! (TSOIFY_SYM_AFTER_SPAWN): the search still tries those flips, and finds
//! violations there, but it is not known to find them all, so such an
//! execution keeps the answer from being SAFE. So does an untracked one
//! (a value went where the tracking cannot follow), a solver that gives
//! up, and the cap on input vectors.

use crate::channel::{self, Input, Shm};
use std::collections::{HashMap, HashSet, VecDeque};
use std::ffi::{c_char, c_int, c_uint, c_void, CString};

/// Input vectors one run may try at most before giving up (UNKNOWN).
pub const MAX_INPUT_VECTORS: usize = 4096;
/// Solver queries made for one execution at most (the rest: UNKNOWN).
pub const MAX_QUERIES_PER_EXECUTION: usize = 1024;

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
        pub fn Z3_solver_push(c: Z3_context, s: Z3_solver);
        pub fn Z3_solver_pop(c: Z3_context, s: Z3_solver, n: c_uint);
        pub fn Z3_solver_assert(c: Z3_context, s: Z3_solver, a: Z3_ast);
        pub fn Z3_solver_check(c: Z3_context, s: Z3_solver) -> c_int;
        pub fn Z3_solver_get_model(c: Z3_context, s: Z3_solver) -> Z3_model;
        pub fn Z3_model_inc_ref(c: Z3_context, m: Z3_model);
        pub fn Z3_model_dec_ref(c: Z3_context, m: Z3_model);
        pub fn Z3_model_eval(c: Z3_context, m: Z3_model, t: Z3_ast, completion: bool, v: *mut Z3_ast) -> bool;
        pub fn Z3_get_numeral_uint64(c: Z3_context, v: Z3_ast, u: *mut u64) -> bool;
    }
}

/// An expression node with its operands as canonical ids (hash-consed
/// across executions, so equal path prefixes have equal keys).
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

#[derive(Default)]
pub struct Concolic {
    nodes: Vec<Node>,
    canon: HashMap<Node, u32>,
    /// path prefixes, interned: (prefix, condition, taken) -> the longer
    /// prefix (0 = the empty one), so a key is one entry, not a copy of
    /// the whole prefix (an execution may branch thousands of times)
    prefixes: HashMap<(u32, u32, bool), u32>,
    /// (prefix, condition, direction) already asked for
    asked: HashSet<(u32, u32, bool)>,
    seen: HashSet<Vec<Input>>,
    queue: VecDeque<Vec<Input>>,
    /// a wide nondet value was taken in some execution
    pub used: bool,
    /// why the search over values is not exhaustive (empty: it is)
    pub reasons: Vec<String>,
    pub queries: u64,
    pub input_vectors: u64,
}

impl Concolic {
    pub fn new() -> Concolic {
        let mut c = Concolic::default();
        c.seen.insert(vec![]);
        c.input_vectors = 1;
        c
    }

    fn reason(&mut self, r: String) {
        if !self.reasons.contains(&r) {
            self.reasons.push(r);
        }
    }

    /// The next input vector to run the search with.
    pub fn next_input(&mut self) -> Option<Vec<Input>> {
        let next = self.queue.pop_front();
        if next.is_some() {
            self.input_vectors += 1;
        }
        next
    }

    /// Learn from the execution that just ended, run with `inputs`.
    pub fn observe(&mut self, s: &Shm, inputs: &[Input]) {
        if s.sym_flags & channel::SYMF_USED == 0 {
            return;
        }
        self.used = true;
        if s.sym_flags & (channel::SYMF_UNTRACKED | channel::SYMF_AFTER_SPAWN) != 0 {
            let why = channel::c_text(&s.sym_reason, channel::MESSAGE_BYTES);
            self.reason(why);
        }
        let n = (s.n_sym_nodes as usize).min(channel::MAX_SYM_NODES);
        let n_path = (s.n_path as usize).min(channel::MAX_PATH);
        if n_path == 0 {
            return;
        }
        // canonical ids of this execution's nodes (operands come first)
        let mut local = vec![0u32; n.max(1)];
        for (i, raw) in s.sym_nodes[..n].iter().enumerate().skip(1) {
            let map = |x: u32| local.get(x as usize).copied().unwrap_or(0);
            let node = Node { op: raw.op, bits: raw.bits, pred: raw.pred, a: map(raw.a), b: map(raw.b), c: if raw.op == channel::SYM_ICMP { raw.c } else { map(raw.c) }, k: raw.k };
            local[i] = self.intern(node);
        }
        let path: Vec<(u32, bool)> = s.path[..n_path].iter().map(|p| (local.get(p.node as usize).copied().unwrap_or(0), p.taken != 0)).collect();
        if path.iter().any(|&(c, _)| c == 0) {
            self.reason("a path condition the explorer could not read".into());
            return;
        }
        // the queries not asked before
        let mut todo: Vec<usize> = vec![];
        let mut prefix = 0u32;
        for (i, &(c, taken)) in path.iter().enumerate() {
            if todo.len() == MAX_QUERIES_PER_EXECUTION {
                // (a loop over a count the solver made huge: these are
                // not marked asked, and the answer is not SAFE)
                if !self.asked.contains(&(prefix, c, !taken)) {
                    self.reason(format!("an execution met more than {MAX_QUERIES_PER_EXECUTION} new branches on nondet values; the rest were not searched"));
                    break;
                }
            } else if self.asked.insert((prefix, c, !taken)) {
                todo.push(i);
            }
            let next = self.prefixes.len() as u32 + 1;
            prefix = *self.prefixes.entry((prefix, c, taken)).or_insert(next);
        }
        if todo.is_empty() {
            return;
        }
        let mut solver = Solver::new();
        let mut asserted = 0;
        for i in todo {
            while asserted < i {
                let e = solver.condition(&self.nodes, path[asserted].0, path[asserted].1);
                solver.assert(e);
                asserted += 1;
            }
            let e = solver.condition(&self.nodes, path[i].0, !path[i].1);
            self.queries += 1;
            match solver.check_with(e) {
                Some(Some(values)) => {
                    let mut next: Vec<Input> = inputs.iter().copied().filter(|x| !values.iter().any(|v| v.0 == x.thread && v.1 == x.ordinal)).collect();
                    next.extend(values.iter().map(|&(thread, ordinal, value)| Input { thread, ordinal, value }));
                    next.sort();
                    if self.seen.len() >= MAX_INPUT_VECTORS {
                        self.reason(format!("more than {MAX_INPUT_VECTORS} combinations of nondet values would be needed"));
                        return;
                    }
                    if next.len() > channel::MAX_INPUTS {
                        self.reason(format!("more than {} nondet values in one execution", channel::MAX_INPUTS));
                        continue;
                    }
                    if self.seen.insert(next.clone()) {
                        self.queue.push_back(next);
                    }
                }
                Some(None) => {} // the other side is infeasible
                None => self.reason("the solver could not decide a path condition".into()),
            }
        }
    }

    fn intern(&mut self, node: Node) -> u32 {
        if let Some(&id) = self.canon.get(&node) {
            return id;
        }
        let id = self.nodes.len() as u32 + 1;
        self.nodes.push(node);
        self.canon.insert(node, id);
        id
    }
}

/// Hand an input vector to the runtime.
pub fn set_inputs(s: &mut Shm, inputs: &[Input]) {
    let n = inputs.len().min(channel::MAX_INPUTS);
    s.inputs[..n].copy_from_slice(&inputs[..n]);
    s.n_inputs = n as u32;
}

/// One Z3 context and solver (for the queries of one execution).
struct Solver {
    ctx: z3::Z3_context,
    solver: z3::Z3_solver,
    asts: HashMap<u32, z3::Z3_ast>,
    vars: HashMap<(u32, u32), (u32, z3::Z3_ast)>,
}

impl Solver {
    fn new() -> Solver {
        unsafe {
            let cfg = z3::Z3_mk_config();
            let k = CString::new("timeout").unwrap();
            let v = CString::new("10000").unwrap();
            z3::Z3_set_param_value(cfg, k.as_ptr(), v.as_ptr());
            let ctx = z3::Z3_mk_context(cfg);
            z3::Z3_del_config(cfg);
            let solver = z3::Z3_mk_solver(ctx);
            z3::Z3_solver_inc_ref(ctx, solver);
            Solver { ctx, solver, asts: HashMap::new(), vars: HashMap::new() }
        }
    }

    fn assert(&mut self, e: z3::Z3_ast) {
        unsafe { z3::Z3_solver_assert(self.ctx, self.solver, e) }
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

    /// Values for the variables that satisfy what is asserted and `e`:
    /// Some(Some(values)), Some(None) when unsatisfiable, None when the
    /// solver gave up.
    fn check_with(&mut self, e: z3::Z3_ast) -> Option<Option<Vec<(u32, u32, u64)>>> {
        unsafe {
            z3::Z3_solver_push(self.ctx, self.solver);
            z3::Z3_solver_assert(self.ctx, self.solver, e);
            let r = z3::Z3_solver_check(self.ctx, self.solver);
            let out = if r == z3::L_TRUE {
                let m = z3::Z3_solver_get_model(self.ctx, self.solver);
                z3::Z3_model_inc_ref(self.ctx, m);
                let mut values = vec![];
                let mut ok = true;
                for (&(thread, ordinal), &(_, var)) in &self.vars {
                    let mut v: z3::Z3_ast = std::ptr::null_mut();
                    let mut u = 0u64;
                    if z3::Z3_model_eval(self.ctx, m, var, true, &mut v) && z3::Z3_get_numeral_uint64(self.ctx, v, &mut u) {
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
            };
            z3::Z3_solver_pop(self.ctx, self.solver, 1);
            out
        }
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
                    self.vars.insert((thread, ordinal), (n.bits as u32, v));
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
        unsafe {
            z3::Z3_solver_dec_ref(self.ctx, self.solver);
            z3::Z3_del_context(self.ctx);
        }
    }
}
