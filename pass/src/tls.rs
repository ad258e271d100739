//! Thread-local storage (`_Thread_local`, `__thread`, C++ `thread_local`).
//!
//! The threads of a run are coroutines on one OS thread (and an export's
//! checker may run them however it likes), so native TLS would give every
//! thread the same copy. Instead each thread-local variable becomes an
//! ordinary global array with one element per possible thread, each
//! initialised as the variable was, and every access
//! (`llvm.threadlocal.address(@x)`, which is how clang reaches a TLS
//! variable) becomes the address of the running thread's element,
//! `&x[__tsoify_thread_index()]`. The copies live in program memory, so
//! store buffers, snapshots and the trace's names (`x[2]` is thread 2's
//! copy) cover them, and another thread that was handed a pointer to one
//! reaches it as C says it may.

use crate::ir::{self, Value};
use crate::locations::LocTable;
use llvm_sys::core::*;
use llvm_sys::prelude::*;

/// Lower every thread-local variable of `m` (see the module comment).
/// `threads`: how many threads the runtime may run (its RT_MAX_THREADS).
/// What cannot be lowered is pushed to `problems`.
pub fn lower(ctx: LLVMContextRef, m: LLVMModuleRef, threads: u32, problems: &mut Vec<String>) {
    let tls: Vec<Value> = ir::globals(m).into_iter().filter(|&g| unsafe { LLVMIsThreadLocal(g) } != 0).collect();
    if tls.is_empty() {
        return;
    }
    unsafe {
        let i32t = LLVMInt32TypeInContext(ctx);
        let i64t = LLVMInt64TypeInContext(ctx);
        let mut no_params: [LLVMTypeRef; 0] = [];
        let index_ty = LLVMFunctionType(i32t, no_params.as_mut_ptr(), 0, 0);
        let index_fn = {
            let existing = LLVMGetNamedFunction(m, c"__tsoify_thread_index".as_ptr());
            if existing.is_null() { LLVMAddFunction(m, c"__tsoify_thread_index".as_ptr(), index_ty) } else { existing }
        };
        let b = LLVMCreateBuilderInContext(ctx);
        for g in tls {
            let name = ir::name(g);
            if ir::is_declaration(g) {
                problems.push(format!("thread-local variable `{name}` defined in another file: tsoify checks one file"));
                continue;
            }
            let uses = ir::users(g);
            let through_intrinsic = |u: Value| ir::called_function(u).is_some_and(|f| ir::name(f).starts_with("llvm.threadlocal.address"));
            if let Some(&(other, _)) = uses.iter().find(|(u, _)| LLVMIsACallInst(*u).is_null() || !through_intrinsic(*u)) {
                let at = if LLVMIsAInstruction(other).is_null() { "in a constant expression".to_string() } else { format!("at {}", LocTable::position(other)) };
                problems.push(format!("thread-local variable `{name}` used {at} other than through its address (llvm.threadlocal.address)"));
                continue;
            }
            let ty = LLVMGlobalGetValueType(g);
            let init = LLVMGetInitializer(g);
            let init = if init.is_null() { LLVMConstNull(ty) } else { init };
            let mut copies = vec![init; threads as usize];
            let arr_ty = LLVMArrayType2(ty, threads as u64);
            ir::set_name(g, &format!("{name}.tls"));
            let per_thread = LLVMAddGlobal(m, arr_ty, ir::cstr(&name).as_ptr());
            LLVMSetInitializer(per_thread, LLVMConstArray2(ty, copies.as_mut_ptr(), threads as u64));
            LLVMSetLinkage(per_thread, LLVMGetLinkage(g));
            LLVMSetAlignment(per_thread, LLVMGetAlignment(g));
            for (call, _) in uses {
                LLVMPositionBuilderBefore(b, call);
                let mut none: [Value; 0] = [];
                let index = LLVMBuildCall2(b, index_ty, index_fn, none.as_mut_ptr(), 0, c"".as_ptr());
                let index = LLVMBuildZExt(b, index, i64t, c"".as_ptr());
                let mut at = [LLVMConstInt(i64t, 0, 0), index];
                let element = LLVMBuildInBoundsGEP2(b, arr_ty, per_thread, at.as_mut_ptr(), 2, c"".as_ptr());
                LLVMReplaceAllUsesWith(call, element);
                LLVMInstructionEraseFromParent(call);
            }
            LLVMDeleteGlobal(g);
        }
        LLVMDisposeBuilder(b);
    }
}
