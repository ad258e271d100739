//! Concolic tracking of wide `__VERIFIER_nondet_*` values (runtime/src/sym.c,
//! runtime/ABI.md "Nondet values").
//!
//! Only in a module that calls a nondet function wider than 8 bits (the
//! others are enumerated), and there only the integer instructions that may
//! depend on such a value: a forward dataflow from the nondet calls, from
//! integer loads of memory the runtime sees (memory may hold one), from
//! integer parameters and from results of the program's functions, through
//! arithmetic, comparisons, casts, selects and phis, and into `float` and
//! `double` by exact conversions from integers (`sitofp`, `uitofp`), whose
//! comparisons (`fcmp`) the runtime turns into integer comparisons of the
//! converted value; loads of floats may hold such a value too. Each of those
//! gets a runtime call after it that builds its expression node and returns
//! the node's id (an `i32`, 0 = concrete), which travels beside the value:
//! the id of an operand is the id its instruction got, and a phi gets a
//! phi of ids. Branches and assumes on such a value report the path
//! condition; stores report the value stored (the runtime keeps a shadow of
//! memory). Calls of program functions pass the ids of their integer
//! arguments and result through per-thread slots in the runtime (checked
//! against the callee's address). An address or array index built from
//! such a value is pinned (the runtime branches on each of its bits, so
//! every feasible value is a path), and a switch on one is a branch per
//! case. Every other use of such a value (an argument of a library
//! function, floating-point arithmetic, a store to a local the runtime does
//! not see) reports the
//! value as lost: when its id is not 0 at run time, the execution is
//! "untracked" and `verify` will not answer SAFE.

use crate::escape::Escapes;
use crate::ir::{self, Value};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMGetModuleDataLayout, LLVMStoreSizeOfType};
use llvm_sys::LLVMOpcode as Op;
use llvm_sys::LLVMTypeKind;
use std::collections::{HashMap, HashSet};

/// The nondet functions whose values are tracked (more than 8 bits; the
/// pointer one stays sampled).
pub const WIDE_NONDET: &[&str] = &[
    "__VERIFIER_nondet_short",
    "__VERIFIER_nondet_ushort",
    "__VERIFIER_nondet_int",
    "__VERIFIER_nondet_uint",
    "__VERIFIER_nondet_long",
    "__VERIFIER_nondet_ulong",
    "__VERIFIER_nondet_longlong",
    "__VERIFIER_nondet_ulonglong",
];

// runtime/src/sym.c: what a lost value went to
const LOST_CALL: u32 = 1;
const LOST_RETURN: u32 = 2;
const LOST_SWITCH: u32 = 3;
const LOST_ADDRESS: u32 = 4;
const LOST_LOCAL_STORE: u32 = 5;
const LOST_OTHER: u32 = 6;
const LOST_WIDE: u32 = 7;
const LOST_FLOAT: u32 = 8;
const LOST_ATOMIC: u32 = 9;

// LLVMIntPredicate::LLVMIntEQ, as __tsoify_sym_icmp takes it
const ICMP_EQ: u32 = 32;

// enum tsoify_sym_op (tsoify_channel.h)
const SYM_ADD: u32 = 3;
const SYM_SUB: u32 = 4;
const SYM_MUL: u32 = 5;
const SYM_UDIV: u32 = 6;
const SYM_SDIV: u32 = 7;
const SYM_UREM: u32 = 8;
const SYM_SREM: u32 = 9;
const SYM_AND: u32 = 10;
const SYM_OR: u32 = 11;
const SYM_XOR: u32 = 12;
const SYM_SHL: u32 = 13;
const SYM_LSHR: u32 = 14;
const SYM_ASHR: u32 = 15;
const SYM_ZEXT: u32 = 17;
const SYM_SEXT: u32 = 18;
const SYM_TRUNC: u32 = 19;

type Fun = (LLVMTypeRef, Value);

pub struct Sym {
    i32: LLVMTypeRef,
    i64: LLVMTypeRef,
    result: Fun,
    binop: Fun,
    icmp: Fun,
    cast: Fun,
    select: Fun,
    itofp: Fun,
    fcmp: Fun,
    branch: Fun,
    assume: Fun,
    lost: Fun,
    pin: Fun,
    store: Fun,
    claim: Fun,
    load: Fun,
    call: Fun,
    arg: Fun,
    called: Fun,
    param: Fun,
    entered: Fun,
    ret: Fun,
    retval: Fun,
}

