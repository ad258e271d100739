/* libc.c - the C library calls the pass redirects here: the heap,
 * __VERIFIER_*, assert/abort/exit, and outcome reporting.
 *
 * The heap is a bump arena per thread in memory the runtime reserved before
 * the fork loop: deterministic addresses in every execution, restored by
 * resetting one pointer per thread, and independent of how the steps of
 * different threads interleave (so malloc needs no scheduling point and is
 * no dependency for partial order reduction, and an address seen in one
 * execution names the same block in every reordering of it). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

#if UINTPTR_MAX > 0xffffffffu
#define HEAP_BYTES (1ull << 32) /* reserved, not committed */
#else
/* a 32-bit (ILP32) program has 4 GiB of address space in all: 16 MiB a thread */
#define HEAP_BYTES (1u << 30)
#endif
#define HEAP_SLICE (HEAP_BYTES / RT_MAX_THREADS)
#define HEAP_ALIGN 16

struct block { uint64_t size; uint64_t freed; };

static char *heap_base;
static char *heap_top[RT_MAX_THREADS]; /* data segment: restored with it */
char *rt_heap_lo, *rt_heap_hi;
/* One byte per HEAP_ALIGN bytes of the arenas: 1 where a freed block's
 * bytes are (blocks are never reused, so freed stays freed until the
 * execution ends; scrubbed with the arenas). */
static uint8_t *freed_map;

void rt_heap_init(void) {
  heap_base = rt_scratch(HEAP_BYTES);
  freed_map = rt_scratch(HEAP_BYTES / HEAP_ALIGN);
  rt_heap_lo = heap_base, rt_heap_hi = heap_base + HEAP_BYTES;
  for (int t = 0; t < RT_MAX_THREADS; t++) heap_top[t] = heap_base + (size_t)t * HEAP_SLICE;
}

void rt_heap_check(const void *addr, uint64_t size, int write, uint32_t loc) {
  size_t first = (size_t)((const char *)addr - heap_base) / HEAP_ALIGN;
  size_t last = (size_t)((const char *)addr + (size ? size : 1) - 1 - heap_base) / HEAP_ALIGN;
  for (size_t g = first; g <= last && g < HEAP_BYTES / HEAP_ALIGN; g++)
    if (freed_map[g])
      rt_end(TSOIFY_ST_FREED, loc, "%s %u byte%s of freed memory at %p%s", write ? "write to" : "read of", (unsigned)size,
             size == 1 ? "" : "s", addr, write == 2 ? " (a store buffered before the free, flushed after it)" : "");
}

/* Called after an execution, before the data segment (and with it
 * heap_top) is restored: calloc relies on arena memory being zero. */
void rt_heap_scrub(void) {
  for (int t = 0; t < RT_MAX_THREADS; t++) {
    char *base = heap_base + (size_t)t * HEAP_SLICE;
    if (heap_top[t] > base) {
      memset(base, 0, (size_t)(heap_top[t] - base));
      memset(freed_map + (size_t)(base - heap_base) / HEAP_ALIGN, 0, (size_t)(heap_top[t] - base) / HEAP_ALIGN);
    }
  }
}

void *__tsoify_malloc(size_t n) {
  size_t total = (sizeof(struct block) + n + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1);
  rt_await_spoil(); /* the arena moved on: a loop that allocates is not waiting */
  char *base = heap_base + (size_t)rt_cur * HEAP_SLICE;
  if (n > HEAP_SLICE || (size_t)(heap_top[rt_cur] - base) + total > HEAP_SLICE) return 0;
  struct block *b = (struct block *)heap_top[rt_cur];
  heap_top[rt_cur] += total;
  b->size = n;
  b->freed = 0;
  return b + 1; /* fresh pages are zero; malloc'd memory is not promised to be */
}

void *__tsoify_calloc(size_t n, size_t m) {
  if (m && n > SIZE_MAX / m) return 0;
  return __tsoify_malloc(n * m); /* arena memory is never reused, so it is zero */
}

