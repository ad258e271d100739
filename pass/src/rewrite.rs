//! The instrumentation proper: rewrite memory operations into runtime calls,
//! redirect library calls, refuse what cannot be modelled.
//!
//! Values cross into the runtime through two per-function scratch slots (an
//! `alloca` in the entry block): a store writes its value into slot A and
//! passes its address; a load gets its value back in slot A. This works the
//! same for every first-class type (integers up to i128, pointers, floats,
//! vectors, aggregates) without a runtime function per type.

use crate::escape::Escapes;
use crate::ir::{self, Value};
use crate::locations::{add_u32, LocTable, SiteOp};
use crate::loops::{self, LoopRuntime};
use crate::module::{Instrumented, Module, PassError};
use crate::redirect::{self, HARMLESS_EXTERNALS};
use crate::Options;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMGetModuleDataLayout, LLVMStoreSizeOfType, LLVMTargetDataRef};
use llvm_sys::LLVMOpcode as Op;
use std::collections::HashMap;

/// Runtime entry points, with their LLVM types.
struct Runtime {
    load: (LLVMTypeRef, Value),
    store: (LLVMTypeRef, Value),
    rmw: (LLVMTypeRef, Value),
    cmpxchg: (LLVMTypeRef, Value),
    fence: (LLVMTypeRef, Value),
    memcpy: (LLVMTypeRef, Value),
    memset: (LLVMTypeRef, Value),
    stack_release: (LLVMTypeRef, Value),
    atomic_begin: (LLVMTypeRef, Value),
    atomic_end: (LLVMTypeRef, Value),
    loops: LoopRuntime,
    cur_loc: Value,
}

struct Types {
    ptr: LLVMTypeRef,
    i8: LLVMTypeRef,
    i32: LLVMTypeRef,
    i64: LLVMTypeRef,
    void: LLVMTypeRef,
}

struct Pass<'a> {
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    td: LLVMTargetDataRef,
    b: LLVMBuilderRef,
    t: Types,
    rt: Runtime,
    locs: LocTable,
    _opts: std::marker::PhantomData<&'a Options>,
    /// export mode (export.rs): fewer redirects, no cur_loc, main kept
    export: bool,
    problems: Vec<String>,
    sites: usize,
    skipped: usize,
    await_loops: usize,
    fences: Vec<crate::FencePoint>,
    fence_used: Vec<bool>,
    /// concolic tracking of wide nondet values (concolic.rs), when the program has any
    sym: Option<crate::concolic::Sym>,
}

