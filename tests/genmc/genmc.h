/* Stand-in for GenMC's genmc.h: every macro/function given a plain meaning
 * for tsoify (written for the GenMC test-suite run; not GenMC's header). */
#ifndef GENMC_SHIM_H
#define GENMC_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdatomic.h>

/* tsoify redirects these itself (block the execution / nondet value) */
void __VERIFIER_assume(int);
int __VERIFIER_nondet_int(void);

/* GenMC thread API -> pthreads */
typedef pthread_t __VERIFIER_thread_t;
static inline __VERIFIER_thread_t __VERIFIER_spawn(void *(*f)(void *), void *arg)
{
	pthread_t t;
	pthread_create(&t, NULL, f, arg);
	return t;
}
#define __VERIFIER_spawn_symmetric(f, arg, th) __VERIFIER_spawn(f, arg)
static inline void *__VERIFIER_join(__VERIFIER_thread_t t)
{
	void *r;
	pthread_join(t, &r);
	return r;
}
#define __VERIFIER_join_symmetric(th) ((void)__VERIFIER_join(th))

/* spin-loop markers: plain loops (tsoify ends pure spin loops itself) */
#define __VERIFIER_loop_begin() ((void)0)
#define __VERIFIER_spin_start() ((void)0)
#define __VERIFIER_spin_end(c) ((void)(c))

/* annotations / hints: just the statement or expression */
#define __VERIFIER_local_write(s) do { s; } while (0)
#define __VERIFIER_final_write(s) do { s; } while (0)
#define __VERIFIER_helped_CAS(c) do { c; } while (0)
#define __VERIFIER_helping_CAS(c) do { c; } while (0)
#define __VERIFIER_speculative_read(c) (c)
#define __VERIFIER_confirming_read(c) (c)
#define __VERIFIER_confirming_CAS(c) (c)
#define __VERIFIER_final_CAS(c) (c)

/* optional block: GenMC discards every execution that runs it (it ends in
 * assume(0)), so its plain meaning is to skip it */
#define __VERIFIER_optional(x) do { } while (0)

/* hazard pointers: protect = acquire load; retire never frees (leaks), so
 * no use-after-free can come from reclamation */
typedef struct { int unused; } __VERIFIER_hp_t;
static __VERIFIER_hp_t __genmc_shim_hp;
#define __VERIFIER_hp_alloc() (&__genmc_shim_hp)
#define __VERIFIER_hp_protect(hp, p) ((void)(hp), __atomic_load_n((void **)(p), __ATOMIC_ACQUIRE))
#define __VERIFIER_hp_clear(hp) ((void)(hp))
#define __VERIFIER_hp_free(hp) ((void)(hp))
#define __VERIFIER_hp_retire(p) ((void)(p))

/* method boundaries: nothing */
#define __VERIFIER_method_begin(name, arg) ((void)0)
#define __VERIFIER_method_end(name, ret) ((void)0)

#endif
