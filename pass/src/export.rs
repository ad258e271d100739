//! Export mode (`tsoify --export`, runtime/ABI.md "Export mode"): the
//! instrumented program plus the runtime's store-buffer code, linked into
//! one module that any SC model checker can take.
//!
//! Both directions live here:
//! - `link_runtime`: after the pass has instrumented the program (with
//!   `Options::export` set), link the export runtime's bitcode into it. Every
//!   symbol the runtime defines gets the prefix `__tsoify_x.` and internal
//!   linkage: nothing clashes with the native runtime if the export is
//!   built natively again, and the pass skips these functions (their names
//!   start with `__tsoify_`), so the runtime is never instrumented.
//! - `import`: when the pass instruments an export (`verify --model sc
//!   prog.sc.bc`), the export's choice function becomes the native runtime's
//!   exact choice, so every alternative is enumerated (the checker-neutral
//!   `__VERIFIER_nondet_uint()` would only be sampled); and the brackets
//!   and footprint declarations of its runtime steps become the native
//!   runtime's, so the explorer sees what each step touches instead of
//!   ordering every two steps (runtime/src/rt.h, RT_TOUCH).

use crate::ir::{self, Value};
use crate::module::{Module, PassError};
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::core::*;
use llvm_sys::linker::LLVMLinkModules2;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMABIAlignmentOfType, LLVMGetModuleDataLayout};
use llvm_sys::LLVMLinkage;

/// Prefix of every symbol the export runtime brings into the module.
pub const PREFIX: &str = "__tsoify_x.";
/// The export runtime's one choice point (runtime/src/export.c rt_choose).
const CHOICE: &str = "__tsoify_x.rt_choose";
/// The export runtime's functions the native runtime replaces when `verify`
/// instruments an export, and their replacements: the choice point
/// (runtime/src/libc.c), a runtime step's bracket (threads.c) and its
/// footprint declaration (libc.c). The last three exist only in exports
/// whose steps are atomic blocks.
const IMPORTED: [(&str, &str); 4] = [
    (CHOICE, "__tsoify_export_choice"),
    ("__tsoify_x.rt_step_begin", "__tsoify_export_step_begin"),
    ("__tsoify_x.rt_step_end", "__tsoify_export_step_end"),
    ("__tsoify_x.rt_touch", "__tsoify_export_touch"),
];

/// Calls the export still redirects to the runtime: the ones whose meaning
/// under TSO/PSO the runtime must add (thread indices and fences around
/// pthread calls, atomic blocks that drain, the heap and memcpy/memset
/// through the buffers). Assume, nondet, reach_error, assert, abort and
/// exit stay the program's own calls, for the checker to interpret.
pub fn redirected(name: &str) -> bool {
    (name.starts_with("pthread_") && !crate::redirect::not_in_export(name))
        || matches!(
            name,
            "__VERIFIER_atomic_begin"
                | "__VERIFIER_atomic_end"
                | "malloc"
                | "calloc"
                | "realloc"
                | "free"
                | "memcpy"
                | "memmove"
                | "memset"
                | "sched_yield"
        )
}

/// Defined functions and global variables of a module.
fn definitions(m: LLVMModuleRef) -> Vec<Value> {
    let mut v: Vec<Value> = ir::functions(m).into_iter().filter(|&f| !ir::is_declaration(f)).collect();
    v.extend(ir::globals(m).into_iter().filter(|&g| !ir::is_declaration(g)));
    v
}

fn named(m: LLVMModuleRef, name: &str) -> Option<Value> {
    let n = ir::cstr(name);
    unsafe {
        let f = LLVMGetNamedFunction(m, n.as_ptr());
        if !f.is_null() {
            return Some(f);
        }
        let g = LLVMGetNamedGlobal(m, n.as_ptr());
        (!g.is_null()).then_some(g)
    }
}

