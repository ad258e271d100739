/* context.h - switching the one OS thread between program threads' stacks.
 *
 * glibc's swapcontext saves and restores the signal mask with a system call
 * on every switch (and getcontext on every thread start); program threads
 * never change their signal masks, so on x86-64 and i386 a switch is a few
 * instructions that save the callee-saved registers and the floating-point
 * control words on the old stack and restore them from the new one. Other
 * architectures fall back to ucontext. */
#ifndef TSOIFY_CONTEXT_H
#define TSOIFY_CONTEXT_H
#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
struct rt_context {
  void *sp; /* the saved stack pointer: registers are on the stack below it */
};
#else
#include <ucontext.h>
struct rt_context {
  ucontext_t uc;
};
#endif

/* A context that starts running entry() (which must never return) on the
 * given stack at the first switch to it. */
void rt_context_make(struct rt_context *c, char *stack, size_t size, void (*entry)(void));
/* Save the running context in *from and continue in *to. */
void rt_context_switch(struct rt_context *from, struct rt_context *to);

#endif
