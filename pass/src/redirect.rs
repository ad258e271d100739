//! Calls the runtime takes over, and calls the pass refuses.
//!
//! A redirected function keeps its C signature; the pass renames its
//! declaration to the runtime's `__tsoify_*` twin, and stores the call's
//! source location into `__tsoify_cur_loc` just before each call so the
//! runtime can name it in a trace.

/// (program name, runtime name)
pub const REDIRECTS: &[(&str, &str)] = &[
    ("pthread_create", "__tsoify_pthread_create"),
    ("pthread_join", "__tsoify_pthread_join"),
    ("pthread_exit", "__tsoify_pthread_exit"),
    ("pthread_self", "__tsoify_pthread_self"),
    ("pthread_mutex_init", "__tsoify_pthread_mutex_init"),
    ("pthread_mutex_destroy", "__tsoify_pthread_mutex_destroy"),
    ("pthread_mutex_lock", "__tsoify_pthread_mutex_lock"),
    ("pthread_mutex_trylock", "__tsoify_pthread_mutex_trylock"),
    ("pthread_mutex_unlock", "__tsoify_pthread_mutex_unlock"),
    ("pthread_cond_init", "__tsoify_pthread_cond_init"),
    ("pthread_cond_destroy", "__tsoify_pthread_cond_destroy"),
    ("pthread_cond_wait", "__tsoify_pthread_cond_wait"),
    ("pthread_cond_timedwait", "__tsoify_pthread_cond_timedwait"),
    ("pthread_cond_signal", "__tsoify_pthread_cond_signal"),
    ("pthread_cond_broadcast", "__tsoify_pthread_cond_broadcast"),
    ("__VERIFIER_atomic_begin", "__tsoify_atomic_begin"),
    ("__VERIFIER_atomic_end", "__tsoify_atomic_end"),
    ("__VERIFIER_assume", "__tsoify_assume"),
    ("__VERIFIER_error", "__tsoify_reach_error"),
    ("reach_error", "__tsoify_reach_error"),
    ("__VERIFIER_nondet_bool", "__tsoify_nondet_bool"),
    ("__VERIFIER_nondet_char", "__tsoify_nondet_char"),
    ("__VERIFIER_nondet_uchar", "__tsoify_nondet_uchar"),
    ("__VERIFIER_nondet_short", "__tsoify_nondet_short"),
    ("__VERIFIER_nondet_ushort", "__tsoify_nondet_ushort"),
    ("__VERIFIER_nondet_int", "__tsoify_nondet_int"),
    ("__VERIFIER_nondet_uint", "__tsoify_nondet_uint"),
    ("__VERIFIER_nondet_long", "__tsoify_nondet_long"),
    ("__VERIFIER_nondet_ulong", "__tsoify_nondet_ulong"),
    ("__VERIFIER_nondet_longlong", "__tsoify_nondet_longlong"),
    ("__VERIFIER_nondet_ulonglong", "__tsoify_nondet_ulonglong"),
    ("__VERIFIER_nondet_pointer", "__tsoify_nondet_pointer"),
    ("__assert_fail", "__tsoify_assert_fail"),
    ("abort", "__tsoify_abort"),
    ("exit", "__tsoify_exit"),
    ("_exit", "__tsoify_exit"),
    ("malloc", "__tsoify_malloc"),
    ("calloc", "__tsoify_calloc"),
    ("realloc", "__tsoify_realloc"),
    ("free", "__tsoify_free"),
    ("memcpy", "__tsoify_libc_memcpy"),
    ("memmove", "__tsoify_libc_memcpy"),
    ("memset", "__tsoify_libc_memset"),
    ("strcpy", "__tsoify_libc_strcpy"),
    ("strncpy", "__tsoify_libc_strncpy"),
    ("strcat", "__tsoify_libc_strcat"),
    ("sscanf", "__tsoify_libc_sscanf"),
    ("__isoc99_sscanf", "__tsoify_libc_sscanf"),
    ("sprintf", "__tsoify_libc_sprintf"),
    ("snprintf", "__tsoify_libc_snprintf"),
    ("vsprintf", "__tsoify_libc_vsprintf"),
    ("vsnprintf", "__tsoify_libc_vsnprintf"),
    ("strlen", "__tsoify_libc_strlen"),
    ("strnlen", "__tsoify_libc_strnlen"),
    ("strcmp", "__tsoify_libc_strcmp"),
    ("strncmp", "__tsoify_libc_strncmp"),
    ("memcmp", "__tsoify_libc_memcmp"),
    ("strchr", "__tsoify_libc_strchr"),
    ("strrchr", "__tsoify_libc_strrchr"),
    ("strtol", "__tsoify_libc_strtol"),
    ("strtoul", "__tsoify_libc_strtoul"),
    ("strtoll", "__tsoify_libc_strtoll"),
    ("strtoull", "__tsoify_libc_strtoull"),
    ("atoi", "__tsoify_libc_atoi"),
    ("atol", "__tsoify_libc_atol"),
    ("atoll", "__tsoify_libc_atoll"),
    ("sched_yield", "__tsoify_yield"),
    ("pthread_yield", "__tsoify_yield"),
    // runtime/src/sync.c (not in an export: see NOT_IN_EXPORT)
    ("pthread_once", "__tsoify_pthread_once"),
    ("pthread_barrier_init", "__tsoify_pthread_barrier_init"),
    ("pthread_barrier_destroy", "__tsoify_pthread_barrier_destroy"),
    ("pthread_barrier_wait", "__tsoify_pthread_barrier_wait"),
    ("pthread_rwlock_init", "__tsoify_pthread_rwlock_init"),
    ("pthread_rwlock_destroy", "__tsoify_pthread_rwlock_destroy"),
    ("pthread_rwlock_rdlock", "__tsoify_pthread_rwlock_rdlock"),
    ("pthread_rwlock_wrlock", "__tsoify_pthread_rwlock_wrlock"),
    ("pthread_rwlock_tryrdlock", "__tsoify_pthread_rwlock_tryrdlock"),
    ("pthread_rwlock_trywrlock", "__tsoify_pthread_rwlock_trywrlock"),
    ("pthread_rwlock_unlock", "__tsoify_pthread_rwlock_unlock"),
    ("sem_init", "__tsoify_sem_init"),
    ("sem_destroy", "__tsoify_sem_destroy"),
    ("sem_wait", "__tsoify_sem_wait"),
    ("sem_trywait", "__tsoify_sem_trywait"),
    ("sem_post", "__tsoify_sem_post"),
    ("sem_getvalue", "__tsoify_sem_getvalue"),
    ("pthread_key_create", "__tsoify_pthread_key_create"),
    ("pthread_key_delete", "__tsoify_pthread_key_delete"),
    ("pthread_setspecific", "__tsoify_pthread_setspecific"),
    ("pthread_getspecific", "__tsoify_pthread_getspecific"),
    ("pthread_attr_init", "__tsoify_pthread_attr_init"),
    ("pthread_attr_destroy", "__tsoify_pthread_attr_destroy"),
    ("pthread_attr_setdetachstate", "__tsoify_pthread_attr_setdetachstate"),
    ("pthread_attr_getdetachstate", "__tsoify_pthread_attr_getdetachstate"),
    ("pthread_attr_setstacksize", "__tsoify_pthread_attr_setstacksize"),
    ("pthread_attr_setscope", "__tsoify_pthread_attr_setscope"),
    ("pthread_detach", "__tsoify_pthread_detach"),
    ("pthread_mutexattr_init", "__tsoify_pthread_mutexattr_init"),
    ("pthread_mutexattr_destroy", "__tsoify_pthread_mutexattr_destroy"),
    ("pthread_mutexattr_settype", "__tsoify_pthread_mutexattr_settype"),
    ("pthread_mutexattr_gettype", "__tsoify_pthread_mutexattr_gettype"),
];