fn parse_bitcode(module: &Module, bytes: &[u8], what: &str) -> Result<LLVMModuleRef, PassError> {
    unsafe {
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bytes.as_ptr() as *const _, bytes.len(), c"export-runtime".as_ptr());
        let mut m: LLVMModuleRef = std::ptr::null_mut();
        let failed = LLVMParseBitcodeInContext2(module.ctx, buf, &mut m) != 0;
        LLVMDisposeMemoryBuffer(buf);
        if failed {
            return Err(PassError::Read { path: what.into(), reason: "not valid bitcode; rebuild tsoify".into() });
        }
        Ok(m)
    }
}

/// Link the export runtime (`runtime` bitcode) into the instrumented
/// program `module`, prefix and internalise its symbols, then the
/// checker's `glue` (bitcode defining library functions, such as the
/// pthread names, in the checker's terms) as it is, and drop what the
/// program does not use.
pub fn link_runtime(module: &Module, runtime: &[u8], glue: Option<&[u8]>) -> Result<(), PassError> {
    let bad = |reason: String| PassError::Read { path: "<export runtime>".into(), reason };
    unsafe {
        let rt = parse_bitcode(module, runtime, "<export runtime>")?;
        // The program refers to the runtime by the ABI names: rename both
        // sides alike so the link binds them.
        for def in definitions(rt) {
            let name = ir::name(def);
            if name.is_empty() || name.starts_with("llvm.") {
                continue;
            }
            let new = format!("{PREFIX}{name}");
            if let Some(decl) = named(module.m, &name).filter(|&d| ir::is_declaration(d)) {
                ir::set_name(decl, &new);
            }
            ir::set_name(def, &new);
        }
        if LLVMLinkModules2(module.m, rt) != 0 {
            return Err(bad("linking it into the program failed".into()));
        }
        // the model and bound the pass baked in belong to the runtime now
        for name in ["__tsoify_default_model", "__tsoify_default_bound"] {
            if let Some(g) = named(module.m, name) {
                ir::set_name(g, &format!("{PREFIX}{name}"));
            }
        }
        for def in definitions(module.m) {
            if ir::name(def).starts_with(PREFIX) {
                LLVMSetLinkage(def, LLVMLinkage::LLVMInternalLinkage);
            }
        }
        if let Some(glue) = glue {
            let g = parse_bitcode(module, glue, "<export glue>")?;
            let names: Vec<String> = definitions(g).into_iter().map(ir::name).collect();
            if let Some(clash) = names.iter().find(|n| named(module.m, n).is_some_and(|d| !ir::is_declaration(d))) {
                return Err(PassError::Invalid(format!(
                    "the program defines `{clash}` itself, which the export for this checker must define; rename it"
                )));
            }
            if LLVMLinkModules2(module.m, g) != 0 {
                return Err(bad("linking the checker glue into the program failed".into()));
            }
            for n in &names {
                if let Some(def) = named(module.m, n) {
                    LLVMSetLinkage(def, LLVMLinkage::LLVMInternalLinkage);
                }
            }
        }
        align_globals(module.m);
    }
    module.run_passes(c"globaldce")?;
    module.verify()
}

/// Give every global variable an explicit alignment (its type's ABI
/// alignment where it has none, as for the pass's own constants). LLVM
/// reads no `align` as the ABI alignment, but GenMC 0.11 lays out globals
/// with the stated one and, given 0, restarts its layout at address 0, so
/// later globals overlap earlier ones ("access non-allocated memory").
fn align_globals(m: LLVMModuleRef) {
    unsafe {
        let layout = LLVMGetModuleDataLayout(m);
        for g in ir::globals(m) {
            if LLVMGetAlignment(g) == 0 {
                LLVMSetAlignment(g, LLVMABIAlignmentOfType(layout, LLVMGlobalGetValueType(g)));
            }
        }
    }
}

/// Give an export's choice point and step hooks to the native runtime (see
/// the module comment). A module that is not an export is left alone.
pub fn import(m: LLVMModuleRef) {
    for (ours, native_name) in IMPORTED {
        let Some(f) = named(m, ours) else { continue };
        unsafe {
            let ty = LLVMGlobalGetValueType(f);
            let n = ir::cstr(native_name);
            let native = LLVMAddFunction(m, n.as_ptr(), ty);
            LLVMReplaceAllUsesWith(f, native);
            LLVMDeleteFunction(f);
        }
    }
}
