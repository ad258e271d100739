//! What C++ needs beyond C: static constructors run in the model, and
//! refusals that name the C++ construct at the user's line.
//!
//! The library calls themselves are redirected by name like pthread calls
//! (redirect.rs, CXX_REDIRECTS; runtime/src/cxx.c).

use crate::ir::{self, Value};
use llvm_sys::core::*;
use llvm_sys::debuginfo::{LLVMDIBuilderCreateDebugLocation, LLVMDISubprogramGetLine, LLVMGetSubprogram, LLVMInstructionSetDebugLoc};
use llvm_sys::prelude::*;
use std::collections::{HashSet, VecDeque};

/// Static constructors (`llvm.global_ctors`: C++ dynamic initialisation,
/// `__attribute__((constructor))`) would run natively before the runtime's
/// `main`, outside any execution. They become calls at the start of the
/// program's `main`, in priority order: main's thread runs them first in
/// every execution, through the model, as C++ runs them before main.
pub fn run_constructors_in_main(ctx: LLVMContextRef, m: LLVMModuleRef, main: Value) {
    unsafe {
        let g = LLVMGetNamedGlobal(m, c"llvm.global_ctors".as_ptr());
        if g.is_null() {
            return;
        }
        let init = LLVMGetInitializer(g);
        let mut ctors: Vec<(u64, Value)> = vec![];
        if !init.is_null() && !LLVMIsAConstantArray(init).is_null() {
            let n = LLVMGetArrayLength2(LLVMTypeOf(init));
            for k in 0..n as u32 {
                let entry = LLVMGetOperand(init, k);
                let prio = ir::const_u64(LLVMGetOperand(entry, 0)).unwrap_or(65535);
                let f = LLVMGetOperand(entry, 1);
                if !LLVMIsAFunction(f).is_null() {
                    ctors.push((prio, f));
                }
            }
        }
        LLVMDeleteGlobal(g);
        if ctors.is_empty() {
            return;
        }
        ctors.sort_by_key(|&(p, _)| p); // stable: same priority keeps its order
        let b = LLVMCreateBuilderInContext(ctx);
        let entry = LLVMGetEntryBasicBlock(main);
        let first = ir::block_instructions(entry).into_iter().find(|&i| ir::opcode(i) != Some(llvm_sys::LLVMOpcode::LLVMAlloca));
        match first {
            Some(i) => LLVMPositionBuilderBefore(b, i),
            None => LLVMPositionBuilderAtEnd(b, entry),
        }
        let void = LLVMVoidTypeInContext(ctx);
        let ty = LLVMFunctionType(void, std::ptr::null_mut(), 0, 0);
        // a call in a function with debug info needs a location: main's line
        let sp = LLVMGetSubprogram(main);
        let loc = if sp.is_null() { std::ptr::null_mut() } else { LLVMDIBuilderCreateDebugLocation(ctx, LLVMDISubprogramGetLine(sp), 0, sp, std::ptr::null_mut()) };
        for (_, f) in ctors {
            let call = LLVMBuildCall2(b, ty, f, std::ptr::null_mut(), 0, c"".as_ptr());
            if !loc.is_null() {
                LLVMInstructionSetDebugLoc(call, loc);
            }
        }
        LLVMDisposeBuilder(b);
    }
}

extern "C" {
    // libstdc++'s demangler (the pass is linked with it through LLVM)
    fn __cxa_demangle(mangled: *const std::os::raw::c_char, buf: *mut std::os::raw::c_char, len: *mut usize, status: *mut i32) -> *mut std::os::raw::c_char;
    fn free(p: *mut std::ffi::c_void);
}

/// `name` demangled, if it is a C++ name.
pub fn demangle(name: &str) -> Option<String> {
    if !name.starts_with("_Z") {
        return None;
    }
    let c = ir::cstr(name);
    let mut status = 0;
    unsafe {
        let p = __cxa_demangle(c.as_ptr(), std::ptr::null_mut(), std::ptr::null_mut(), &mut status);
        if p.is_null() || status != 0 {
            return None;
        }
        let s = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
        free(p as *mut _);
        Some(s)
    }
}