/// libstdc++'s out-of-line members that C++ threads use (runtime/src/cxx.c),
/// by mangled name (Itanium ABI, libstdc++ of GCC 12 and later). The rest
/// of <thread>, <mutex>, <condition_variable> and <atomic> is inline in the
/// program and instrumented as C is: std::mutex::lock is a call of
/// pthread_mutex_lock, std::atomic<T> operations are LLVM atomics.
pub const CXX_REDIRECTS: &[(&str, &str)] = &[
    ("_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE", "__tsoify_cxx_thread_start"),
    ("_ZNSt6thread4joinEv", "__tsoify_cxx_thread_join"),
    ("_ZNSt6thread6detachEv", "__tsoify_cxx_thread_detach"),
    ("_ZNSt6thread6_StateD2Ev", "__tsoify_cxx_thread_state_destroy"),
    ("_ZNSt6thread6_StateD1Ev", "__tsoify_cxx_thread_state_destroy"),
    ("_ZNSt18condition_variableC1Ev", "__tsoify_cxx_cond_init"),
    ("_ZNSt18condition_variableC2Ev", "__tsoify_cxx_cond_init"),
    ("_ZNSt18condition_variableD1Ev", "__tsoify_cxx_cond_destroy"),
    ("_ZNSt18condition_variableD2Ev", "__tsoify_cxx_cond_destroy"),
    ("_ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE", "__tsoify_cxx_cond_wait"),
    ("_ZNSt18condition_variable10notify_oneEv", "__tsoify_cxx_cond_notify_one"),
    ("_ZNSt18condition_variable10notify_allEv", "__tsoify_cxx_cond_notify_all"),
    ("_Znwm", "__tsoify_cxx_new"),
    ("_Znam", "__tsoify_cxx_new"),
    ("_ZnwmRKSt9nothrow_t", "__tsoify_cxx_new_nothrow"),
    ("_ZnamRKSt9nothrow_t", "__tsoify_cxx_new_nothrow"),
    ("_ZnwmSt11align_val_t", "__tsoify_cxx_new_aligned"),
    ("_ZnamSt11align_val_t", "__tsoify_cxx_new_aligned"),
    ("_ZdlPv", "__tsoify_cxx_delete"),
    ("_ZdaPv", "__tsoify_cxx_delete"),
    ("_ZdlPvm", "__tsoify_cxx_delete_sized"),
    ("_ZdaPvm", "__tsoify_cxx_delete_sized"),
    ("_ZdlPvSt11align_val_t", "__tsoify_cxx_delete_sized"),
    ("_ZdaPvSt11align_val_t", "__tsoify_cxx_delete_sized"),
    ("_ZdlPvmSt11align_val_t", "__tsoify_cxx_delete_sized_aligned"),
    ("_ZdaPvmSt11align_val_t", "__tsoify_cxx_delete_sized_aligned"),
    ("_ZSt9terminatev", "__tsoify_cxx_terminate"),
    ("__cxa_atexit", "__tsoify_cxx_atexit"),
    // time: a virtual clock (cxx.c), so executions replay alike
    ("_ZNSt6chrono3_V212steady_clock3nowEv", "__tsoify_cxx_clock_now"),
    ("_ZNSt6chrono3_V212system_clock3nowEv", "__tsoify_cxx_clock_now"),
    ("nanosleep", "__tsoify_cxx_sleep"),
    ("pthread_cond_clockwait", "__tsoify_pthread_cond_clockwait"),
];

