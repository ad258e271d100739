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
    ("sched_yield", "__tsoify_yield"),
    ("pthread_yield", "__tsoify_yield"),
];

/// External functions that take pointers but touch no shared state the model
/// must see (they read their arguments' bytes natively, or only local data).
pub const HARMLESS_EXTERNALS: &[&str] = &[
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush", "perror", "snprintf", "sprintf",
    "vprintf", "vfprintf", "vsnprintf", "strlen", "strcmp", "strncmp", "strchr", "strrchr", "strstr",
    "memcmp", "atoi", "atol", "strtol", "strtoul", "tsoify_outcome", "__tsoify_outcome",
];

/// Functions whose semantics the model cannot give.
pub const REFUSED: &[(&str, &str)] = &[
    ("setjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("_setjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("sigsetjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("__sigsetjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("longjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("siglongjmp", "setjmp/longjmp jump across the runtime's view of the stack"),
    ("pthread_key_create", "thread-specific data is not modelled"),
    ("pthread_setspecific", "thread-specific data is not modelled"),
    ("pthread_getspecific", "thread-specific data is not modelled"),
    ("fork", "processes are not modelled"),
    ("signal", "signals are not modelled"),
];

pub fn redirect_of(name: &str) -> Option<&'static str> {
    REDIRECTS.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}

/// Functions whose call is the error, declared or defined (a defined one's
/// body is not run: the call itself ends the execution as reach_error).
pub fn is_error_function(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error")
}

pub fn refusal_of(name: &str) -> Option<&'static str> {
    REFUSED.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}