void __tsoify_free(void *p) {
  if (!p) return;
  struct block *b = (struct block *)p - 1;
  size_t arena = (size_t)((char *)b - heap_base) / HEAP_SLICE;
  if ((char *)b < heap_base || arena >= RT_MAX_THREADS || (char *)b >= heap_top[arena]) rt_end(TSOIFY_ST_ABORT, rt_cur_loc, "free() of a pointer that malloc did not return");
  if (b->freed) rt_end(TSOIFY_ST_ABORT, rt_cur_loc, "double free");
  rt_mm_drop(rt_cur, p, b->size);
  b->freed = 1;
  /* the block's own bytes (its header is the runtime's) */
  if (b->size) memset(freed_map + (size_t)((char *)p - heap_base) / HEAP_ALIGN, 1, (b->size + HEAP_ALIGN - 1) / HEAP_ALIGN);
  rt_event(TSOIFY_EV_FREE, p, 0, b->size, rt_cur_loc, 0, 0);
}

void *__tsoify_realloc(void *p, size_t n) {
  void *q = __tsoify_malloc(n);
  if (p && q) {
    struct block *b = (struct block *)p - 1;
    extern void __tsoify_memcpy(void *, const void *, uint64_t, uint32_t);
    __tsoify_memcpy(q, p, b->size < n ? b->size : n, rt_cur_loc);
    __tsoify_free(p);
  }
  return q;
}

/* ---- __VERIFIER_* ---- */

/* A value from a domain small enough to enumerate is enumerated. A wider one
 * is drawn from a few representative values and the execution is flagged, so
 * `verify` can never answer SAFE on it (UNKNOWN instead). */
static const int64_t samples[] = {0, 1, -1, 2, INT_MAX, INT_MIN};

static int64_t nondet(unsigned bits, int is_signed) {
  int64_t v;
  uint32_t symbolic = 0; /* a variable of the explorer's input vector (aux2 of the event) */
  if (bits <= 1) v = rt_choose(2, TSOIFY_CH_NONDET);
  else if (bits <= 8) {
    v = rt_choose(256, TSOIFY_CH_NONDET);
    if (is_signed) v = (int8_t)v;
  } else if (bits <= 64 && rt_sym_active()) {
    /* a symbolic value (sym.c): the explorer's input, tracked from here */
    symbolic = 1;
    uint64_t u = rt_sym_nondet(bits);
    v = is_signed && bits < 64 ? (int64_t)(u << (64 - bits)) >> (64 - bits) : (int64_t)u;
  } else {
    rt_shm->flags |= TSOIFY_FL_NONDET_SAMPLED;
    v = samples[rt_choose(sizeof samples / sizeof *samples, TSOIFY_CH_NONDET)];
  }
  rt_event(TSOIFY_EV_NONDET, 0, (bits + 7) / 8, (uint64_t)v, rt_cur_loc, bits, symbolic);
  return v;
}

_Bool __tsoify_nondet_bool(void) { return (_Bool)nondet(1, 0); }
char __tsoify_nondet_char(void) { return (char)nondet(8, 1); }
unsigned char __tsoify_nondet_uchar(void) { return (unsigned char)nondet(8, 0); }
short __tsoify_nondet_short(void) { return (short)nondet(16, 1); }
unsigned short __tsoify_nondet_ushort(void) { return (unsigned short)nondet(16, 0); }
int __tsoify_nondet_int(void) { return (int)nondet(32, 1); }
unsigned __tsoify_nondet_uint(void) { return (unsigned)nondet(32, 0); }
long __tsoify_nondet_long(void) { return (long)nondet(8 * sizeof(long), 1); } /* 32 bits under ILP32 */
unsigned long __tsoify_nondet_ulong(void) { return (unsigned long)nondet(8 * sizeof(long), 0); }
long long __tsoify_nondet_longlong(void) { return (long long)nondet(64, 1); }
unsigned long long __tsoify_nondet_ulonglong(void) { return (unsigned long long)nondet(64, 0); }
void *__tsoify_nondet_pointer(void) {
  /* never symbolic: a pointer is sampled (and the answer UNKNOWN) */
  rt_shm->flags |= TSOIFY_FL_NONDET_SAMPLED;
  int64_t v = samples[rt_choose(sizeof samples / sizeof *samples, TSOIFY_CH_NONDET)];
  rt_event(TSOIFY_EV_NONDET, 0, sizeof(void *), (uint64_t)v, rt_cur_loc, 8 * sizeof(void *), 0);
  return (void *)(intptr_t)v;
}