/// C11's <threads.h> (runtime/src/c11threads.c): each is the pthread call
/// it stands for, with C11's return codes.
pub const C11_REDIRECTS: &[(&str, &str)] = &[
    ("thrd_create", "__tsoify_c11_thrd_create"),
    ("thrd_join", "__tsoify_c11_thrd_join"),
    ("thrd_exit", "__tsoify_c11_thrd_exit"),
    ("thrd_detach", "__tsoify_c11_thrd_detach"),
    ("thrd_current", "__tsoify_pthread_self"),
    ("thrd_yield", "__tsoify_c11_thrd_yield"),
    ("thrd_sleep", "__tsoify_c11_thrd_sleep"),
    ("mtx_init", "__tsoify_c11_mtx_init"),
    ("mtx_destroy", "__tsoify_c11_mtx_destroy"),
    ("mtx_lock", "__tsoify_c11_mtx_lock"),
    ("mtx_timedlock", "__tsoify_c11_mtx_timedlock"),
    ("mtx_trylock", "__tsoify_c11_mtx_trylock"),
    ("mtx_unlock", "__tsoify_c11_mtx_unlock"),
    ("cnd_init", "__tsoify_c11_cnd_init"),
    ("cnd_destroy", "__tsoify_c11_cnd_destroy"),
    ("cnd_signal", "__tsoify_c11_cnd_signal"),
    ("cnd_broadcast", "__tsoify_c11_cnd_broadcast"),
    ("cnd_wait", "__tsoify_c11_cnd_wait"),
    ("cnd_timedwait", "__tsoify_c11_cnd_timedwait"),
    ("call_once", "__tsoify_c11_call_once"),
    ("tss_create", "__tsoify_c11_tss_create"),
    ("tss_delete", "__tsoify_c11_tss_delete"),
    ("tss_get", "__tsoify_c11_tss_get"),
    ("tss_set", "__tsoify_c11_tss_set"),
];