/// Does the module call a wide nondet function?
pub fn module_uses_wide_nondet(m: LLVMModuleRef) -> bool {
    ir::functions(m).into_iter().any(|f| WIDE_NONDET.contains(&ir::name(f).as_str()) && !ir::users(f).is_empty())
}

fn declare(m: LLVMModuleRef, name: &str, ret: LLVMTypeRef, params: &[LLVMTypeRef]) -> Fun {
    let mut p = params.to_vec();
    unsafe {
        let ty = LLVMFunctionType(ret, p.as_mut_ptr(), p.len() as u32, 0);
        let n = ir::cstr(name);
        let mut f = LLVMGetNamedFunction(m, n.as_ptr());
        if f.is_null() {
            f = LLVMAddFunction(m, n.as_ptr(), ty);
        }
        (ty, f)
    }
}

/// Declare the runtime's entry points, and tell the runtime (a constant
/// `__tsoify_concolic` = 1) that this program reports its nondet values.
pub fn prepare(ctx: LLVMContextRef, m: LLVMModuleRef) -> Sym {
    unsafe {
        let i32t = LLVMInt32TypeInContext(ctx);
        let i64t = LLVMInt64TypeInContext(ctx);
        let v = LLVMVoidTypeInContext(ctx);
        let p = LLVMPointerTypeInContext(ctx, 0);
        let g = LLVMAddGlobal(m, i32t, c"__tsoify_concolic".as_ptr());
        LLVMSetInitializer(g, LLVMConstInt(i32t, 1, 0));
        LLVMSetGlobalConstant(g, 1);
        Sym {
            i32: i32t,
            i64: i64t,
            result: declare(m, "__tsoify_sym_result", i32t, &[i64t, i32t]),
            binop: declare(m, "__tsoify_sym_binop", i32t, &[i32t, i32t, i32t, i64t, i32t, i64t]),
            icmp: declare(m, "__tsoify_sym_icmp", i32t, &[i32t, i32t, i32t, i64t, i32t, i64t]),
            cast: declare(m, "__tsoify_sym_cast", i32t, &[i32t, i32t, i32t, i32t, i64t]),
            select: declare(m, "__tsoify_sym_select", i32t, &[i32t, i32t, i64t, i32t, i64t, i32t, i64t]),
            itofp: declare(m, "__tsoify_sym_itofp", i32t, &[i32t, i32t, i32t, i32t, i64t, i64t]),
            fcmp: declare(m, "__tsoify_sym_fcmp", i32t, &[i32t, i32t, i32t, i64t, i32t, i64t]),
            branch: declare(m, "__tsoify_sym_branch", v, &[i32t, i64t, i32t]),
            assume: declare(m, "__tsoify_sym_assume", v, &[i32t, i64t, i32t]),
            lost: declare(m, "__tsoify_sym_lost", v, &[i32t, i32t, i32t]),
            pin: declare(m, "__tsoify_sym_pin", v, &[i32t, i64t, i32t]),
            store: declare(m, "__tsoify_sym_store", v, &[p, i64t, i32t, i64t, i32t]),
            claim: declare(m, "__tsoify_sym_claim", v, &[p]),
            load: declare(m, "__tsoify_sym_load", i32t, &[p, i64t, i64t, i32t]),
            call: declare(m, "__tsoify_sym_call", v, &[p]),
            arg: declare(m, "__tsoify_sym_arg", v, &[i32t, i32t, i64t, i32t]),
            called: declare(m, "__tsoify_sym_called", v, &[]),
            param: declare(m, "__tsoify_sym_param", i32t, &[p, i32t, i64t, i32t]),
            entered: declare(m, "__tsoify_sym_entered", v, &[p]),
            ret: declare(m, "__tsoify_sym_return", v, &[p, i32t, i64t, i32t]),
            retval: declare(m, "__tsoify_sym_retval", i32t, &[p, i64t, i32t]),
        }
    }
}

