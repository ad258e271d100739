//! Loops: find the natural loops of a function, count their iterations per
//! entry (for `--unroll`), and mark the await candidates, loops whose
//! iterations tell the runtime whenever they change the thread's local state
//! behind its back, so the runtime may block a thread whose iteration only
//! read until what it read changes (the soundness argument is in
//! runtime/src/await.c).
//!
//! Runs before the memory operations are rewritten: the candidate test looks
//! at the program's own instructions.

use crate::escape::Escapes;
use crate::ir::{self, block_instructions, blocks, Value};
use crate::redirect::{self, HARMLESS_EXTERNALS};
use crate::locations::{LocTable, SiteOp};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMOpcode as Op;
use std::collections::{HashMap, HashSet};

type Block = LLVMBasicBlockRef;

struct Loop {
    header: Block,
    /// blocks with an edge back to the header
    latches: Vec<Block>,
    body: HashSet<Block>,
}

fn successors(b: Block) -> Vec<Block> {
    unsafe {
        let t = LLVMGetBasicBlockTerminator(b);
        if t.is_null() {
            return vec![];
        }
        (0..LLVMGetNumSuccessors(t)).map(|i| LLVMGetSuccessor(t, i)).collect()
    }
}

/// Immediate dominators over the reachable blocks (Cooper, Harvey and
/// Kennedy's iterative algorithm on reverse postorder).
fn dominators(bs: &[Block]) -> (HashMap<Block, usize>, Vec<usize>) {
    // reverse postorder from the entry
    let mut order = vec![];
    let mut seen = HashSet::new();
    let mut stack = vec![(bs[0], 0usize)];
    seen.insert(bs[0]);
    while let Some((b, i)) = stack.pop() {
        let succ = successors(b);
        if i < succ.len() {
            stack.push((b, i + 1));
            if seen.insert(succ[i]) {
                stack.push((succ[i], 0));
            }
        } else {
            order.push(b);
        }
    }
    order.reverse();
    let index: HashMap<Block, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut preds: Vec<Vec<usize>> = vec![vec![]; order.len()];
    for (i, &b) in order.iter().enumerate() {
        for s in successors(b) {
            if let Some(&j) = index.get(&s) {
                preds[j].push(i);
            }
        }
    }
    const NONE: usize = usize::MAX;
    let mut idom = vec![NONE; order.len()];
    idom[0] = 0;
    let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while a > b {
                a = idom[a];
            }
            while b > a {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for i in 1..order.len() {
            let mut new = NONE;
            for &p in &preds[i] {
                if idom[p] != NONE {
                    new = if new == NONE { p } else { intersect(&idom, p, new) };
                }
            }
            if new != idom[i] {
                idom[i] = new;
                changed = true;
            }
        }
    }
    (index, idom)
}

fn natural_loops(f: Value) -> Vec<Loop> {
    let bs = blocks(f);
    if bs.is_empty() {
        return vec![];
    }
    let (index, idom) = dominators(&bs);
    let dominates = |h: usize, mut b: usize| loop {
        if b == h {
            return true;
        }
        if b == 0 {
            return false;
        }
        b = idom[b];
    };
    let mut loops: Vec<Loop> = vec![];
    for &b in &bs {
        let Some(&bi) = index.get(&b) else { continue };
        for s in successors(b) {
            let Some(&si) = index.get(&s) else { continue };
            if !dominates(si, bi) {
                continue;
            }
            match loops.iter_mut().find(|l| l.header == s) {
                Some(l) => l.latches.push(b),
                None => loops.push(Loop { header: s, latches: vec![b], body: HashSet::new() }),
            }
        }
    }
    // body: the header plus every block that reaches a latch without it
    let mut preds: HashMap<Block, Vec<Block>> = HashMap::new();
    for &b in &bs {
        for s in successors(b) {
            preds.entry(s).or_default().push(b);
        }
    }
    for l in &mut loops {
        l.body.insert(l.header);
        let mut work: Vec<Block> = l.latches.clone();
        while let Some(b) = work.pop() {
            if l.body.insert(b) {
                work.extend(preds.get(&b).into_iter().flatten().copied());
            }
        }
    }
    loops
}

/// Calls an await iteration may make. Redirected calls run in the runtime,
/// which sees every effect they have; defined functions have their own
/// frames (their private locals die at return) and their shared accesses are
/// instrumented like the loop's.
fn allowed_in_await(f: Value) -> bool {
    let name = ir::name(f);
    // (not a defined `__tsoify_*` function: the pass leaves those native,
    // e.g. an export's own buffer code, so the runtime would not see them)
    (!ir::is_declaration(f) && !name.starts_with("__tsoify"))
        || redirect::redirect_of(&name).is_some()
        || HARMLESS_EXTERNALS.contains(&name.as_str())
        || name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.expect")
        || name == "llvm.assume"
        || name == "llvm.donothing"
}

