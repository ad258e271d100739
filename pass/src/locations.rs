//! The tables the pass adds to the program: source locations (an id per
//! instrumented site, resolvable to file:line, function, variable) and the
//! program's globals (name, address, size), so a trace can say `x` instead
//! of an address. Layouts match `struct tsoify_loc` and
//! `struct tsoify_global` in runtime/src/rt.h.

use crate::escape::underlying_object;
use crate::ir::{self, Value};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMGetModuleDataLayout, LLVMStoreSizeOfType};
use llvm_sys::LLVMLinkage;
use llvm_sys::LLVMOpcode as Op;
use std::collections::HashMap;

/// What kind of operation a location id stands for (`op` in the table).
#[derive(Clone, Copy)]
#[repr(u32)]
pub enum SiteOp {
    Load = 1,
    Store = 2,
    Rmw = 3,
    CmpXchg = 4,
    Fence = 5,
    MemCpy = 6,
    MemSet = 7,
    Call = 8,
    /// a loop header (iteration bound, await)
    Loop = 9,
}

struct Loc {
    file: String,
    func: String,
    what: String,
    line: u32,
    col: u32,
    op: u32,
    /// the access's C11 ordering (LLVM `AtomicOrdering`; 0 = not atomic,
    /// volatile included): what a data-race check needs
    order: u32,
}

pub struct LocTable {
    locs: Vec<Loc>,
}

impl LocTable {
    pub fn new() -> Self {
        // id 0 means "unknown location"
        LocTable { locs: vec![Loc { file: String::new(), func: String::new(), what: String::new(), line: 0, col: 0, op: 0, order: 0 }] }
    }

    /// A new id for the instruction `inst` accessing `ptr` (if any).
    pub fn add(&mut self, inst: Value, op: SiteOp, ptr: Option<Value>) -> u32 {
        self.add_ordered(inst, op, ptr, 0)
    }

    /// `add` for an atomic access or fence with its ordering.
    pub fn add_ordered(&mut self, inst: Value, op: SiteOp, ptr: Option<Value>, order: u32) -> u32 {
        let (file, line, col) = ir::debug_loc(inst);
        let func = crate::cxx::readable(&ir::name(ir::function_of(inst)));
        let what = ptr.map(describe_pointer).unwrap_or_default();
        self.locs.push(Loc { file, func, what, line, col, op: op as u32, order });
        (self.locs.len() - 1) as u32
    }

    /// Where an instruction is, as `file:line` (for error messages).
    pub fn position(inst: Value) -> String {
        let (file, line, _) = ir::debug_loc(inst);
        if file.is_empty() {
            format!("in function {}", ir::name(ir::function_of(inst)))
        } else {
            format!("{file}:{line}")
        }
    }

    /// Emit `__tsoify_locs`, `__tsoify_nlocs`, `__tsoify_globals`,
    /// `__tsoify_nglobals` into the module.
    pub fn emit(&self, ctx: LLVMContextRef, m: LLVMModuleRef, program_globals: &[Value]) {
        let mut strings = Strings { ctx, m, cache: HashMap::new() };
        unsafe {
            let ptr = LLVMPointerTypeInContext(ctx, 0);
            let i32t = LLVMInt32TypeInContext(ctx);
            let i64t = LLVMInt64TypeInContext(ctx);
            let mut fields = [ptr, ptr, ptr, i32t, i32t, i32t, i32t];
            let loc_ty = LLVMStructTypeInContext(ctx, fields.as_mut_ptr(), fields.len() as u32, 0);
            let mut rows: Vec<Value> = self
                .locs
                .iter()
                .map(|l| {
                    let mut vals = [
                        strings.get(&l.file),
                        strings.get(&l.func),
                        strings.get(&l.what),
                        LLVMConstInt(i32t, l.line as u64, 0),
                        LLVMConstInt(i32t, l.col as u64, 0),
                        LLVMConstInt(i32t, l.op as u64, 0),
                        LLVMConstInt(i32t, l.order as u64, 0),
                    ];
                    LLVMConstNamedStruct(loc_ty, vals.as_mut_ptr(), vals.len() as u32)
                })
                .collect();
            add_table(m, "__tsoify_locs", loc_ty, &mut rows);
            add_u32(m, ctx, "__tsoify_nlocs", rows.len() as u32);

            let mut gfields = [ptr, i64t, ptr];
            let g_ty = LLVMStructTypeInContext(ctx, gfields.as_mut_ptr(), 3, 0);
            let td = LLVMGetModuleDataLayout(m);
            let mut grows: Vec<Value> = program_globals
                .iter()
                .map(|&g| {
                    let size = LLVMStoreSizeOfType(td, LLVMGlobalGetValueType(g));
                    let mut vals = [g, LLVMConstInt(i64t, size, 0), strings.get(&ir::name(g))];
                    LLVMConstNamedStruct(g_ty, vals.as_mut_ptr(), 3)
                })
                .collect();
            add_table(m, "__tsoify_globals", g_ty, &mut grows);
            add_u32(m, ctx, "__tsoify_nglobals", grows.len() as u32);
        }
    }
}

/// A readable name for what a pointer points to: `x`, `flag[..]`, `*p`.
pub fn describe_pointer(ptr: Value) -> String {
    let base = underlying_object(ptr);
    let through_gep = base != ptr && ir::opcode(ptr) == Some(Op::LLVMGetElementPtr)
        || unsafe { !LLVMIsAConstantExpr(ptr).is_null() && LLVMGetConstOpcode(ptr) == Op::LLVMGetElementPtr };
    let name = match ir::opcode(base) {
        Some(Op::LLVMLoad) => {
            let inner = ir::name(underlying_object(ir::operand(base, 0)));
            if inner.is_empty() { "*?".to_string() } else { format!("*{inner}") }
        }
        _ => {
            let n = ir::name(base);
            if n.is_empty() { "?".to_string() } else { n }
        }
    };
    if through_gep { format!("{name}[..]") } else { name }
}

struct Strings {
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    cache: HashMap<String, Value>,
}

impl Strings {
    fn get(&mut self, s: &str) -> Value {
        if let Some(&v) = self.cache.get(s) {
            return v;
        }
        unsafe {
            let init = LLVMConstStringInContext2(self.ctx, s.as_ptr() as *const _, s.len(), 0);
            let g = LLVMAddGlobal(self.m, LLVMTypeOf(init), c"__tsoify_str".as_ptr());
            LLVMSetInitializer(g, init);
            LLVMSetGlobalConstant(g, 1);
            LLVMSetLinkage(g, LLVMLinkage::LLVMPrivateLinkage);
            LLVMSetUnnamedAddress(g, llvm_sys::LLVMUnnamedAddr::LLVMGlobalUnnamedAddr);
            self.cache.insert(s.to_string(), g);
            g
        }
    }
}

unsafe fn add_table(m: LLVMModuleRef, name: &str, elem: LLVMTypeRef, rows: &mut [Value]) {
    let init = LLVMConstArray2(elem, rows.as_mut_ptr(), rows.len() as u64);
    let n = ir::cstr(name);
    let g = LLVMAddGlobal(m, LLVMTypeOf(init), n.as_ptr());
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
}

pub unsafe fn add_u32(m: LLVMModuleRef, ctx: LLVMContextRef, name: &str, v: u32) {
    let i32t = LLVMInt32TypeInContext(ctx);
    let n = ir::cstr(name);
    let g = LLVMAddGlobal(m, i32t, n.as_ptr());
    LLVMSetInitializer(g, LLVMConstInt(i32t, v as u64, 0));
    LLVMSetGlobalConstant(g, 1);
}