pub fn run(module: Module, opts: &Options) -> Result<Instrumented, PassError> {
    let ctx = module.ctx;
    let m = module.m;
    let main = ir::functions(m).into_iter().find(|&f| ir::name(f) == "main" && !ir::is_declaration(f));
    let Some(main) = main else { return Err(PassError::NoMain) };
    crate::cxx::run_constructors_in_main(ctx, m, main);
    // thread-locals become per-thread arrays first: they are then globals
    // like any other (named in the tables, their accesses instrumented)
    let mut tls_problems = vec![];
    crate::tls::lower(ctx, m, if opts.export { crate::EXPORT_MAX_THREADS } else { crate::MAX_THREADS }, &mut tls_problems);
    let program_globals = program_globals(m);
    let t = unsafe {
        Types {
            ptr: LLVMPointerTypeInContext(ctx, 0),
            i8: LLVMInt8TypeInContext(ctx),
            i32: LLVMInt32TypeInContext(ctx),
            i64: LLVMInt64TypeInContext(ctx),
            void: LLVMVoidTypeInContext(ctx),
        }
    };
    let rt = declare_runtime(m, &t);
    let mut pass = Pass {
        ctx,
        m,
        td: unsafe { LLVMGetModuleDataLayout(m) },
        b: unsafe { LLVMCreateBuilderInContext(ctx) },
        t,
        rt,
        locs: LocTable::new(),
        _opts: std::marker::PhantomData,
        export: opts.export,
        problems: vec![],
        sites: 0,
        skipped: 0,
        await_loops: 0,
        fences: opts.fences.clone(),
        fence_used: vec![false; opts.fences.len()],
        sym: (!opts.export && crate::concolic::module_uses_wide_nondet(m)).then(|| crate::concolic::prepare(ctx, m)),
    };
    // a thread-local of the C++ library (std::call_once's) comes with
    // library calls the pass refuses, which name what the user called
    let (library_tls, tls_problems): (Vec<String>, Vec<String>) = tls_problems.into_iter().partition(|p| p.contains("`_Z"));
    pass.problems.extend(tls_problems);
    let program_functions: Vec<Value> = ir::functions(m)
        .into_iter()
        .filter(|&f| !ir::is_declaration(f) && !ir::name(f).starts_with("__tsoify_"))
        .collect();
    for f in &program_functions {
        pass.function(*f);
    }
    if !opts.export {
        // an export's runtime (verify on an export): its atomic accesses are
        // how its threads meet outside locks, so the explorer must see them
        for f in ir::functions(m).into_iter().filter(|&f| !ir::is_declaration(f) && ir::name(f).starts_with(crate::export::PREFIX)) {
            pass.runtime_atomics(f);
        }
    }
    pass.problems.extend(library_tls);
    pass.redirect_declarations();
    if opts.export {
        pass.export_main_hooks(main);
    }
    unsafe { LLVMDisposeBuilder(pass.b) };
    if !pass.problems.is_empty() && !opts.allow_unsupported {
        let first = pass.problems[0].clone();
        let more = pass.problems.len() - 1;
        let tail = if more > 0 { format!(" (and {more} more)") } else { String::new() };
        return Err(PassError::Unsupported(format!(
            "unsupported: {first}{tail}; hint: rewrite that part, or pass --allow-unsupported to go on (the verdict will say so)"
        )));
    }
    if opts.export {
        // the checker runs the program's own main; traces are the checker's
        add_defaults(m, ctx, opts);
        module.verify()?;
        return Ok(Instrumented { module, sites: pass.sites, skipped_private: pass.skipped, await_loops: 0, unplaced_fences: vec![], warnings: pass.problems });
    }
    ir::set_name(main, "__tsoify_user_main");
    pass.locs.emit(ctx, m, &program_globals);
    add_defaults(m, ctx, opts);
    let warnings = pass.problems.clone();
    if !warnings.is_empty() {
        emit_warnings(ctx, m, &warnings);
    }
    module.verify()?;
    let unplaced_fences = pass.fences.iter().zip(&pass.fence_used).filter(|(_, &u)| !u).map(|(f, _)| f.clone()).collect();
    Ok(Instrumented { module, sites: pass.sites, skipped_private: pass.skipped, await_loops: pass.await_loops, unplaced_fences, warnings })
}

/// Where a call is, for a refusal: file:line, and for a call in library
/// code (a libstdc++ template) also the user's call that leads there.
fn where_called(i: Value) -> String {
    match crate::cxx::user_call_site(i) {
        Some((via, pos)) => format!("{} (through {via} at {pos})", LocTable::position(i)),
        None => LocTable::position(i),
    }
}

fn add_defaults(m: LLVMModuleRef, ctx: LLVMContextRef, opts: &Options) {
    unsafe {
        add_u32(m, ctx, "__tsoify_default_model", opts.default_model);
        add_u32(m, ctx, "__tsoify_default_bound", opts.default_bound);
    }
}

/// Globals that belong to the program (for the trace's name table).
fn program_globals(m: LLVMModuleRef) -> Vec<Value> {
    ir::globals(m)
        .into_iter()
        .filter(|&g| {
            let n = ir::name(g);
            !ir::is_declaration(g)
                && unsafe { LLVMIsGlobalConstant(g) } == 0
                && unsafe { LLVMIsThreadLocal(g) } == 0
                && !n.is_empty()
                && !n.starts_with("llvm.")
                && !n.starts_with("__tsoify")
        })
        .collect()
}

fn emit_warnings(ctx: LLVMContextRef, m: LLVMModuleRef, warnings: &[String]) {
    let text = warnings.join("\n");
    unsafe {
        let init = LLVMConstStringInContext2(ctx, text.as_ptr() as *const _, text.len(), 0);
        let g = LLVMAddGlobal(m, LLVMTypeOf(init), c"__tsoify_warnings".as_ptr());
        LLVMSetInitializer(g, init);
        LLVMSetGlobalConstant(g, 1);
    }
}