/// What one iteration of a loop may do that the runtime does not see.
#[derive(PartialEq)]
enum Unseen {
    /// nothing: an iteration the runtime saw only read is a no-op if what
    /// it read is unchanged
    Nothing,
    /// these instructions (a store to a private local, an alloca, a call
    /// the runtime cannot follow): the pass tells the runtime when one runs
    /// (`__tsoify_await_spoil`), so only an iteration that ran none may block
    At(Vec<Value>),
    /// control or state the pass cannot account for: never block
    Anything,
}

/// Can one iteration of `l` change the thread's local state in a way the
/// runtime does not see, and where? Shared stores, sync calls and nondet
/// values are not such changes: the runtime sees them, and an iteration
/// that makes one is simply not blocked. A spin loop whose other path
/// writes a private array (sv-benchmarks ring_2w1r: `if (empty) continue;
/// ... ++read[val - 1]`) still blocks on the path that only spins.
fn unseen_changes(l: &Loop, esc: &mut Escapes) -> Unseen {
    let mut at = vec![];
    for &b in &l.body {
        for i in block_instructions(b) {
            let unseen = match ir::opcode(i) {
                // a value carried from one iteration to the next: allowed when
                // it can be compared, so the latch can tell the runtime whether
                // the iteration changed it (see carried_phis)
                Some(Op::LLVMPHI) if b == l.header && !comparable(i) => return Unseen::Anything,
                Some(Op::LLVMInvoke | Op::LLVMCallBr | Op::LLVMRet) => return Unseen::Anything,
                Some(Op::LLVMIndirectBr | Op::LLVMResume | Op::LLVMLandingPad) => return Unseen::Anything,
                // a write the runtime would not see
                Some(Op::LLVMStore) => esc.is_private(ir::operand(i, 1)),
                Some(Op::LLVMAlloca | Op::LLVMVAArg) => true,
                Some(Op::LLVMCall) => ir::is_inline_asm_call(i) || !ir::called_function(i).is_some_and(allowed_in_await),
                _ => false,
            };
            if unseen {
                at.push(i);
            }
        }
    }
    if at.is_empty() {
        Unseen::Nothing
    } else {
        Unseen::At(at)
    }
}

/// An integer or pointer value: `icmp ne` tells whether it changed.
fn comparable(v: Value) -> bool {
    unsafe {
        matches!(LLVMGetTypeKind(LLVMTypeOf(v)), llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind | llvm_sys::LLVMTypeKind::LLVMPointerTypeKind)
    }
}

/// The header phis of a candidate: the local state one iteration hands to
/// the next (after SROA, the program's locals). An iteration that changes
/// one is not a no-op even if every shared value it read is unchanged, so
/// each latch reports whether its incoming values differ from the phis'
/// current ones (`__tsoify_await_carried`); only an iteration that changed
/// none may block. The next iteration then starts from the same local state
/// and reads the same values: it repeats this one.
fn carried_phis(header: Block) -> Vec<Value> {
    block_instructions(header).into_iter().take_while(|&i| ir::opcode(i) == Some(Op::LLVMPHI)).collect()
}

/// What the loop instrumentation needs from the pass.
pub struct LoopRuntime {
    pub begin: (LLVMTypeRef, Value),
    pub back: (LLVMTypeRef, Value),
    pub carried: (LLVMTypeRef, Value),
    pub spoil: (LLVMTypeRef, Value),
}