/* The choice point of a program exported by `tsoify --export`: the pass
 * puts this in place of the export's own rt_choose (ABI.md, "Export mode"),
 * whose __VERIFIER_nondet_uint() would only be sampled here. */
uint32_t __tsoify_export_choice(uint32_t n, int kind) {
  (void)kind;
  if (n <= 1) return 0;
  uint32_t v = rt_choose(n, TSOIFY_CH_NONDET);
  rt_event(TSOIFY_EV_NONDET, 0, 4, v, rt_cur_loc, 32, 0);
  return v;
}

/* In place of the export's rt_touch (rt.h RT_TOUCH): what the current
 * runtime step reads or writes, as an event for the reduction. Its steps
 * are declared blocks (threads.c __tsoify_export_step_begin). */
void __tsoify_export_touch(uint64_t lo, uint64_t n, int how) {
  rt_event(TSOIFY_EV_TOUCH, (const void *)(uintptr_t)lo, 0, n, rt_cur_loc, (uint32_t)how, 0);
}

void __tsoify_assume(int cond) {
  if (!cond) rt_block_forever();
}

_Noreturn void __tsoify_assert_fail(const char *expr, const char *file, unsigned line, const char *func) {
  rt_end(TSOIFY_ST_ASSERT, rt_cur_loc, "%s:%u: %s: assertion `%s' failed", file, line, func ? func : "?", expr);
}

_Noreturn void __tsoify_reach_error(void) { rt_end(TSOIFY_ST_REACH_ERROR, rt_cur_loc, "reach_error() called"); }

_Noreturn void __tsoify_abort(void) {
  rt_end_point(0); /* under unreach-call an abort is a quiet end: others may run first */
  rt_end(TSOIFY_ST_ABORT, rt_cur_loc, "abort() called");
}

_Noreturn void __tsoify_exit(int code) {
  rt_end_point(1);
  rt_end(TSOIFY_ST_DONE, rt_cur_loc, code ? "exit(%d)" : 0, code);
}

/* ---- outcomes ---- */

void rt_outcome_reset(void) {
  rt_shm->outcome_len = 0;
  rt_shm->outcome[0] = 0;
}

void tsoify_outcome(const char *fmt, ...) {
  struct tsoify_shm *s = rt_shm;
  uint32_t len = s->outcome_len;
  if (len && len + 1 < TSOIFY_OUTCOME_BYTES) s->outcome[len++] = ' ';
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(s->outcome + len, TSOIFY_OUTCOME_BYTES - len, fmt, ap);
  va_end(ap);
  if (w > 0) len += (uint32_t)w;
  s->outcome_len = len < TSOIFY_OUTCOME_BYTES ? len : TSOIFY_OUTCOME_BYTES - 1;
}

/* libc memcpy/memmove/memset called by name (not as LLVM intrinsics) */
void *__tsoify_libc_memcpy(void *dst, const void *src, size_t n) {
  extern void __tsoify_memcpy(void *, const void *, uint64_t, uint32_t);
  __tsoify_memcpy(dst, src, n, rt_cur_loc);
  return dst;
}

void *__tsoify_libc_memset(void *dst, int c, size_t n) {
  extern void __tsoify_memset(void *, uint32_t, uint64_t, uint32_t);
  __tsoify_memset(dst, (uint32_t)(unsigned char)c, n, rt_cur_loc);
  return dst;
}

/* strcpy/strncpy/strcat: byte by byte through the memory model, so the
 * source is read as the thread sees it (own buffer, else memory) and the
 * copy is buffered like any store */
extern void __tsoify_load(const void *, void *, uint64_t, uint32_t, uint32_t);
extern void __tsoify_store(void *, const void *, uint64_t, uint32_t, uint32_t);

static char load_byte(const char *p) {
  char c;
  __tsoify_load(p, &c, 1, 0, rt_cur_loc);
  return c;
}

static void store_byte(char *p, char c) { __tsoify_store(p, &c, 1, 0, rt_cur_loc); }

char *__tsoify_libc_strcpy(char *dst, const char *src) {
  for (size_t i = 0;; i++) {
    char c = load_byte(src + i);
    store_byte(dst + i, c);
    if (c == 0) return dst;
  }
}

