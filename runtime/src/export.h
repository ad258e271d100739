/* export.h - force-included (clang -include) into every runtime file of the
 * export build (-DTSOIFY_EXPORT). The entry points api.c defines get inner
 * names; export.c defines the ABI names as wrappers that make each one a
 * single atomic step for the SC checker. memcpy/memset keep their names:
 * they are not atomic as a whole, each 8-byte piece is (rt_piece_*). */
#define __tsoify_load rt_impl_load
#define __tsoify_store rt_impl_store
#define __tsoify_rmw rt_impl_rmw
#define __tsoify_cmpxchg rt_impl_cmpxchg
#define __tsoify_fence rt_impl_fence
#define __tsoify_stack_release rt_impl_stack_release

/* Checkers' interpreters run library calls natively, behind their back
 * (Nidhugg stops on llvm.memcpy with "Nondeterminism detected"): the export
 * runtime copies and compares with its own byte loops (export.c). Naming
 * them before <string.h> is read makes its declarations declare these. */
#define memcpy rt_x_memcpy
#define memmove rt_x_memmove
#define memset rt_x_memset
#define memcmp rt_x_memcmp