/// A demangled name without template arguments and parameters:
/// `std::async`, `std::__basic_future::_M_get_result`.
pub fn short_name(demangled: &str) -> String {
    let mut out = String::new();
    let mut angle = 0usize;
    let mut paren = 0usize;
    for ch in demangled.chars() {
        match ch {
            '<' => angle += 1,
            '>' => angle = angle.saturating_sub(1),
            '(' => paren += 1,
            ')' => paren = paren.saturating_sub(1),
            _ if angle == 0 && paren == 0 => out.push(ch),
            _ => {}
        }
    }
    let out = out.trim().trim_end_matches(" const").trim().to_string();
    // a return type before the name (templates): keep the last word
    out.rsplit(' ').next().unwrap_or(&out).to_string()
}

/// A readable name for a function: demangled and shortened, or as it is.
pub fn readable(name: &str) -> String {
    demangle(name).map(|d| short_name(&d)).unwrap_or_else(|| name.to_string())
}

/// Code from a system header (libstdc++, libc): not the user's.
pub fn is_library_file(file: &str) -> bool {
    file.starts_with("/usr/") && file.contains("/include/")
}

/// For an instruction in library code (a libstdc++ template instantiated in
/// the program), the user's call that leads to it: the nearest call site in
/// the user's own files, searching the callers breadth first, as (the
/// library function called there, file:line). None if the instruction is
/// the user's own or no caller is.
pub fn user_call_site(inst: Value) -> Option<(String, String)> {
    let (file, _, _) = ir::debug_loc(inst);
    if !is_library_file(&file) {
        return None;
    }
    let mut seen: HashSet<Value> = HashSet::new();
    let mut queue: VecDeque<Value> = VecDeque::new();
    queue.push_back(ir::function_of(inst));
    while let Some(f) = queue.pop_front() {
        if !seen.insert(f) || seen.len() > 10_000 {
            continue;
        }
        for (user, _) in ir::users(f) {
            if ir::opcode(user) != Some(llvm_sys::LLVMOpcode::LLVMCall) && ir::opcode(user) != Some(llvm_sys::LLVMOpcode::LLVMInvoke) {
                continue;
            }
            if ir::called_function(user) != Some(f) {
                continue;
            }
            let (file, line, _) = ir::debug_loc(user);
            if !file.is_empty() && !is_library_file(&file) {
                let base = file.rsplit('/').next().unwrap_or(&file).to_string();
                let name = ir::name(f);
                // a global's dynamic initialiser (clang's, no line of its own)
                if name.starts_with("__cxx_global_var_init") || name.starts_with("_GLOBAL__sub_I") || line == 0 {
                    return Some(("the static initialisation".to_string(), base));
                }
                return Some((readable(&name), format!("{base}:{line}")));
            }
            queue.push_back(ir::function_of(user));
        }
    }
    None
}

/// The functions of a C++ module that come from library headers (libstdc++'s
/// templates and inline members, instantiated in the program) are marked
/// always-inline, so that `opt -passes=always-inline,sroa` folds them into
/// the user's functions: their accesses then carry the user's line (through
/// the inlining chain, ir::debug_loc), and the temporaries they pass between
/// each other (`this`, argument copies, tuples) become registers instead of
/// memory the model would buffer and show in every trace. Returns how many
/// were marked.
///
/// Library functions that lead to something tsoify refuses (a libstdc++
/// member it does not model, as std::async's futures and call_once) stay
/// out of line, so the refusal can name the library function the user
/// called and the user's line (user_call_site).
pub fn mark_library_inline(m: LLVMModuleRef) -> usize {
    use llvm_sys::debuginfo::*;
    let mut marked = 0;
    let refused = leads_to_refusal(m);
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let kind = |n: &str| LLVMGetEnumAttributeKindForName(n.as_ptr() as *const _, n.len());
        let (always, never, optnone) = (kind("alwaysinline"), kind("noinline"), kind("optnone"));
        let idx = llvm_sys::LLVMAttributeFunctionIndex;
        for f in ir::functions(m) {
            if ir::is_declaration(f) || ir::name(f) == "main" || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(f)) != 0 {
                continue;
            }
            let sp = LLVMGetSubprogram(f);
            if sp.is_null() {
                continue;
            }
            let file = LLVMDIScopeGetFile(sp);
            if file.is_null() {
                continue;
            }
            let mut n = 0u32;
            let p = LLVMDIFileGetFilename(file, &mut n);
            if p.is_null() {
                continue;
            }
            let mut name = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, n as usize)).into_owned();
            if !name.starts_with('/') {
                let d = LLVMDIFileGetDirectory(file, &mut n);
                if !d.is_null() {
                    name = format!("{}/{name}", String::from_utf8_lossy(std::slice::from_raw_parts(d as *const u8, n as usize)));
                }
            }
            if !is_library_file(&name) || refused.contains(&f) {
                continue;
            }
            LLVMRemoveEnumAttributeAtIndex(f, idx, never);
            LLVMRemoveEnumAttributeAtIndex(f, idx, optnone);
            LLVMAddAttributeAtIndex(f, idx, LLVMCreateEnumAttribute(ctx, always, 0));
            marked += 1;
        }
    }
    marked
}

