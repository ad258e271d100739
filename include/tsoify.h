/* tsoify.h - the few things a program under tsoify may call on purpose.
 *
 * Everything else (pthreads, __VERIFIER_*, assert) works unchanged; this
 * header is only needed to report an outcome for `verify --outcomes`.
 */
#ifndef TSOIFY_H
#define TSOIFY_H

#ifdef __cplusplus
extern "C" {
#endif

/* Record the outcome of this execution as a line of text (printf format).
 * `verify --outcomes` prints the set of distinct outcomes over all explored
 * executions; litmus tests assert that set. Several calls in one execution
 * are joined with a space. Outside verify it prints the line to stdout. */
void tsoify_outcome(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif
#endif
