//! The tsoify runtime is C (see `src/*.c` and `ABI.md`); this crate builds
//! it into a static library and hands its bytes to the driver, which links
//! it into every instrumented program.

/// `libtsoify_rt.a`, as built by this crate's build script.
pub static LIBRARY: &[u8] = include_bytes!(concat!(env!("TSOIFY_RT_LIB_DIR"), "/libtsoify_rt.a"));
/// The header describing the channel between `verify` and the runtime.
pub const CHANNEL_HEADER: &str = include_str!("../include/tsoify_channel.h");
