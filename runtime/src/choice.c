/* choice.c - the one choice point, the event log, and ending an execution.
 *
 * All nondeterminism of an execution (thread schedule, buffer flushes,
 * nondet values) goes through rt_choose(), so an execution is a pure function
 * of the choice prefix the explorer wrote into the channel. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

struct tsoify_shm *rt_shm;
uint32_t rt_cur_loc;

/* standalone runs (no explorer) draw choices from this generator when
 * TSOIFY_SEED is set; otherwise they take alternative 0 everywhere. */
uint64_t rt_random_state;

static uint32_t standalone_pick(uint32_t n) {
  if (!rt_random_state) return 0;
  rt_random_state ^= rt_random_state << 13;
  rt_random_state ^= rt_random_state >> 7;
  rt_random_state ^= rt_random_state << 17;
  return (uint32_t)(rt_random_state % n);
}

uint32_t rt_choose(uint32_t n, int kind) {
  if (n <= 1) return 0;
  struct tsoify_shm *s = rt_shm;
  uint32_t k = s->trail_len;
  if (k >= TSOIFY_MAX_CHOICES) rt_end(TSOIFY_ST_INTERNAL, 0, "more than %u choice points in one execution", TSOIFY_MAX_CHOICES);
  uint32_t v = k < s->prefix_len ? s->choices[k].chosen : standalone_pick(n);
  if (v >= n)
    rt_end(TSOIFY_ST_INTERNAL, 0,
           "replay diverged at choice %u (%u of %u): the program is not deterministic under a fixed schedule", k, v, n);
  struct tsoify_choice *c = &s->choices[k];
  c->chosen = v;
  c->count = n;
  c->kind = (uint16_t)kind;
  c->thread = (uint16_t)rt_cur;
  c->event = s->n_events;
  s->trail_len = k + 1;
  return v;
}

uint32_t rt_choose_proc(uint32_t n, const uint16_t *procs) {
  if (n <= 1) return 0;
  struct tsoify_shm *s = rt_shm;
  uint32_t base = s->n_options;
  if (base + n > TSOIFY_MAX_OPTIONS) rt_end(TSOIFY_ST_INTERNAL, 0, "more than %u scheduling options in one execution", TSOIFY_MAX_OPTIONS);
  memcpy(&s->option_procs[base], procs, n * sizeof *procs);
  s->n_options = base + n;
  uint32_t v = rt_choose(n, TSOIFY_CH_SCHEDULE);
  s->choices[s->trail_len - 1].options = base;
  return v;
}

uint64_t rt_value_of(const void *bytes, uint32_t size) {
  uint64_t v = 0;
  memcpy(&v, bytes, size < 8 ? size : 8);
  return v;
}

void rt_event(int kind, const void *addr, uint32_t size, uint64_t value, uint32_t loc, uint32_t aux,
              uint32_t aux2) {
  struct tsoify_shm *s = rt_shm;
  if (!s->log_events) return;
  if (s->n_events >= TSOIFY_MAX_EVENTS) {
    s->flags |= TSOIFY_FL_EVENTS_TRUNC;
    return;
  }
  struct tsoify_event *e = &s->events[s->n_events++];
  e->thread = (uint16_t)rt_cur;
  e->kind = (uint8_t)kind;
  e->size = (uint8_t)(size > 255 ? 255 : size);
  e->loc = loc;
  e->addr = (uint64_t)(uintptr_t)addr;
  e->value = value;
  e->aux = aux;
  e->aux2 = aux2;
}

_Noreturn void rt_end(int status, uint32_t loc, const char *fmt, ...) {
  struct tsoify_shm *s = rt_shm;
  s->status = (uint32_t)status;
  s->status_loc = loc;
  s->status_thread = (uint32_t)rt_cur;
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
  }
  if (status != TSOIFY_ST_DONE && status != TSOIFY_ST_ASSUME)
    rt_event(TSOIFY_EV_ERROR, 0, 0, (uint64_t)status, loc, 0, 0);
  extern void rt_standalone_report(void);
  rt_standalone_report();
  rt_leave_execution();
}