/// Instrument the loops of `f`: a per-entry iteration counter checked at
/// every back edge, and the await hooks for candidates. Returns the number
/// of await candidates.
pub fn instrument(f: Value, b: LLVMBuilderRef, ctx: LLVMContextRef, rt: &LoopRuntime, locs: &mut LocTable) -> usize {
    let loops = natural_loops(f);
    let mut esc = Escapes::default();
    // decided before anything is inserted: the hooks of one loop must not
    // make an enclosing loop look as if it changed local state
    let unseen: Vec<Unseen> = loops.iter().map(|l| unseen_changes(l, &mut esc)).collect();
    let candidates: Vec<bool> = unseen.iter().map(|u| *u != Unseen::Anything).collect();
    let mut spoilers: Vec<Value> = unseen.into_iter().flat_map(|u| if let Unseen::At(at) = u { at } else { vec![] }).collect();
    spoilers.sort_unstable();
    spoilers.dedup();
    let mut awaits = 0;
    unsafe {
        // (an instruction of nested loops spoils whichever iteration runs it)
        for &i in &spoilers {
            LLVMPositionBuilderBefore(b, i);
            LLVMBuildCall2(b, rt.spoil.0, rt.spoil.1, std::ptr::null_mut(), 0, c"".as_ptr());
        }
        let i1 = LLVMInt1TypeInContext(ctx);
        let i32 = LLVMInt32TypeInContext(ctx);
        let i64 = LLVMInt64TypeInContext(ctx);
        for (l, &is_await) in loops.iter().zip(&candidates) {
            // the counter: a private local, so the rewrite leaves it native
            LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)));
            let counter = LLVMBuildAlloca(b, i64, c"tsoify.iterations".as_ptr());
            let zero = LLVMConstInt(i64, 0, 0);
            let mut entries: Vec<Block> = vec![];
            for p in blocks(f) {
                if !l.body.contains(&p) && successors(p).contains(&l.header) && !entries.contains(&p) {
                    entries.push(p);
                }
            }
            for p in entries {
                LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(p));
                LLVMBuildStore(b, zero, counter);
            }
            // the header's first instruction after its phis
            let header_phis = carried_phis(l.header);
            let first = header_phis.last().map_or_else(|| LLVMGetFirstInstruction(l.header), |&p| LLVMGetNextInstruction(p));
            let loc = locs.add(first, SiteOp::Loop, None);
            let phis = if is_await { header_phis } else { vec![] };
            // the iteration's generation: the back edge hands it back, so the
            // runtime knows the reads it recorded since are this iteration's
            // (not those of a nested loop or a recursive call's)
            let generation = if is_await {
                LLVMPositionBuilderBefore(b, first);
                let mut args = [LLVMConstInt(i32, loc as u64, 0)];
                awaits += 1;
                LLVMBuildCall2(b, rt.begin.0, rt.begin.1, args.as_mut_ptr(), 1, c"".as_ptr())
            } else {
                LLVMConstInt(i64, 0, 0)
            };
            let mut latches = l.latches.clone();
            latches.dedup();
            for latch in latches {
                let term = LLVMGetBasicBlockTerminator(latch);
                LLVMPositionBuilderBefore(b, term);
                // is the edge to the header taken? (the call sits before the branch)
                let taken = match ir::opcode(term) {
                    Some(Op::LLVMBr) if LLVMIsConditional(term) == 0 => LLVMConstInt(i1, 1, 0),
                    Some(Op::LLVMBr) => {
                        let cond = LLVMGetCondition(term);
                        let (t, e) = (LLVMGetSuccessor(term, 0), LLVMGetSuccessor(term, 1));
                        if t == l.header && e == l.header {
                            LLVMConstInt(i1, 1, 0)
                        } else if t == l.header {
                            cond
                        } else {
                            LLVMBuildNot(b, cond, c"".as_ptr())
                        }
                    }
                    // a switch or other branch back: not counted
                    _ => continue,
                };
                let n = LLVMBuildLoad2(b, i64, counter, c"".as_ptr());
                let step = LLVMBuildZExt(b, taken, i64, c"".as_ptr());
                let n1 = LLVMBuildAdd(b, n, step, c"".as_ptr());
                LLVMBuildStore(b, n1, counter);
                let taken32 = LLVMBuildZExt(b, taken, i32, c"".as_ptr());
                if !phis.is_empty() {
                    // did this iteration change the state it hands on?
                    let mut changed = LLVMConstInt(i1, 0, 0);
                    for &phi in &phis {
                        let incoming = (0..LLVMCountIncoming(phi)).find(|&k| LLVMGetIncomingBlock(phi, k) == latch).map(|k| LLVMGetIncomingValue(phi, k));
                        // (a latch is a predecessor, so it has an incoming
                        // value; without one, count the phi as changed)
                        let ne = match incoming {
                            Some(v) => LLVMBuildICmp(b, llvm_sys::LLVMIntPredicate::LLVMIntNE, v, phi, c"".as_ptr()),
                            None => LLVMConstInt(i1, 1, 0),
                        };
                        changed = LLVMBuildOr(b, changed, ne, c"".as_ptr());
                    }
                    let changed32 = LLVMBuildZExt(b, changed, i32, c"".as_ptr());
                    let mut cargs = [changed32, generation];
                    LLVMBuildCall2(b, rt.carried.0, rt.carried.1, cargs.as_mut_ptr(), 2, c"".as_ptr());
                }
                let mut args = [LLVMConstInt(i32, loc as u64, 0), n1, taken32, generation];
                LLVMBuildCall2(b, rt.back.0, rt.back.1, args.as_mut_ptr(), 4, c"".as_ptr());
            }
        }
    }
    awaits
}