/// The width of an integer (not vector) value.
fn int_bits(v: Value) -> Option<u32> {
    unsafe {
        let t = LLVMTypeOf(v);
        (LLVMGetTypeKind(t) == LLVMTypeKind::LLVMIntegerTypeKind).then(|| LLVMGetIntTypeWidth(t))
    }
}

/// The width of the bits the runtime is handed for a value: an integer's,
/// 32 for a `float`, 64 for a `double` (other types are not followed).
fn shadow_bits(v: Value) -> Option<u32> {
    unsafe {
        match LLVMGetTypeKind(LLVMTypeOf(v)) {
            LLVMTypeKind::LLVMFloatTypeKind => Some(32),
            LLVMTypeKind::LLVMDoubleTypeKind => Some(64),
            _ => int_bits(v),
        }
    }
}

/// A value whose bits the runtime can be handed (an integer of at most 64
/// bits, a float or a double).
fn tracked_width(v: Value) -> bool {
    shadow_bits(v).is_some_and(|w| w <= 64)
}

fn callee_name(i: Value) -> String {
    ir::called_function(i).map(ir::name).unwrap_or_default()
}

/// A call whose callee may be a function of the program (instrumented):
/// a defined one, or one through a pointer.
fn calls_program_code(i: Value) -> bool {
    if ir::is_inline_asm_call(i) {
        return false;
    }
    match ir::called_function(i) {
        Some(f) => {
            let name = ir::name(f);
            !ir::is_declaration(f) && !name.starts_with("__tsoify_") && !name.starts_with("llvm.")
        }
        None => true,
    }
}

/// A call that only writes text (printf and friends) and whose result is
/// unused: what it prints of a nondet value changes nothing the program
/// sees, so the value needs no pin there. Not with a `%n` conversion (it
/// stores how much was printed, which depends on the value) or a format
/// that is not a constant string.
fn prints_only(i: Value, name: &str, args: &[Value]) -> bool {
    let format_at = match name {
        "printf" => Some(0),
        "fprintf" => Some(1),
        "puts" | "fputs" | "putchar" | "fputc" | "perror" => None,
        _ => return false,
    };
    if unsafe { !LLVMGetFirstUse(i).is_null() } {
        return false; // the count printed depends on the value
    }
    match format_at {
        None => true,
        Some(k) => args.get(k).and_then(|&f| ir::const_string(f)).is_some_and(|f| !stores_count(&f)),
    }
}

/// Has printf format `f` a `%n` conversion?
fn stores_count(f: &[u8]) -> bool {
    let mut k = 0;
    while k < f.len() {
        if f[k] != b'%' {
            k += 1;
            continue;
        }
        k += 1;
        while k < f.len() && b"-+ #0123456789.*$'hlLqjzt".contains(&f[k]) {
            k += 1;
        }
        if k < f.len() && f[k] == b'n' {
            return true;
        }
        k += 1;
    }
    false
}

/// The called value of a call (its last operand).
fn called_value(i: Value) -> Value {
    unsafe { LLVMGetCalledValue(i) }
}

fn sym_op(op: Op) -> Option<u32> {
    Some(match op {
        Op::LLVMAdd => SYM_ADD,
        Op::LLVMSub => SYM_SUB,
        Op::LLVMMul => SYM_MUL,
        Op::LLVMUDiv => SYM_UDIV,
        Op::LLVMSDiv => SYM_SDIV,
        Op::LLVMURem => SYM_UREM,
        Op::LLVMSRem => SYM_SREM,
        Op::LLVMAnd => SYM_AND,
        Op::LLVMOr => SYM_OR,
        Op::LLVMXor => SYM_XOR,
        Op::LLVMShl => SYM_SHL,
        Op::LLVMLShr => SYM_LSHR,
        Op::LLVMAShr => SYM_ASHR,
        _ => return None,
    })
}

/// Instructions whose result is tracked when an operand is.
fn propagates(op: Op) -> bool {
    sym_op(op).is_some()
        || matches!(
            op,
            Op::LLVMICmp
                | Op::LLVMZExt
                | Op::LLVMSExt
                | Op::LLVMTrunc
                | Op::LLVMSelect
                | Op::LLVMPHI
                | Op::LLVMFreeze
                | Op::LLVMSIToFP
                | Op::LLVMUIToFP
                | Op::LLVMFCmp
        )
}