char *__tsoify_libc_strncpy(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i < n; i++) {
    char c = load_byte(src + i);
    store_byte(dst + i, c);
    if (c == 0) break;
  }
  for (; i < n; i++) store_byte(dst + i, 0); /* strncpy pads with zeros */
  return dst;
}

char *__tsoify_libc_strcat(char *dst, const char *src) {
  size_t end = 0;
  while (load_byte(dst + end) != 0) end++;
  __tsoify_libc_strcpy(dst + end, src);
  return dst;
}

/* sprintf and friends format natively (their arguments are read natively,
 * like printf's), then write the text through the model, byte by byte, as
 * strcpy does. */
#define FORMAT_TEXT 4096
static int store_text(char *dst, size_t room, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int len = vsnprintf(0, 0, fmt, again);
  va_end(again);
  if (len < 0 || room == 0) return len;
  size_t keep = (size_t)len < room - 1 ? (size_t)len : room - 1;
  char text[FORMAT_TEXT]; /* on the stack: the runtime allocates nothing the restore misses */
  if (keep >= sizeof text) rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "sprintf of more than %d characters", FORMAT_TEXT - 1);
  vsnprintf(text, sizeof text, fmt, ap);
  for (size_t i = 0; i < keep; i++) store_byte(dst + i, text[i]);
  store_byte(dst + keep, 0);
  return len;
}

int __tsoify_libc_vsnprintf(char *dst, size_t room, const char *fmt, va_list ap) { return store_text(dst, room, fmt, ap); }
int __tsoify_libc_vsprintf(char *dst, const char *fmt, va_list ap) { return store_text(dst, (size_t)-1, fmt, ap); }

int __tsoify_libc_snprintf(char *dst, size_t room, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = store_text(dst, room, fmt, ap);
  va_end(ap);
  return n;
}

int __tsoify_libc_sprintf(char *dst, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = store_text(dst, (size_t)-1, fmt, ap);
  va_end(ap);
  return n;
}

/* sscanf: the input is read through the model into a copy, scanned
 * natively into the runtime's slots, and each value it assigned is then
 * stored through the model at the program's pointer, with the size its
 * conversion gives it. */
#define SCAN_ARGS 16
#define SCAN_SLOT 1024
/* scratch, cleared before each use: kept out of the data segment, which
 * is restored after every execution */
static char (*scan_slots)[SCAN_SLOT];

void rt_libc_init(void) {
  scan_slots = rt_scratch(SCAN_ARGS * sizeof *scan_slots);
}

/* Bytes conversion `conv` with length modifier `len` (h, hh, l, ll, L, j,
 * z, t, q as 'H' for hh and 'Q' for ll) and `width` assigns at slot. */
static size_t scanned_size(char conv, char len, int width, const char *slot) {
  switch (conv) {
  case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'n':
    return len == 'H' ? 1 : len == 'h' ? 2 : len == 0 ? sizeof(int) : 8;
  case 'a': case 'e': case 'f': case 'g': case 'A': case 'E': case 'F': case 'G':
    return len == 'L' ? sizeof(long double) : len == 'l' ? sizeof(double) : sizeof(float);
  case 'c': return width > 0 ? (size_t)width : 1;
  case 's': case '[': return strnlen(slot, SCAN_SLOT - 1) + 1;
  case 'p': return sizeof(void *);
  default: return 0;
  }
}