fn declare(m: LLVMModuleRef, name: &str, ret: LLVMTypeRef, params: &[LLVMTypeRef]) -> (LLVMTypeRef, Value) {
    unsafe {
        let mut p = params.to_vec();
        let ty = LLVMFunctionType(ret, p.as_mut_ptr(), p.len() as u32, 0);
        let n = ir::cstr(name);
        let existing = LLVMGetNamedFunction(m, n.as_ptr());
        let f = if existing.is_null() { LLVMAddFunction(m, n.as_ptr(), ty) } else { existing };
        (ty, f)
    }
}

fn declare_runtime(m: LLVMModuleRef, t: &Types) -> Runtime {
    let (p, i32, i64, v) = (t.ptr, t.i32, t.i64, t.void);
    let cur_loc = unsafe { LLVMAddGlobal(m, i32, c"__tsoify_cur_loc".as_ptr()) };
    Runtime {
        load: declare(m, "__tsoify_load", v, &[p, p, i64, i32, i32]),
        store: declare(m, "__tsoify_store", v, &[p, p, i64, i32, i32]),
        rmw: declare(m, "__tsoify_rmw", v, &[p, p, i64, i32, i32, i32]),
        cmpxchg: declare(m, "__tsoify_cmpxchg", i32, &[p, p, p, i64, i32, i32, i32]),
        fence: declare(m, "__tsoify_fence", v, &[i32, i32]),
        memcpy: declare(m, "__tsoify_memcpy", v, &[p, p, i64, i32]),
        memset: declare(m, "__tsoify_memset", v, &[p, i32, i64, i32]),
        stack_release: declare(m, "__tsoify_stack_release", v, &[p, i64]),
        atomic_begin: declare(m, "__tsoify_atomic_begin", v, &[]),
        atomic_end: declare(m, "__tsoify_atomic_end", v, &[]),
        loops: LoopRuntime {
            begin: declare(m, "__tsoify_await_begin", i64, &[i32]),
            back: declare(m, "__tsoify_loop_back", v, &[i32, i64, i32, i64]),
            carried: declare(m, "__tsoify_await_carried", v, &[i32, i64]),
            spoil: declare(m, "__tsoify_await_spoil", v, &[]),
        },
        cur_loc,
    }
}

/// Per-function state: the scratch slots.
struct Slots {
    a: Value,
    b: Value,
}

impl<'a> Pass<'a> {
    fn c32(&self, v: u32) -> Value {
        unsafe { LLVMConstInt(self.t.i32, v as u64, 0) }
    }
    fn c64(&self, v: u64) -> Value {
        unsafe { LLVMConstInt(self.t.i64, v, 0) }
    }
    fn size_of(&self, ty: LLVMTypeRef) -> u64 {
        unsafe { LLVMStoreSizeOfType(self.td, ty) }
    }
    fn call(&self, f: (LLVMTypeRef, Value), args: &[Value]) -> Value {
        let mut a = args.to_vec();
        unsafe { LLVMBuildCall2(self.b, f.0, f.1, a.as_mut_ptr(), a.len() as u32, c"".as_ptr()) }
    }
    fn before(&self, inst: Value) {
        unsafe { LLVMPositionBuilderBefore(self.b, inst) }
    }

    fn function(&mut self, f: Value) {
        // the export is checked by another tool: its loops are its own business
        if !self.export {
            self.await_loops += loops::instrument(f, self.b, self.ctx, &self.rt.loops, &mut self.locs);
        }
        if let Some(sym) = &self.sym {
            crate::concolic::instrument(self.m, f, self.b, sym);
        }
        let insts = ir::instructions(f);
        let mut esc = Escapes::default();
        // first pass: how big must the slots be, and what is refused
        let mut slot_bytes = 16u64;
        for &i in &insts {
            match ir::opcode(i) {
                Some(Op::LLVMLoad) => slot_bytes = slot_bytes.max(self.size_of(ir::type_of(i))),
                Some(Op::LLVMStore) => slot_bytes = slot_bytes.max(self.size_of(ir::type_of(ir::operand(i, 0)))),
                Some(Op::LLVMCall) | Some(Op::LLVMInvoke) | Some(Op::LLVMCallBr) => self.check_call(i),
                _ => {}
            }
        }
        let slots = self.make_slots(f, slot_bytes);
        let mut escaping_allocas = vec![];
        let mut returns = vec![];
        for &i in &insts {
            match ir::opcode(i) {
                Some(Op::LLVMLoad) => self.load(i, &slots, &mut esc),
                Some(Op::LLVMStore) => self.store(i, &slots, &mut esc),
                Some(Op::LLVMAtomicRMW) => self.rmw(i, &slots),
                Some(Op::LLVMAtomicCmpXchg) => self.cmpxchg(i, &slots),
                Some(Op::LLVMFence) => self.fence(i),
                Some(Op::LLVMCall) => self.call_site(i, &mut esc),
                Some(Op::LLVMAlloca) if !esc.is_private(i) => escaping_allocas.push(i),
                Some(Op::LLVMRet) => returns.push(i),
                _ => {}
            }
        }
        if !self.export && ir::name(f) == "main" {
            self.main_return(&returns);
        }
        self.release_frames(&escaping_allocas, &returns);
        if ir::name(f).starts_with("__VERIFIER_atomic_") {
            self.atomic_function(f, &returns);
        }
    }

