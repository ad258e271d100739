//! Thin helpers over the LLVM C API (llvm-sys). Everything unsafe about
//! talking to LLVM is here; the rest of the pass works with `Value`s.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMOpcode;
use std::ffi::{CStr, CString};

pub type Value = LLVMValueRef;

pub fn cstr(s: &str) -> CString {
    CString::new(s.replace('\0', "?")).expect("no NUL after replace")
}

/// The name of a value ("" when it has none).
pub fn name(v: Value) -> String {
    unsafe {
        let mut len = 0usize;
        let p = LLVMGetValueName2(v, &mut len);
        if p.is_null() || len == 0 {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

pub fn set_name(v: Value, n: &str) {
    unsafe { LLVMSetValueName2(v, n.as_ptr() as *const _, n.len()) }
}

pub fn opcode(v: Value) -> Option<LLVMOpcode> {
    unsafe {
        if LLVMIsAInstruction(v).is_null() {
            None
        } else {
            Some(LLVMGetInstructionOpcode(v))
        }
    }
}

pub fn operand(v: Value, i: u32) -> Value {
    unsafe { LLVMGetOperand(v, i) }
}

pub fn functions(m: LLVMModuleRef) -> Vec<Value> {
    let mut out = vec![];
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.push(f);
            f = LLVMGetNextFunction(f);
        }
    }
    out
}

pub fn globals(m: LLVMModuleRef) -> Vec<Value> {
    let mut out = vec![];
    unsafe {
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            out.push(g);
            g = LLVMGetNextGlobal(g);
        }
    }
    out
}

pub fn is_declaration(g: Value) -> bool {
    unsafe { LLVMIsDeclaration(g) != 0 }
}

/// The basic blocks of a function, in order.
pub fn blocks(f: Value) -> Vec<LLVMBasicBlockRef> {
    let mut out = vec![];
    unsafe {
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            out.push(bb);
            bb = LLVMGetNextBasicBlock(bb);
        }
    }
    out
}

/// The instructions of one basic block, in order.
pub fn block_instructions(bb: LLVMBasicBlockRef) -> Vec<Value> {
    let mut out = vec![];
    unsafe {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            out.push(i);
            i = LLVMGetNextInstruction(i);
        }
    }
    out
}

/// All instructions of a function, in block order.
pub fn instructions(f: Value) -> Vec<Value> {
    blocks(f).into_iter().flat_map(block_instructions).collect()
}

/// The users of a value (one entry per use).
pub fn users(v: Value) -> Vec<(Value, u32)> {
    let mut out = vec![];
    unsafe {
        let mut u = LLVMGetFirstUse(v);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            // which operand slot of the user this use is
            let n = LLVMGetNumOperands(user).max(0) as u32;
            let mut slot = u32::MAX;
            for k in 0..n {
                if LLVMGetOperand(user, k) == v {
                    slot = k;
                    break;
                }
            }
            out.push((user, slot));
            u = LLVMGetNextUse(u);
        }
    }
    out
}

/// The callee of a call when it is a known function.
pub fn called_function(call: Value) -> Option<Value> {
    unsafe {
        let c = LLVMGetCalledValue(call);
        if c.is_null() || LLVMIsAFunction(c).is_null() {
            None
        } else {
            Some(c)
        }
    }
}

pub fn is_inline_asm_call(call: Value) -> bool {
    unsafe {
        let c = LLVMGetCalledValue(call);
        !c.is_null() && !LLVMIsAInlineAsm(c).is_null()
    }
}

pub fn inline_asm_text(call: Value) -> String {
    unsafe {
        let c = LLVMGetCalledValue(call);
        let mut len = 0usize;
        let p = LLVMGetInlineAsmAsmString(c, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// Where an instruction is: (file, line, column). Library code inlined into
/// the program (a libstdc++ header's std::atomic<T>::store, std::mutex::lock)
/// is placed at the user's line it was inlined into: the outermost
/// location of its inlining chain that is not in a library file.
pub fn debug_loc(i: Value) -> (String, u32, u32) {
    use llvm_sys::debuginfo::*;
    unsafe {
        let mut len = 0u32;
        let p = LLVMGetDebugLocFilename(i, &mut len);
        let file = if p.is_null() {
            String::new()
        } else {
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize)).into_owned()
        };
        let here = (file, LLVMGetDebugLocLine(i), LLVMGetDebugLocColumn(i));
        if !crate::cxx::is_library_file(&here.0) || LLVMIsAInstruction(i).is_null() {
            return here;
        }
        let mut loc = LLVMInstructionGetDebugLoc(i);
        while !loc.is_null() {
            let scope = LLVMDILocationGetScope(loc);
            let f = if scope.is_null() { std::ptr::null_mut() } else { LLVMDIScopeGetFile(scope) };
            if !f.is_null() {
                let mut n = 0u32;
                let p = LLVMDIFileGetFilename(f, &mut n);
                if !p.is_null() {
                    let name = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, n as usize)).into_owned();
                    if !crate::cxx::is_library_file(&name) {
                        return (name, LLVMDILocationGetLine(loc), LLVMDILocationGetColumn(loc));
                    }
                }
            }
            loc = LLVMDILocationGetInlinedAt(loc);
        }
        here
    }
}

pub fn function_of(i: Value) -> Value {
    unsafe { LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)) }
}

pub fn type_of(v: Value) -> LLVMTypeRef {
    unsafe { LLVMTypeOf(v) }
}

pub fn const_u64(v: Value) -> Option<u64> {
    unsafe {
        if LLVMIsAConstantInt(v).is_null() {
            None
        } else {
            Some(LLVMConstIntGetZExtValue(v))
        }
    }
}

/// The bytes of a constant C string `v` points to (a global with a
/// constant array initializer, directly or through a constant GEP at 0).
pub fn const_string(v: Value) -> Option<Vec<u8>> {
    unsafe {
        let mut g = v;
        if !LLVMIsAConstantExpr(g).is_null() && LLVMGetConstOpcode(g) == LLVMOpcode::LLVMGetElementPtr {
            g = LLVMGetOperand(g, 0);
        }
        if LLVMIsAGlobalVariable(g).is_null() || LLVMIsGlobalConstant(g) == 0 {
            return None;
        }
        let init = LLVMGetInitializer(g);
        if init.is_null() || LLVMIsConstantString(init) == 0 {
            return None;
        }
        let mut n = 0usize;
        let p = LLVMGetAsString(init, &mut n);
        Some(std::slice::from_raw_parts(p as *const u8, n).to_vec())
    }
}

pub fn message(p: *mut std::os::raw::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s
    }
}