struct Builder<'s> {
    b: LLVMBuilderRef,
    sym: &'s Sym,
}

impl Builder<'_> {
    fn c32(&self, v: u32) -> Value {
        unsafe { LLVMConstInt(self.sym.i32, v as u64, 0) }
    }
    /// `v`'s bits as an i64 (a float's bits, zero-extended).
    fn wide(&self, v: Value) -> Value {
        unsafe {
            let v = match LLVMGetTypeKind(LLVMTypeOf(v)) {
                LLVMTypeKind::LLVMFloatTypeKind => LLVMBuildBitCast(self.b, v, self.sym.i32, c"".as_ptr()),
                _ => v,
            };
            LLVMBuildZExtOrBitCast(self.b, v, self.sym.i64, c"".as_ptr())
        }
    }
    fn call(&self, f: Fun, args: &[Value]) -> Value {
        let mut a = args.to_vec();
        unsafe { LLVMBuildCall2(self.b, f.0, f.1, a.as_mut_ptr(), a.len() as u32, c"".as_ptr()) }
    }
    fn before(&self, i: Value) {
        unsafe { LLVMPositionBuilderBefore(self.b, first_non_phi_from(i)) }
    }
    fn after(&self, i: Value) {
        unsafe { LLVMPositionBuilderBefore(self.b, first_non_phi_from(LLVMGetNextInstruction(i))) }
    }
}

/// `i`, or the first instruction after the phis when `i` is a phi.
fn first_non_phi_from(mut i: Value) -> Value {
    unsafe {
        while !LLVMIsAPHINode(i).is_null() {
            i = LLVMGetNextInstruction(i);
        }
    }
    i
}