    /// An export runtime's function (`verify` on an export): only its
    /// atomic instructions become runtime calls, as SC accesses the
    /// explorer sees (the export runtime's flusher threads look at a
    /// buffer's size through them, outside its lock; with fine locking its
    /// reads and writes of program memory are atomics too). Its plain
    /// accesses are to state its locks or atomic steps guard.
    pub(crate) fn runtime_atomics(&mut self, f: Value) {
        let atomics: Vec<Value> = ir::instructions(f)
            .into_iter()
            .filter(|&i| match ir::opcode(i) {
                Some(Op::LLVMLoad) | Some(Op::LLVMStore) => (unsafe { LLVMGetOrdering(i) }) != llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic,
                Some(Op::LLVMAtomicRMW) | Some(Op::LLVMAtomicCmpXchg) => true,
                _ => false,
            })
            .collect();
        if atomics.is_empty() {
            return;
        }
        let slots = self.make_slots(f, 16);
        let mut esc = Escapes::default();
        for i in atomics {
            match ir::opcode(i) {
                Some(Op::LLVMLoad) => self.load(i, &slots, &mut esc),
                Some(Op::LLVMStore) => self.store(i, &slots, &mut esc),
                Some(Op::LLVMAtomicRMW) => self.rmw(i, &slots),
                _ => self.cmpxchg(i, &slots),
            }
        }
    }

    fn make_slots(&self, f: Value, bytes: u64) -> Slots {
        unsafe {
            let entry = LLVMGetEntryBasicBlock(f);
            LLVMPositionBuilderBefore(self.b, LLVMGetFirstInstruction(entry));
            let ty = LLVMArrayType2(self.t.i8, bytes);
            let a = LLVMBuildAlloca(self.b, ty, c"tsoify.slot.a".as_ptr());
            let b = LLVMBuildAlloca(self.b, ty, c"tsoify.slot.b".as_ptr());
            LLVMSetAlignment(a, 16);
            LLVMSetAlignment(b, 16);
            Slots { a, b }
        }
    }

    fn load(&mut self, i: Value, s: &Slots, esc: &mut Escapes) {
        let ptr = ir::operand(i, 0);
        if ptr == s.a || ptr == s.b || esc.is_private(ptr) {
            self.skipped += 1;
            return;
        }
        let ty = ir::type_of(i);
        let size = self.size_of(ty);
        let order = unsafe { LLVMGetOrdering(i) } as u32;
        let loc = self.locs.add_ordered(i, SiteOp::Load, Some(ptr), order);
        self.before(i);
        self.call(self.rt.load, &[ptr, s.a, self.c64(size), self.c32(order), self.c32(loc)]);
        unsafe {
            let v = LLVMBuildLoad2(self.b, ty, s.a, c"".as_ptr());
            LLVMReplaceAllUsesWith(i, v);
            LLVMInstructionEraseFromParent(i);
        }
        self.sites += 1;
    }

