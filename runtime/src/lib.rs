//! The tsoify runtime is C (see `src/*.c` and `ABI.md`); this crate builds
//! it into a static library and hands its bytes to the driver, which links
//! it into every instrumented program.

/// `libtsoify_rt.a`, as built by this crate's build script.
pub static LIBRARY: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/libtsoify_rt.a"));
/// The same runtime built with -m32, for ILP32 programs; empty where the
/// machine could not build it (then `LIBRARY32_MISSING` says why).
pub static LIBRARY32: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/libtsoify_rt32.a"));
/// Why there is no 32-bit runtime (clang's first error), or "".
pub const LIBRARY32_MISSING: &str = include_str!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/rt32-missing.txt"));
/// The export-mode runtime as LLVM bitcode, runtime steps made atomic with
/// `__VERIFIER_atomic_begin/end` (`tsoify --export`).
pub static EXPORT_ATOMIC_BC: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/tsoify_export_atomic.bc"));
/// The same with one global pthread mutex (`--export-atomic mutex`).
pub static EXPORT_MUTEX_BC: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/tsoify_export_mutex.bc"));
/// The atomic-block runtime with flusher threads instead of flush choices
/// (`--export-flush threads`).
pub static EXPORT_ATOMIC_FLUSHERS_BC: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/tsoify_export_atomic_flushers.bc"));
/// The mutex runtime with flusher threads.
pub static EXPORT_MUTEX_FLUSHERS_BC: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/tsoify_export_mutex_flushers.bc"));
/// The mutex runtime with flusher threads for GenMC (`--export-for
/// genmc`): an access it would split stops GenMC with a named error.
pub static EXPORT_GENMC_BC: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/tsoify_export_genmc.bc"));
/// Glue that gives the glibc thread, mutex, assert and heap functions
/// GenMC's meaning (`--export-for genmc`, src/export_genmc.c).
pub static EXPORT_GENMC_GLUE_BC: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/tsoify_export_genmc_glue.bc"));
/// The header describing the channel between `verify` and the runtime.
pub const CHANNEL_HEADER: &str = include_str!("../include/tsoify_channel.h");
