//! Owning an LLVM context and module, reading and writing them.

use crate::ir;
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::bit_writer::LLVMWriteBitcodeToFile;
use llvm_sys::core::*;
use llvm_sys::ir_reader::LLVMParseIRInContext;
use llvm_sys::prelude::*;
use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum PassError {
    #[error("cannot read {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("{0}")]
    Unsupported(String),
    #[error("the program has no main function (tsoify verifies whole programs)")]
    NoMain,
    #[error("internal error: the instrumented module is invalid: {0}")]
    Invalid(String),
    #[error("cannot write {path}: {reason}")]
    Write { path: String, reason: String },
}

pub struct Module {
    pub ctx: LLVMContextRef,
    pub m: LLVMModuleRef,
}

impl Drop for Module {
    fn drop(&mut self) {
        unsafe {
            LLVMDisposeModule(self.m);
            LLVMContextDispose(self.ctx);
        }
    }
}

impl Module {
    /// Run LLVM's new pass manager on the module with a pipeline in `opt
    /// -passes=` syntax.
    pub fn run_passes(&self, passes: &std::ffi::CStr) -> Result<(), PassError> {
        use llvm_sys::transforms::pass_builder::*;
        unsafe {
            let opts = LLVMCreatePassBuilderOptions();
            let err = LLVMRunPasses(self.m, passes.as_ptr(), std::ptr::null_mut(), opts);
            LLVMDisposePassBuilderOptions(opts);
            if !err.is_null() {
                return Err(PassError::Invalid(ir::message(llvm_sys::error::LLVMGetErrorMessage(err))));
            }
        }
        Ok(())
    }

    pub fn write_bc(&self, path: &Path) -> Result<(), PassError> {
        let p = ir::cstr(&path.display().to_string());
        if unsafe { LLVMWriteBitcodeToFile(self.m, p.as_ptr()) } != 0 {
            return Err(PassError::Write { path: path.display().to_string(), reason: "LLVM could not write bitcode".into() });
        }
        Ok(())
    }

    pub fn parse_file(path: &Path) -> Result<Module, PassError> {
        let bytes = std::fs::read(path)
            .map_err(|e| PassError::Read { path: path.display().to_string(), reason: e.to_string() })?;
        Self::parse_bytes(&bytes, &path.display().to_string())
    }

    pub fn parse_text(text: &str) -> Result<Module, PassError> {
        Self::parse_bytes(text.as_bytes(), "<ir>")
    }

    fn parse_bytes(bytes: &[u8], what: &str) -> Result<Module, PassError> {
        unsafe {
            let ctx = LLVMContextCreate();
            let name = ir::cstr(what);
            // both parsers want a NUL-terminated buffer for text
            let mut data = bytes.to_vec();
            data.push(0);
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(data.as_ptr() as *const _, bytes.len(), name.as_ptr());
            let mut m: LLVMModuleRef = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            let is_bitcode = bytes.starts_with(b"BC\xC0\xDE");
            let failed = if is_bitcode {
                let r = LLVMParseBitcodeInContext2(ctx, buf, &mut m);
                LLVMDisposeMemoryBuffer(buf);
                r != 0
            } else {
                // takes ownership of buf
                LLVMParseIRInContext(ctx, buf, &mut m, &mut msg) != 0
            };
            if failed {
                LLVMContextDispose(ctx);
                let reason = if msg.is_null() { "not valid LLVM IR".to_string() } else { ir::message(msg) };
                return Err(PassError::Read { path: what.to_string(), reason });
            }
            Ok(Module { ctx, m })
        }
    }

    pub fn verify(&self) -> Result<(), PassError> {
        unsafe {
            let mut msg = std::ptr::null_mut();
            if LLVMVerifyModule(self.m, LLVMVerifierFailureAction::LLVMReturnStatusAction, &mut msg) != 0 {
                return Err(PassError::Invalid(ir::message(msg)));
            }
            if !msg.is_null() {
                LLVMDisposeMessage(msg);
            }
        }
        Ok(())
    }
}

/// An instrumented module plus what the pass noticed.
pub struct Instrumented {
    pub(crate) module: Module,
    /// Instrumented sites (loads, stores, RMWs, fences, mem intrinsics).
    pub sites: usize,
    /// Accesses left native because their memory is provably private.
    pub skipped_private: usize,
    /// Loops marked as await candidates (runtime/src/await.c).
    pub await_loops: usize,
    /// Fence points (`Options::fences`) that matched no store.
    pub unplaced_fences: Vec<crate::FencePoint>,
    /// Constructs allowed by --allow-unsupported (each with its source line).
    pub warnings: Vec<String>,
}

impl Instrumented {
    /// The width of a pointer in the module's data layout: 32 for an ILP32
    /// (-m32) program, 64 otherwise (the driver checks it against the data
    /// model it links the runtime for).
    pub fn pointer_bits(&self) -> u32 {
        unsafe { 8 * llvm_sys::target::LLVMPointerSize(llvm_sys::target::LLVMGetModuleDataLayout(self.module.m)) }
    }

    /// Whether the module calls into a C++ library (a declared function
    /// with a mangled name, or the C++ ABI's): it is linked with libstdc++
    /// then, a C program without it.
    pub fn needs_cxx_library(&self) -> bool {
        ir::functions(self.module.m).into_iter().any(|f| {
            let n = ir::name(f);
            let declared = unsafe { LLVMIsDeclaration(f) != 0 };
            declared && (n.starts_with("_Z") || n.starts_with("__cxa_") || n.starts_with("__gxx_"))
        })
    }

    pub fn to_ll_string(&self) -> String {
        unsafe {
            let p = LLVMPrintModuleToString(self.module.m);
            ir::message(p)
        }
    }

    pub fn write_ll(&self, path: &Path) -> Result<(), PassError> {
        std::fs::write(path, self.to_ll_string())
            .map_err(|e| PassError::Write { path: path.display().to_string(), reason: e.to_string() })
    }

    pub fn write_bc(&self, path: &Path) -> Result<(), PassError> {
        self.module.write_bc(path)
    }
}