    fn store(&mut self, i: Value, s: &Slots, esc: &mut Escapes) {
        let val = ir::operand(i, 0);
        let ptr = ir::operand(i, 1);
        if ptr == s.a || ptr == s.b || esc.is_private(ptr) {
            self.skipped += 1;
            return;
        }
        let size = self.size_of(ir::type_of(val));
        let order = unsafe { LLVMGetOrdering(i) } as u32;
        let loc = self.locs.add_ordered(i, SiteOp::Store, Some(ptr), order);
        self.before(i);
        unsafe { LLVMBuildStore(self.b, val, s.a) };
        self.call(self.rt.store, &[ptr, s.a, self.c64(size), self.c32(order), self.c32(loc)]);
        // --with-fences: a fence right after this store
        let (file, line, col) = ir::debug_loc(i);
        if let Some(k) = self.fences.iter().position(|f| f.matches(&file, line, col)) {
            let order = if self.fences[k].store_store { 5 } else { 7 }; // release: PSO store-store barrier; seq_cst: mfence
            self.call(self.rt.fence, &[self.c32(order), self.c32(loc)]);
            self.fence_used[k] = true;
        }
        unsafe { LLVMInstructionEraseFromParent(i) };
        self.sites += 1;
    }

    fn rmw(&mut self, i: Value, s: &Slots) {
        let ptr = ir::operand(i, 0);
        let val = ir::operand(i, 1);
        let ty = ir::type_of(val);
        let size = self.size_of(ty);
        let (op, order) = unsafe { (LLVMGetAtomicRMWBinOp(i) as u32, LLVMGetOrdering(i) as u32) };
        let loc = self.locs.add_ordered(i, SiteOp::Rmw, Some(ptr), order);
        self.before(i);
        unsafe { LLVMBuildStore(self.b, val, s.a) };
        self.call(self.rt.rmw, &[ptr, s.a, self.c64(size), self.c32(op), self.c32(order), self.c32(loc)]);
        unsafe {
            let old = LLVMBuildLoad2(self.b, ty, s.a, c"".as_ptr());
            LLVMReplaceAllUsesWith(i, old);
            LLVMInstructionEraseFromParent(i);
        }
        self.sites += 1;
    }

    fn cmpxchg(&mut self, i: Value, s: &Slots) {
        let ptr = ir::operand(i, 0);
        let cmp = ir::operand(i, 1);
        let new = ir::operand(i, 2);
        let ty = ir::type_of(cmp);
        let size = self.size_of(ty);
        let (succ, fail) = unsafe { (LLVMGetCmpXchgSuccessOrdering(i) as u32, LLVMGetCmpXchgFailureOrdering(i) as u32) };
        let loc = self.locs.add_ordered(i, SiteOp::CmpXchg, Some(ptr), succ.max(fail));
        self.before(i);
        unsafe {
            LLVMBuildStore(self.b, cmp, s.a);
            LLVMBuildStore(self.b, new, s.b);
        }
        let ok = self.call(
            self.rt.cmpxchg,
            &[ptr, s.a, s.b, self.c64(size), self.c32(succ), self.c32(fail), self.c32(loc)],
        );
        unsafe {
            let old = LLVMBuildLoad2(self.b, ty, s.a, c"".as_ptr());
            let okb = LLVMBuildICmp(self.b, llvm_sys::LLVMIntPredicate::LLVMIntNE, ok, self.c32(0), c"".as_ptr());
            let pair_ty = ir::type_of(i);
            let p0 = LLVMBuildInsertValue(self.b, LLVMGetPoison(pair_ty), old, 0, c"".as_ptr());
            let p1 = LLVMBuildInsertValue(self.b, p0, okb, 1, c"".as_ptr());
            LLVMReplaceAllUsesWith(i, p1);
            LLVMInstructionEraseFromParent(i);
        }
        self.sites += 1;
    }

    fn fence(&mut self, i: Value) {
        // a single-thread (signal) fence only orders the compiler: nothing to model
        let single = unsafe { LLVMIsAtomicSingleThread(i) } != 0;
        if !single {
            let order = unsafe { LLVMGetOrdering(i) } as u32;
            let loc = self.locs.add_ordered(i, SiteOp::Fence, None, order);
            self.before(i);
            self.call(self.rt.fence, &[self.c32(order), self.c32(loc)]);
            self.sites += 1;
        }
        unsafe { LLVMInstructionEraseFromParent(i) };
    }