/// Does passing a local's address as argument `slot` of the C++ library
/// call `callee` leave the local private? The runtime reads or writes these
/// objects only during the call, in the caller's thread, and keeps no
/// pointer to them (runtime/src/cxx.c): the std::thread object and the
/// unique_ptr handed to its start, the std::thread joined or detached, the
/// unique_lock a condition wait reads its mutex from, the times a sleep or
/// a timed wait is given.
pub fn cxx_arg_stays_private(callee: &str, slot: u32) -> bool {
    match redirect_of(callee) {
        Some("__tsoify_cxx_thread_start") => slot <= 1,
        Some("__tsoify_cxx_thread_join") | Some("__tsoify_cxx_thread_detach") => slot == 0,
        Some("__tsoify_cxx_cond_wait") => slot == 1,
        // the time a sleep or a timed wait is given (cxx.c reads it)
        Some("__tsoify_cxx_sleep") => slot <= 1,
        Some("__tsoify_pthread_cond_clockwait") => slot == 3,
        _ => false,
    }
}

/// libstdc++'s `std::__throw_*` helpers (a failed bounds check, a bad
/// length, a system error): each ends the execution as the termination it
/// would be in a program without exceptions (`__tsoify_cxx_throw`).
fn is_library_throw(name: &str) -> bool {
    name.starts_with("_ZSt") && name.contains("__throw_")
}

/// Redirects the export runtime (runtime/src/export.c) does not provide:
/// refused in export mode.
pub fn not_in_export(name: &str) -> bool {
    redirect_of(name).is_some_and(|r| r.starts_with("__tsoify_cxx_") || r.starts_with("__tsoify_c11_"))
        || name == "thrd_current"
        || name == "pthread_cond_clockwait"
        || name.starts_with("sem_")
        || name.starts_with("pthread_barrier_")
        || name.starts_with("pthread_rwlock_")
        || name.starts_with("pthread_attr_")
        || name.starts_with("pthread_mutexattr_")
        || matches!(name, "pthread_once" | "pthread_key_create" | "pthread_key_delete" | "pthread_setspecific" | "pthread_getspecific" | "pthread_detach")
}

/// External functions that take pointers but touch no shared state the model
/// must see (they read their arguments' bytes natively, or only local data).
pub const HARMLESS_EXTERNALS: &[&str] = &[
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush", "perror",
    "vprintf", "vfprintf", "strstr", "tsoify_outcome", "__tsoify_outcome",
];

/// Functions whose semantics the model cannot give.
pub const REFUSED: &[(&str, &str)] = &[
    ("setjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("_setjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("sigsetjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("__sigsetjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("longjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("siglongjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("fork", "processes are not modelled"),
    ("__cxa_throw", "C++ exceptions are not modelled"),
    ("__cxa_rethrow", "C++ exceptions are not modelled"),
    ("__cxa_allocate_exception", "C++ exceptions are not modelled"),
    ("__cxa_guard_acquire", "the thread-safe initialisation of a function-local static is not modelled"),
    ("signal", "signals are not modelled"),
];

pub fn redirect_of(name: &str) -> Option<&'static str> {
    REDIRECTS
        .iter()
        .chain(CXX_REDIRECTS)
        .chain(C11_REDIRECTS)
        .find(|(n, _)| *n == name)
        .map(|(_, r)| *r)
        .or_else(|| is_library_throw(name).then_some("__tsoify_cxx_throw"))
}

/// Functions whose call is the error, declared or defined (a defined one's
/// body is not run: the call itself ends the execution as reach_error).
pub fn is_error_function(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error")
}

pub fn refusal_of(name: &str) -> Option<&'static str> {
    REFUSED.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}
