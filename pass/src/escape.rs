//! Which memory cannot be shared, so its accesses stay native.
//!
//! An `alloca` is thread-private when its address never leaves the function:
//! every use (through GEPs and casts) is the pointer operand of a load or
//! store, an argument of a lifetime/debug intrinsic, or a pointer argument of
//! llvm.memcpy/memmove/memset. Any other use (stored as a value, passed to a
//! call, compared, turned into an integer, merged in a phi or select,
//! returned) counts as an escape, except the thread handle that
//! pthread_create fills in (the runtime writes it during a sync call). This is conservative: an alloca we cannot
//! prove private is instrumented. Constant globals are never written, so
//! their loads need no model either.

use crate::ir::{self, Value};
use llvm_sys::core::*;
use llvm_sys::LLVMOpcode as Op;
use std::collections::HashMap;

#[derive(Default)]
pub struct Escapes {
    private: HashMap<Value, bool>,
}

impl Escapes {
    /// Is `ptr` (after looking through GEPs and casts) a private alloca or a
    /// constant global?
    pub fn is_private(&mut self, ptr: Value) -> bool {
        let base = underlying_object(ptr);
        unsafe {
            if !LLVMIsAGlobalVariable(base).is_null() {
                return LLVMIsGlobalConstant(base) != 0;
            }
            if crate::cxx::is_thread_state(base) {
                return true;
            }
            if LLVMIsAAllocaInst(base).is_null() {
                return false;
            }
        }
        if let Some(&p) = self.private.get(&base) {
            return p;
        }
        let p = !escapes(base, 0);
        self.private.insert(base, p);
        p
    }
}

/// Follow GEPs and pointer casts to the object a pointer points into.
pub fn underlying_object(mut v: Value) -> Value {
    for _ in 0..64 {
        match ir::opcode(v) {
            Some(Op::LLVMGetElementPtr) | Some(Op::LLVMBitCast) | Some(Op::LLVMAddrSpaceCast) => v = ir::operand(v, 0),
            _ => unsafe {
                // constant expressions (GEP of a global) look the same
                if !LLVMIsAConstantExpr(v).is_null() {
                    let op = LLVMGetConstOpcode(v);
                    if matches!(op, Op::LLVMGetElementPtr | Op::LLVMBitCast | Op::LLVMAddrSpaceCast) {
                        v = ir::operand(v, 0);
                        continue;
                    }
                }
                return v;
            },
        }
    }
    v
}

fn escapes(v: Value, depth: u32) -> bool {
    if depth > 32 {
        return true;
    }
    for (user, slot) in ir::users(v) {
        match ir::opcode(user) {
            Some(Op::LLVMLoad) => {}
            Some(Op::LLVMStore) => {
                if slot != 1 {
                    return true; // the address itself is stored somewhere
                }
            }
            Some(Op::LLVMGetElementPtr) | Some(Op::LLVMBitCast) | Some(Op::LLVMAddrSpaceCast) => {
                if slot != 0 || escapes(user, depth + 1) {
                    return true;
                }
            }
            Some(Op::LLVMCall) => {
                let callee = ir::called_function(user).map(ir::name).unwrap_or_default();
                // pthread_create writes the handle itself (the runtime, natively)
                if matches!(callee.as_str(), "pthread_create" | "thrd_create") && slot == 0 {
                    continue;
                }
                // the C++ library objects the runtime reads or writes in the call
                if crate::redirect::cxx_arg_stays_private(&callee, slot) {
                    continue;
                }
                // an export's runtime (export.rs) runs natively in the caller's
                // thread and never hands the pointer on: the scratch slots
                // it reads stay private
                // the concolic tracking's calls only look at the address
                let harmless = callee.starts_with(crate::export::PREFIX)
                    || callee.starts_with("__tsoify_sym_")
                    || callee.starts_with("llvm.lifetime.")
                    || callee.starts_with("llvm.dbg.")
                    || callee.starts_with("llvm.memcpy")
                    || callee.starts_with("llvm.memmove")
                    || callee.starts_with("llvm.memset");
                // the length/value arguments of mem intrinsics are never pointers
                if !harmless {
                    return true;
                }
            }
            _ => return true,
        }
    }
    false
}