    /// Refusals, found before anything is rewritten.
    fn check_call(&mut self, i: Value) {
        if ir::is_inline_asm_call(i) {
            let text = ir::inline_asm_text(i);
            if !text.trim().is_empty() && !text.contains("mfence") {
                self.problems.push(format!(
                    "inline assembly `{}` at {}: its memory effects cannot be modelled",
                    text.trim(),
                    LocTable::position(i)
                ));
            }
            return;
        }
        let Some(f) = ir::called_function(i) else { return };
        let name = ir::name(f);
        if let Some(why) = redirect::refusal_of(&name) {
            self.problems.push(format!("call to {name} at {}: {why}", where_called(i)));
            return;
        }
        if self.export && redirect::redirect_of(&name).is_some() && redirect::not_in_export(&name) {
            let what = crate::cxx::readable(&name);
            self.problems.push(format!("call to {what} at {}: not modelled in export mode (verify the program itself)", where_called(i)));
            return;
        }
        if !ir::is_declaration(f)
            || name.starts_with("llvm.")
            || name.starts_with("__tsoify")
            || redirect::redirect_of(&name).is_some()
            || HARMLESS_EXTERNALS.contains(&name.as_str())
            || name.starts_with("__VERIFIER_")
        {
            return;
        }
        let takes_pointer = (0..unsafe { LLVMGetNumArgOperands(i) }).any(|k| unsafe {
            LLVMGetTypeKind(LLVMTypeOf(LLVMGetArgOperand(i, k))) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
        });
        // in library code (a libstdc++ template): name what the user called,
        // at the user's line, and what it leads to
        let site = if takes_pointer { crate::cxx::user_call_site(i) } else { None };
        if let Some((via, pos)) = site {
            let what = crate::cxx::readable(&name);
            self.problems.push(format!("{via} at {pos}: the library code it runs calls `{what}`, which tsoify does not model"));
        } else if takes_pointer && name.starts_with("_Z") {
            // the C++ library's own code (not instrumented)
            let what = crate::cxx::readable(&name);
            self.problems.push(format!("call to the C++ library's `{what}` at {}: not modelled", LocTable::position(i)));
        } else if takes_pointer {
            self.problems.push(format!(
                "call to external function `{name}` with pointer arguments at {}: tsoify cannot see what it does to memory",
                LocTable::position(i)
            ));
        }
    }

    fn call_site(&mut self, i: Value, esc: &mut Escapes) {
        if ir::is_inline_asm_call(i) {
            let text = ir::inline_asm_text(i);
            if text.contains("mfence") {
                let loc = self.locs.add_ordered(i, SiteOp::Fence, None, 7);
                self.before(i);
                self.call(self.rt.fence, &[self.c32(7), self.c32(loc)]);
                self.sites += 1;
                unsafe { LLVMInstructionEraseFromParent(i) };
            } else if text.trim().is_empty() {
                unsafe { LLVMInstructionEraseFromParent(i) }; // compiler barrier
            }
            return;
        }
        let Some(f) = ir::called_function(i) else { return };
        let name = ir::name(f);
        let is_memcpy = name.starts_with("llvm.memcpy.") || name.starts_with("llvm.memmove.") || name.starts_with("llvm.memcpy.inline.");
        let is_memset = name.starts_with("llvm.memset.");
        if is_memcpy || is_memset {
            let dst = unsafe { LLVMGetArgOperand(i, 0) };
            let src_or_val = unsafe { LLVMGetArgOperand(i, 1) };
            let len = unsafe { LLVMGetArgOperand(i, 2) };
            let private = esc.is_private(dst) && (is_memset || esc.is_private(src_or_val));
            if private {
                self.skipped += 1;
                return;
            }
            let loc = self.locs.add(i, if is_memcpy { SiteOp::MemCpy } else { SiteOp::MemSet }, Some(dst));
            self.before(i);
            unsafe {
                let len64 = LLVMBuildIntCast2(self.b, len, self.t.i64, 0, c"".as_ptr());
                if is_memcpy {
                    self.call(self.rt.memcpy, &[dst, src_or_val, len64, self.c32(loc)]);
                } else {
                    let v32 = LLVMBuildZExt(self.b, src_or_val, self.t.i32, c"".as_ptr());
                    self.call(self.rt.memset, &[dst, v32, len64, self.c32(loc)]);
                }
                LLVMInstructionEraseFromParent(i);
            }
            self.sites += 1;
            return;
        }
        // Calling reach_error is the error (SV-COMP's unreach-call is
        // `G ! call(reach_error())`), whatever its body: task files define it
        // as `{}` (the error then ends in the abort() after the call) or as
        // `{ __assert_fail(...); }` (the failure then points inside it, not at
        // the call). So a call of a *defined* reach_error/__VERIFIER_error
        // ends the execution as reach_error at the call site; its body never runs.
        if !self.export && !ir::is_declaration(f) && redirect::is_error_function(&name) {
            let loc = self.locs.add(i, SiteOp::Call, None);
            self.before(i);
            unsafe { LLVMBuildStore(self.b, self.c32(loc), self.rt.cur_loc) };
            let reach_error = declare(self.m, "__tsoify_reach_error", self.t.void, &[]);
            self.call(reach_error, &[]);
            return;
        }
        // a redirected call learns where it is through __tsoify_cur_loc
        if !self.export && ir::is_declaration(f) && (redirect::redirect_of(&name).is_some() || name == "tsoify_outcome") {
            let loc = self.locs.add(i, SiteOp::Call, None);
            self.before(i);
            unsafe { LLVMBuildStore(self.b, self.c32(loc), self.rt.cur_loc) };
        }
    }