/// Is `base` (a pointer's underlying object) std::thread's state object:
/// the heap object std::thread's constructor allocates for the callable and
/// its arguments (`new _State_impl`, inlined from std_thread.h), or the
/// `this` of a `std::thread::_State_impl` member (`_M_run`, the destructors)
/// that the new thread runs? Its accesses stay native: the creator fills it
/// before it publishes it to anyone (the thread start, a full fence, hands
/// it over), and afterwards only the new thread touches it (runtime/src/cxx.c),
/// so buffering these stores could show nothing but extra steps in every
/// trace. What the callable reaches through it (a reference, a pointer) is
/// instrumented as usual.
pub fn is_thread_state(base: Value) -> bool {
    unsafe {
        if !LLVMIsAArgument(base).is_null() {
            let f = LLVMGetParamParent(base);
            return LLVMGetParam(f, 0) == base && ir::name(f).starts_with("_ZNSt6thread11_State_impl");
        }
        if LLVMIsACallInst(base).is_null() {
            return false;
        }
        let Some(callee) = ir::called_function(base) else { return false };
        if ir::name(callee) != "_Znwm" {
            return false;
        }
        let mut len = 0u32;
        let p = LLVMGetDebugLocFilename(base, &mut len);
        !p.is_null() && std::slice::from_raw_parts(p as *const u8, len as usize).ends_with(b"bits/std_thread.h")
    }
}

/// Would the pass refuse this call (rewrite.rs, check_call): a function it
/// refuses by name, or an external one (an out-of-line libstdc++ member, a
/// system call) it neither redirects nor knows harmless that takes pointers?
fn refused_call(call: Value) -> bool {
    let Some(f) = ir::called_function(call) else { return false };
    if !ir::is_declaration(f) {
        return false;
    }
    let name = ir::name(f);
    if crate::redirect::refusal_of(&name).is_some() {
        return true;
    }
    if name.starts_with("llvm.")
        || name.starts_with("__tsoify")
        || name.starts_with("__VERIFIER_")
        || crate::redirect::redirect_of(&name).is_some()
        || crate::redirect::HARMLESS_EXTERNALS.contains(&name.as_str())
    {
        return false;
    }
    (0..unsafe { LLVMGetNumArgOperands(call) }).any(|k| unsafe {
        LLVMGetTypeKind(LLVMTypeOf(LLVMGetArgOperand(call, k))) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
    })
}

/// The defined functions that call a refused function, directly or through
/// other defined functions.
fn leads_to_refusal(m: LLVMModuleRef) -> HashSet<Value> {
    let mut bad: HashSet<Value> = HashSet::new();
    let mut queue: VecDeque<Value> = VecDeque::new();
    for f in ir::functions(m) {
        if ir::is_declaration(f) {
            continue;
        }
        let calls_refused = ir::instructions(f)
            .into_iter()
            .any(|i| matches!(ir::opcode(i), Some(llvm_sys::LLVMOpcode::LLVMCall) | Some(llvm_sys::LLVMOpcode::LLVMInvoke)) && refused_call(i));
        if calls_refused && bad.insert(f) {
            queue.push_back(f);
        }
    }
    while let Some(f) = queue.pop_front() {
        for (user, _) in ir::users(f) {
            if is_instruction(user) && ir::called_function(user) == Some(f) {
                let caller = ir::function_of(user);
                if bad.insert(caller) {
                    queue.push_back(caller);
                }
            }
        }
    }
    bad
}

fn is_instruction(v: Value) -> bool {
    unsafe { !LLVMIsAInstruction(v).is_null() }
}