/// Instrument function `f` (after the loop pass, before the memory rewrite).
pub fn instrument(m: LLVMModuleRef, f: Value, b: LLVMBuilderRef, sym: &Sym) {
    let insts = ir::instructions(f);
    let td = unsafe { LLVMGetModuleDataLayout(m) };
    let size_of = |v: Value| unsafe { LLVMStoreSizeOfType(td, LLVMTypeOf(v)) };
    let is_main = ir::name(f) == "main";
    let mut esc = Escapes::default();
    // may depend on a wide nondet value
    let mut s: HashSet<Value> = HashSet::new();
    let params: Vec<Value> = (0..unsafe { LLVMCountParams(f) }).map(|k| unsafe { LLVMGetParam(f, k) }).collect();
    for &p in &params {
        if tracked_width(p) && !is_main {
            s.insert(p);
        }
    }
    for &i in &insts {
        match ir::opcode(i) {
            Some(Op::LLVMCall) if WIDE_NONDET.contains(&callee_name(i).as_str()) && tracked_width(i) => {
                s.insert(i);
            }
            Some(Op::LLVMCall) if calls_program_code(i) && tracked_width(i) => {
                s.insert(i);
            }
            Some(Op::LLVMLoad) if tracked_width(i) && !esc.is_private(ir::operand(i, 0)) => {
                s.insert(i);
            }
            _ => {}
        }
    }
    let operands = |i: Value| -> Vec<Value> { (0..unsafe { LLVMGetNumOperands(i) } as u32).map(|k| ir::operand(i, k)).collect() };
    loop {
        let mut changed = false;
        for &i in &insts {
            if s.contains(&i) || !ir::opcode(i).is_some_and(propagates) || !tracked_width(i) {
                continue;
            }
            let ops = operands(i);
            if ops.iter().any(|o| s.contains(o)) && ops.iter().all(|&o| !s.contains(&o) || tracked_width(o)) {
                s.insert(i);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if s.is_empty() {
        return;
    }
    let bl = Builder { b, sym };
    let zero = bl.c32(0);
    let mut ids: HashMap<Value, Value> = HashMap::new();
    let mut fixups: Vec<(Value, u32, Value)> = vec![];
    let mut phis: Vec<(Value, Value)> = vec![];
    let width = |v: Value| shadow_bits(v).unwrap_or(0);
    // the parameters' ids, at the entry
    let tracked_params: Vec<(u32, Value)> = params.iter().enumerate().filter(|(_, p)| s.contains(p)).map(|(k, &p)| (k as u32, p)).collect();
    if !tracked_params.is_empty() {
        unsafe {
            let entry = LLVMGetEntryBasicBlock(f);
            LLVMPositionBuilderBefore(b, first_non_phi_from(LLVMGetFirstInstruction(entry)));
        }
        for &(k, p) in &tracked_params {
            let w = bl.wide(p);
            let id = bl.call(sym.param, &[f, bl.c32(k), w, bl.c32(width(p))]);
            ids.insert(p, id);
        }
        bl.call(sym.entered, &[f]);
    }
    // the id of each tracked value
    for &i in insts.iter().filter(|i| s.contains(i)) {
        let op = ir::opcode(i).unwrap();
        // an operand's id, filled in once every id exists
        let mut pending: Vec<(u32, Value)> = vec![];
        let mut id_of = |slot: u32, v: Value| -> Value {
            if s.contains(&v) {
                pending.push((slot, v));
            }
            zero
        };
        let id = match op {
            Op::LLVMPHI => unsafe {
                let bb = LLVMGetInstructionParent(i);
                LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(bb));
                let p = LLVMBuildPhi(b, sym.i32, c"".as_ptr());
                phis.push((i, p));
                p
            },
            Op::LLVMCall if WIDE_NONDET.contains(&callee_name(i).as_str()) => {
                bl.after(i);
                let w = bl.wide(i);
                bl.call(sym.result, &[w, bl.c32(width(i))])
            }
            Op::LLVMCall => {
                // a program function's result
                bl.after(i);
                let w = bl.wide(i);
                bl.call(sym.retval, &[called_value(i), w, bl.c32(width(i))])
            }
            Op::LLVMLoad => {
                let ptr = ir::operand(i, 0);
                bl.before(i);
                bl.call(sym.claim, &[ptr]);
                bl.after(i);
                let w = bl.wide(i);
                bl.call(sym.load, &[ptr, unsafe { LLVMConstInt(sym.i64, size_of(i), 0) }, w, bl.c32(width(i))])
            }
            Op::LLVMICmp => {
                let (a, c) = (ir::operand(i, 0), ir::operand(i, 1));
                bl.after(i);
                let pred = unsafe { LLVMGetICmpPredicate(i) } as u32;
                let (wa, wc) = (bl.wide(a), bl.wide(c));
                let (ia, ic) = (id_of(2, a), id_of(4, c));
                bl.call(sym.icmp, &[bl.c32(pred), bl.c32(width(a)), ia, wa, ic, wc])
            }
            Op::LLVMZExt | Op::LLVMSExt | Op::LLVMTrunc | Op::LLVMFreeze => {
                let a = ir::operand(i, 0);
                bl.after(i);
                let kind = match op {
                    Op::LLVMSExt => SYM_SEXT,
                    Op::LLVMTrunc => SYM_TRUNC,
                    _ => SYM_ZEXT, // freeze of a defined value: itself
                };
                let wa = bl.wide(a);
                let ia = id_of(3, a);
                bl.call(sym.cast, &[bl.c32(kind), bl.c32(width(i)), bl.c32(width(a)), ia, wa])
            }
            Op::LLVMSIToFP | Op::LLVMUIToFP => {
                // the runtime keeps the integer: comparisons of the float
                // become comparisons of it (exact conversions only)
                let a = ir::operand(i, 0);
                bl.after(i);
                let signed = (op == Op::LLVMSIToFP) as u32;
                let (wa, wi) = (bl.wide(a), bl.wide(i));
                let ia = id_of(3, a);
                bl.call(sym.itofp, &[bl.c32(signed), bl.c32(width(i)), bl.c32(width(a)), ia, wa, wi])
            }
            Op::LLVMFCmp => {
                let (a, c) = (ir::operand(i, 0), ir::operand(i, 1));
                bl.after(i);
                let pred = unsafe { LLVMGetFCmpPredicate(i) } as u32;
                let (wa, wc) = (bl.wide(a), bl.wide(c));
                let (ia, ic) = (id_of(2, a), id_of(4, c));
                bl.call(sym.fcmp, &[bl.c32(pred), bl.c32(width(a)), ia, wa, ic, wc])
            }
            Op::LLVMSelect => {
                let (c, x, y) = (ir::operand(i, 0), ir::operand(i, 1), ir::operand(i, 2));
                bl.after(i);
                let (wc, wx, wy) = (bl.wide(c), bl.wide(x), bl.wide(y));
                let (ic, ix, iy) = (id_of(1, c), id_of(3, x), id_of(5, y));
                bl.call(sym.select, &[bl.c32(width(i)), ic, wc, ix, wx, iy, wy])
            }
            _ => {
                let (a, c) = (ir::operand(i, 0), ir::operand(i, 1));
                bl.after(i);
                let (wa, wc) = (bl.wide(a), bl.wide(c));
                let (ia, ic) = (id_of(2, a), id_of(4, c));
                bl.call(sym.binop, &[bl.c32(sym_op(op).unwrap()), bl.c32(width(i)), ia, wa, ic, wc])
            }
        };
        for (slot, v) in pending {
            fixups.push((id, slot, v));
        }
        ids.insert(i, id);
    }
    unsafe {
        for (call, slot, v) in fixups {
            LLVMSetOperand(call, slot, ids[&v]);
        }
        for (i, p) in phis {
            for k in 0..LLVMCountIncoming(i) {
                let mut v = ids.get(&LLVMGetIncomingValue(i, k)).copied().unwrap_or(zero);
                let mut bb = LLVMGetIncomingBlock(i, k);
                LLVMAddIncoming(p, &mut v, &mut bb, 1);
            }
        }
    }
    // the uses of tracked values that are not tracked operations
    let line = |i: Value| ir::debug_loc(i).1;
    for &i in &insts {
        let Some(op) = ir::opcode(i) else { continue };
        if s.contains(&i) && op != Op::LLVMCall {
            continue; // (a call's arguments are uses even when its result is tracked)
        }
        let lost = |v: Value, why: u32| {
            bl.before(i);
            bl.call(sym.lost, &[ids[&v], bl.c32(why), bl.c32(line(i))]);
        };
        match op {
            Op::LLVMBr => unsafe {
                if LLVMIsConditional(i) != 0 {
                    let c = LLVMGetCondition(i);
                    if s.contains(&c) {
                        bl.before(i);
                        let w = bl.wide(c);
                        bl.call(sym.branch, &[ids[&c], w, bl.c32(width(c))]);
                    }
                }
            },
            Op::LLVMStore => {
                let (v, ptr) = (ir::operand(i, 0), ir::operand(i, 1));
                if s.contains(&v) {
                    if esc.is_private(ptr) {
                        lost(v, LOST_LOCAL_STORE);
                    } else {
                        // announced before the store: the store takes the
                        // node along through its buffer (runtime/src/sym.c)
                        bl.before(i);
                        let w = bl.wide(v);
                        let size = unsafe { LLVMConstInt(sym.i64, size_of(v), 0) };
                        bl.call(sym.store, &[ptr, size, ids[&v], w, bl.c32(width(v))]);
                    }
                }
            }
            Op::LLVMCall => {
                let name = callee_name(i);
                let n = unsafe { LLVMGetNumArgOperands(i) };
                let args: Vec<Value> = (0..n).map(|k| unsafe { LLVMGetArgOperand(i, k) }).collect();
                if name == "__VERIFIER_assume" && args.len() == 1 && s.contains(&args[0]) {
                    bl.before(i);
                    let w = bl.wide(args[0]);
                    bl.call(sym.assume, &[ids[&args[0]], w, bl.c32(width(args[0]))]);
                } else if calls_program_code(i) {
                    if args.iter().any(|a| s.contains(a)) {
                        // the ids go through the runtime's argument slots
                        let fixed = unsafe { LLVMCountParamTypes(LLVMGetCalledFunctionType(i)) };
                        bl.before(i);
                        bl.call(sym.call, &[called_value(i)]);
                        for (k, &a) in args.iter().enumerate() {
                            if !s.contains(&a) {
                                continue;
                            }
                            if (k as u32) < fixed {
                                let w = bl.wide(a);
                                bl.call(sym.arg, &[bl.c32(k as u32), ids[&a], w, bl.c32(width(a))]);
                            } else {
                                bl.call(sym.lost, &[ids[&a], bl.c32(LOST_CALL), bl.c32(line(i))]);
                            }
                        }
                        bl.after(i);
                        bl.call(sym.called, &[]);
                    }
                } else if !name.starts_with("llvm.dbg.") && !name.starts_with("__tsoify_") && !name.starts_with("llvm.lifetime.") && !prints_only(i, &name, &args) {
                    for a in args.into_iter().filter(|a| s.contains(a)) {
                        lost(a, LOST_CALL);
                    }
                }
            }
            _ => {
                let why = match op {
                    Op::LLVMRet if is_main => continue, // main's result is no property
                    Op::LLVMRet if unsafe { LLVMGetNumOperands(i) } == 1 && tracked_width(ir::operand(i, 0)) => {
                        let v = ir::operand(i, 0);
                        if s.contains(&v) {
                            bl.before(i);
                            let w = bl.wide(v);
                            bl.call(sym.ret, &[f, ids[&v], w, bl.c32(width(v))]);
                        }
                        continue;
                    }
                    Op::LLVMRet => LOST_RETURN,
                    Op::LLVMSwitch if s.contains(&ir::operand(i, 0)) && tracked_width(ir::operand(i, 0)) => {
                        // one branch per case, `v == case`: the default is
                        // the path where every one is false
                        let v = ir::operand(i, 0);
                        bl.before(i);
                        let w = bl.wide(v);
                        let cases = (unsafe { LLVMGetNumOperands(i) } as u32 - 2) / 2;
                        for k in 0..cases {
                            let case = ir::operand(i, 2 + 2 * k);
                            let hit = unsafe { LLVMBuildICmp(b, llvm_sys::LLVMIntPredicate::LLVMIntEQ, v, case, c"".as_ptr()) };
                            let c = bl.call(sym.icmp, &[bl.c32(ICMP_EQ), bl.c32(width(v)), ids[&v], w, zero, bl.wide(case)]);
                            bl.call(sym.branch, &[c, bl.wide(hit), bl.c32(1)]);
                        }
                        continue;
                    }
                    Op::LLVMSwitch => LOST_SWITCH,
                    Op::LLVMGetElementPtr | Op::LLVMIntToPtr => {
                        // every feasible value of an index or address is a
                        // path of its own (runtime: one branch per bit)
                        for v in operands(i).into_iter().filter(|o| s.contains(o)) {
                            if tracked_width(v) {
                                bl.before(i);
                                let w = bl.wide(v);
                                bl.call(sym.pin, &[ids[&v], w, bl.c32(width(v))]);
                            } else {
                                lost(v, LOST_ADDRESS);
                            }
                        }
                        continue;
                    }
                    Op::LLVMSIToFP
                    | Op::LLVMUIToFP
                    | Op::LLVMFAdd
                    | Op::LLVMFSub
                    | Op::LLVMFMul
                    | Op::LLVMFDiv
                    | Op::LLVMFRem
                    | Op::LLVMFNeg
                    | Op::LLVMFPToSI
                    | Op::LLVMFPToUI
                    | Op::LLVMFPExt
                    | Op::LLVMFPTrunc => LOST_FLOAT,
                    Op::LLVMAtomicRMW | Op::LLVMAtomicCmpXchg => LOST_ATOMIC,
                    _ if propagates(op) && int_bits(i).is_some_and(|w| w > 64) => LOST_WIDE,
                    _ => LOST_OTHER,
                };
                let tracked: Vec<Value> = operands(i).into_iter().filter(|o| s.contains(o)).collect();
                if op == Op::LLVMPHI {
                    // a phi that is not tracked: the value is lost where it is made
                    for v in tracked {
                        bl.after(v);
                        bl.call(sym.lost, &[ids[&v], bl.c32(why), bl.c32(line(i))]);
                    }
                    continue;
                }
                for v in tracked {
                    lost(v, why);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::stores_count;

    #[test]
    fn a_format_stores_a_count_only_with_a_percent_n() {
        assert!(!stores_count(b"intervals: %d\n"));
        assert!(!stores_count(b"100%% done, %5.2f %-8lld %s"));
        assert!(stores_count(b"%d%n"));
        assert!(stores_count(b"x=%d %hhn"));
        assert!(stores_count(b"%2$d %1$n"));
        assert!(!stores_count(b"%%n is not one"));
    }
}