int __tsoify_libc_sscanf(const char *str, const char *fmt, ...) {
  char copy[FORMAT_TEXT];
  size_t n = 0;
  while ((copy[n] = load_byte(str + n)) != 0)
    if (++n == sizeof copy) rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "sscanf of a string longer than %d characters", FORMAT_TEXT - 1);
  memset(scan_slots, 0, SCAN_ARGS * sizeof *scan_slots);
  char (*t)[SCAN_SLOT] = scan_slots;
  int r = sscanf(copy, fmt, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15]);
  va_list ap;
  va_start(ap, fmt);
  int slot = 0, matched = 0;
  for (const char *f = fmt; *f; f++) {
    if (*f != '%') continue;
    f++;
    if (*f == '%') continue;
    int suppress = *f == '*';
    if (suppress) f++;
    int width = 0;
    while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
    char len = 0;
    if (*f == 'h') len = f[1] == 'h' ? (f++, 'H') : 'h', f++;
    else if (*f == 'l') len = f[1] == 'l' ? (f++, 'Q') : 'l', f++;
    else if (*f && strchr("Ljztq", *f)) len = *f == 'L' ? 'L' : 'Q', f++;
    char conv = *f;
    if (conv == '[') { /* the scanset: a ']' right after '[' or '[^' belongs to it */
      f++;
      if (*f == '^') f++;
      if (*f == ']') f++;
      while (*f && *f != ']') f++;
    }
    if (!*f) break;
    if (suppress) continue;
    if (slot == SCAN_ARGS) rt_end(TSOIFY_ST_INTERNAL, rt_cur_loc, "sscanf with more than %d conversions", SCAN_ARGS);
    void *dst = va_arg(ap, void *);
    if (conv != 'n') {
      if (matched >= r) break; /* not assigned: the scan stopped before it */
      matched++;
    }
    size_t size = scanned_size(conv, len, width, t[slot]);
    for (size_t i = 0; i < size; i += RT_ENTRY_BYTES)
      __tsoify_store((char *)dst + i, t[slot] + i, size - i < RT_ENTRY_BYTES ? size - i : RT_ENTRY_BYTES, 0, rt_cur_loc);
    slot++;
  }
  va_end(ap);
  return r;
}

/* Functions that only read their arguments' bytes: they read them through
 * the model too (byte by byte, as the thread sees them: its own buffered
 * stores first), then do their job on what they read. */
size_t __tsoify_libc_strlen(const char *s) {
  size_t n = 0;
  while (load_byte(s + n) != 0) n++;
  return n;
}

size_t __tsoify_libc_strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && load_byte(s + n) != 0) n++;
  return n;
}

int __tsoify_libc_strncmp(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char x = (unsigned char)load_byte(a + i), y = (unsigned char)load_byte(b + i);
    if (x != y) return x < y ? -1 : 1;
    if (x == 0) return 0;
  }
  return 0;
}

int __tsoify_libc_strcmp(const char *a, const char *b) { return __tsoify_libc_strncmp(a, b, (size_t)-1); }

int __tsoify_libc_memcmp(const void *a, const void *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char x = (unsigned char)load_byte((const char *)a + i), y = (unsigned char)load_byte((const char *)b + i);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

char *__tsoify_libc_strchr(const char *s, int c) {
  for (size_t i = 0;; i++) {
    char x = load_byte(s + i);
    if (x == (char)c) return (char *)s + i;
    if (x == 0) return 0;
  }
}

char *__tsoify_libc_strrchr(const char *s, int c) {
  const char *last = 0;
  for (size_t i = 0;; i++) {
    char x = load_byte(s + i);
    if (x == (char)c) last = s + i;
    if (x == 0) return (char *)last;
  }
}

/* The number parsers read the string into a copy first (up to its end or
 * a bound no number needs), parse the copy, and point *end into s. */
#define NUMBER_TEXT 256
static size_t copy_text(const char *s, char *copy) {
  size_t n = 0;
  while (n + 1 < NUMBER_TEXT && (copy[n] = load_byte(s + n)) != 0) n++;
  copy[n] = 0;
  return n;
}

#define NUMBER_PARSER(type, name)                               \
  type __tsoify_libc_##name(const char *s, char **end, int base) { \
    char copy[NUMBER_TEXT], *e;                                   \
    copy_text(s, copy);                                           \
    type v = name(copy, &e, base);                                \
    if (end) *end = (char *)s + (e - copy);                       \
    return v;                                                     \
  }
NUMBER_PARSER(long, strtol)
NUMBER_PARSER(unsigned long, strtoul)
NUMBER_PARSER(long long, strtoll)
NUMBER_PARSER(unsigned long long, strtoull)

int __tsoify_libc_atoi(const char *s) { return (int)__tsoify_libc_strtol(s, 0, 10); }
long __tsoify_libc_atol(const char *s) { return __tsoify_libc_strtol(s, 0, 10); }
long long __tsoify_libc_atoll(const char *s) { return __tsoify_libc_strtoll(s, 0, 10); }

/* sched_yield: a scheduling point and nothing else */
int __tsoify_yield(void) {
  rt_sched_point();
  return 0;
}