    /// main's return is the step that ends the process, and the other
    /// threads run before it (runtime rt_end_point): taken while main's
    /// frame is alive, since they may use its locals. After the return the
    /// frame is gone (its buffered stores dropped, its memory reused by the
    /// runtime's own calls), and a thread handed `&x` by a main that returns
    /// without joining read garbage: SAFE where the thread can see x = 1.
    fn main_return(&mut self, returns: &[Value]) {
        let hook = declare(self.m, "__tsoify_main_return", self.t.void, &[]);
        for &r in returns {
            self.before(r);
            self.call(hook, &[]);
        }
    }

    /// Before each return, drop the thread's buffered stores to this frame's
    /// escaping locals: that memory dies with the frame.
    fn release_frames(&mut self, allocas: &[Value], returns: &[Value]) {
        for &a in allocas {
            let n = ir::operand(a, 0);
            let Some(count) = ir::const_u64(n) else { continue };
            let size = self.size_of(unsafe { LLVMGetAllocatedType(a) }) * count;
            for &r in returns {
                self.before(r);
                self.call(self.rt.stack_release, &[a, self.c64(size)]);
            }
        }
    }

    /// Export mode: `main` tells the export runtime where the program starts
    /// and ends (ABI.md, "Export mode"): flusher threads for main's buffer
    /// start and finish there.
    fn export_main_hooks(&mut self, main: Value) {
        let start = declare(self.m, "__tsoify_main_start", self.t.void, &[]);
        let end = declare(self.m, "__tsoify_main_end", self.t.void, &[]);
        let returns: Vec<Value> = ir::instructions(main).into_iter().filter(|&i| ir::opcode(i) == Some(Op::LLVMRet)).collect();
        unsafe {
            let entry = LLVMGetEntryBasicBlock(main);
            LLVMPositionBuilderBefore(self.b, LLVMGetFirstInstruction(entry));
        }
        self.call(start, &[]);
        for r in returns {
            self.before(r);
            self.call(end, &[]);
        }
    }

    /// `__VERIFIER_atomic_*` functions run as one atomic step.
    fn atomic_function(&mut self, f: Value, returns: &[Value]) {
        unsafe {
            let entry = LLVMGetEntryBasicBlock(f);
            LLVMPositionBuilderBefore(self.b, LLVMGetFirstInstruction(entry));
        }
        self.call(self.rt.atomic_begin, &[]);
        for &r in returns {
            self.before(r);
            self.call(self.rt.atomic_end, &[]);
        }
    }

    /// Rename declarations of redirected functions to their runtime twins.
    fn redirect_declarations(&mut self) {
        let mut done: HashMap<&'static str, Value> = HashMap::new();
        for f in ir::functions(self.m) {
            if !ir::is_declaration(f) {
                continue;
            }
            let name = ir::name(f);
            if self.export && !crate::export::redirected(&name) {
                continue; // the checker interprets it
            }
            let Some(target) = redirect::redirect_of(&name) else { continue };
            let existing = done.get(target).copied().or_else(|| unsafe {
                let n = ir::cstr(target);
                let g = LLVMGetNamedFunction(self.m, n.as_ptr());
                (!g.is_null()).then_some(g)
            });
            match existing {
                Some(g) => unsafe {
                    LLVMReplaceAllUsesWith(f, g);
                    LLVMDeleteFunction(f);
                },
                None => {
                    ir::set_name(f, target);
                    done.insert(target, f);
                }
            }
        }
        let _ = self.ctx;
    }
}
