/* context.c - see context.h. */
#include <stdint.h>
#include <string.h>
#include "context.h"

#if defined(__x86_64__)
/* rt_context_swap(&from->sp, to->sp) */
void rt_context_swap(void **save, void *next);
/* first code of a new context: entry() is in rbx */
void rt_context_start(void);
__asm__(".text\n"
        ".globl rt_context_swap\n"
        ".type rt_context_swap,@function\n"
        "rt_context_swap:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size rt_context_swap, .-rt_context_swap\n"
        ".globl rt_context_start\n"
        ".type rt_context_start,@function\n"
        "rt_context_start:\n"
        "  callq *%rbx\n"
        "  ud2\n"
        ".size rt_context_start, .-rt_context_start\n");

void rt_context_make(struct rt_context *c, char *stack, size_t size, void (*entry)(void)) {
  uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
  /* the address rt_context_swap returns to: after that `ret` the stack
   * pointer is 16-byte aligned, as the `call` in rt_context_start needs */
  uint64_t *ret = (uint64_t *)(top - 24);
  uint64_t *sp = ret - 7;
  /* word by word, not memset: a library call per thread start */
  sp[0] = 0x1f80 | ((uint64_t)0x037f << 32); /* default MXCSR and x87 control word */
  sp[1] = sp[2] = sp[3] = sp[4] = sp[6] = 0; /* r15 r14 r13 r12 rbp */
  sp[5] = (uint64_t)(uintptr_t)entry;        /* rbx */
  *ret = (uint64_t)(uintptr_t)rt_context_start;
  c->sp = sp;
}

void rt_context_switch(struct rt_context *from, struct rt_context *to) { rt_context_swap(&from->sp, to->sp); }

#elif defined(__i386__)
void rt_context_swap(void **save, void *next) __attribute__((regparm(0)));
void rt_context_start(void);
__asm__(".text\n"
        ".globl rt_context_swap\n"
        ".type rt_context_swap,@function\n"
        "rt_context_swap:\n"
        "  movl 4(%esp), %eax\n  movl 8(%esp), %edx\n"
        "  pushl %ebp\n  pushl %ebx\n  pushl %esi\n  pushl %edi\n"
        "  subl $4, %esp\n  fnstcw (%esp)\n"
        "  movl %esp, (%eax)\n"
        "  movl %edx, %esp\n"
        "  fldcw (%esp)\n  addl $4, %esp\n"
        "  popl %edi\n  popl %esi\n  popl %ebx\n  popl %ebp\n"
        "  ret\n"
        ".size rt_context_swap, .-rt_context_swap\n"
        ".globl rt_context_start\n"
        ".type rt_context_start,@function\n"
        "rt_context_start:\n"
        "  call *%ebx\n"
        "  ud2\n"
        ".size rt_context_start, .-rt_context_start\n");

void rt_context_make(struct rt_context *c, char *stack, size_t size, void (*entry)(void)) {
  uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
  /* after rt_context_swap's `ret` the stack pointer is 16-byte aligned,
   * as the `call` in rt_context_start needs */
  uint32_t *ret = (uint32_t *)(top - 20);
  uint32_t *sp = ret - 5;
  memset(sp, 0, 5 * sizeof *sp);
  sp[0] = 0x037f;                    /* default x87 control word */
  sp[3] = (uint32_t)(uintptr_t)entry; /* ebx */
  *ret = (uint32_t)(uintptr_t)rt_context_start;
  c->sp = sp;
}

void rt_context_switch(struct rt_context *from, struct rt_context *to) { rt_context_swap(&from->sp, to->sp); }

#else
void rt_context_make(struct rt_context *c, char *stack, size_t size, void (*entry)(void)) {
  getcontext(&c->uc);
  c->uc.uc_stack.ss_sp = stack;
  c->uc.uc_stack.ss_size = size;
  c->uc.uc_link = 0;
  makecontext(&c->uc, entry, 0);
}

void rt_context_switch(struct rt_context *from, struct rt_context *to) { swapcontext(&from->uc, &to->uc); }
#endif
