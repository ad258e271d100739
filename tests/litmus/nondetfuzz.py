#!/usr/bin/env python3
"""Randomized differential test of the search over wide nondet values:
`verify --outcomes` with a reduction against `--por none`.

Each program (deterministic in --seed and its index) has 2 or 3 threads
that branch on wide `__VERIFIER_nondet_int()` values: V and W, which main
takes before it spawns the threads (read by every thread, the shared
variables of the search), and values a thread takes itself. Ops: a store
of 1..3 to the shared x or y, a load of x or y into a register, an
mfence, `if (v OP c) { op }` with or without `else { op }` (v: V, W, the
thread's own value, or v plus a register it loaded), an assume on v, a
store of v into the shared z and a branch on what z holds when read back
(nondet or the initial 0, as the order gives). Registers and the final x
and y are the outcome (never a nondet value itself: only constants and
loads of x and y, so every execution of one class of values reports the
same outcome, whatever values the solver picked). With --own-assumes,
threads more often take a value of their own and assume on it before
anything else (verify does not take the failing side of such an assume;
the reference does). With --small every nondet value is a
`__VERIFIER_nondet_bool()`: a value choice the search enumerates (not a
symbolic value), taken inside the racing steps of the threads that take
their own: it exercises the rule that a step asleep or explored at a node
stands for every value of the value choices inside it. The programs lean
toward the shape that rule is about (a thread's own value chooses which
of x and y it writes; another thread reads one of them twice): a mutant
giving sleeping steps only the last execution's footprint fails seed 1
(program 7) where, without the lean, it passed 60 programs. The direct
check is tests/programs/nondet/sleeping-value-choice.c in
driver/tests/nondet.rs.

What it checks: for each model (sc, tso, pso) and each reduction in
--pors, the SET of outcomes equals the one `--por none` reports (which
tries every interleaving, and with TSOIFY_ASSUME_BOTH_SIDES=1 both sides
of every assume), and the verdicts agree. A reduction that
orders too few branch events (two threads' branches on one variable, a
branch and the store or load it depends on) loses an outcome here.

Verdicts per program: OK, PARTIAL (a run was cut by --timeout; nothing
compared), MISMATCH (sets differ: the programs and commands are kept in
--keep or a temporary directory, exit status 1), ERROR (a tool failed).

Usage:
  python3 tests/litmus/nondetfuzz.py --seed 1 --count 30
  python3 tests/litmus/nondetfuzz.py --seed 1 --only 7 --models tso --keep /tmp/nd
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CMPS = ["<", "<=", "==", "!=", ">", ">="]
CONSTS = [-1, 0, 1, 2, 5]


class Gen:
    """One random program: C text."""

    def __init__(self, rng, own_assumes=False, small=False):
        self.rng = rng
        self.regs = 0
        self.uses_w = False
        self.own_assumes = own_assumes
        self.small = small
        # what a nondet value is, and the constants it is compared with
        self.nondet = "__VERIFIER_nondet_bool()" if small else "__VERIFIER_nondet_int()"
        self.consts = [0, 1, 2] if small else CONSTS

    def reg(self):
        self.regs += 1
        return "r%d" % (self.regs - 1)

    def plain(self):
        """A memory op without a branch."""
        r = self.rng.random()
        if r < 0.4:
            return "%s = %d;" % (self.rng.choice("xy"), self.rng.randint(1, 3))
        if r < 0.8:
            return "%s = %s;" % (self.reg(), self.rng.choice("xy"))
        return "__atomic_thread_fence(__ATOMIC_SEQ_CST);"

    def value(self, own, loaded):
        """What a branch compares: a nondet value, or one plus a register."""
        choices = ["V", "V", "W", own] if own else ["V", "V", "W"]
        v = self.rng.choice(choices)
        if v == "W":
            self.uses_w = True
        if loaded and self.rng.random() < 0.25:
            return "%s + %s" % (v, self.rng.choice(loaded))
        return v

    def cond(self, own, loaded):
        return "%s %s %d" % (self.value(own, loaded), self.rng.choice(CMPS), self.rng.choice(self.consts))

    def thread(self, n_ops):
        lines, loaded = [], []
        own = None
        if self.rng.random() < (0.7 if self.own_assumes or self.small else 0.3):
            own = "u"
            lines.append("int u = %s;" % self.nondet)
            if self.own_assumes and self.rng.random() < 0.6:
                # before the thread loads or stores a nondet value: the
                # assume's failing side only stops the thread (verify
                # skips it; the reference takes it)
                lines.append("__VERIFIER_assume(u %s %d);" % (self.rng.choice(CMPS), self.rng.choice(self.consts)))
        for _ in range(n_ops):
            r = self.rng.random()
            if self.small and self.rng.random() < 0.3:
                # the shape of the sleeper-values rule: which variable a
                # step writes depends on its own choice, and another
                # thread reads one variable twice (a sleeping step must
                # stand for both its writes, or the store between the two
                # reads is lost)
                var = self.rng.choice("xy")
                if own and self.rng.random() < 0.5:
                    lines.append("if (%s) { %s = %d; } else { %s = %d; }" % (
                        own, var, self.rng.randint(1, 3), "y" if var == "x" else "x", self.rng.randint(1, 3)))
                else:
                    a, b = self.reg(), self.reg()
                    lines.append("%s = %s; %s = %s;" % (a, var, b, var))
                    loaded += [a, b]
                continue
            if r < 0.35:
                op = self.plain()
                if "= x;" in op or "= y;" in op:
                    loaded.append(op.split(" ")[0])
                lines.append(op)
            elif r < 0.7:
                body = self.plain()
                if self.rng.random() < 0.4:
                    lines.append("if (%s) { %s } else { %s }" % (self.cond(own, loaded), body, self.plain()))
                else:
                    lines.append("if (%s) { %s }" % (self.cond(own, loaded), body))
            elif r < 0.8:
                lines.append("__VERIFIER_assume(%s);" % self.cond(own, loaded))
            elif r < 0.9:
                lines.append("z = %s;" % self.value(own, []))
            else:
                lines.append("{ int t = z; if (t %s %d) { %s } }" % (self.rng.choice(CMPS), self.rng.choice(self.consts), self.plain()))
        if self.small and own and not any(re.search(r"\bu\b", l) for l in lines[1:]):
            # an enumerated value nothing reads doubles the reference's
            # executions for nothing (--por none then times out)
            lines = lines[1:]
        return lines

    def program(self, name, n_threads, max_ops):
        threads = [self.thread(self.rng.randint(1, max_ops)) for _ in range(n_threads)]
        regs = ["r%d" % i for i in range(self.regs)]
        out = ["/* %s: generated by tests/litmus/nondetfuzz.py */" % name,
               "#include <pthread.h>", '#include "tsoify.h"',
               "extern int __VERIFIER_nondet_int(void);",
               "extern _Bool __VERIFIER_nondet_bool(void);",
               "extern void __VERIFIER_assume(int);",
               "int x, y, z, V, W;"]
        if regs:
            out.append("int %s;" % ", ".join(regs))
        for i, body in enumerate(threads):
            out.append("static void *t%d(void *arg) {" % i)
            out += ["  " + l for l in body]
            out += ["  return 0;", "}"]
        out.append("int main(void) {")
        out.append("  V = %s;" % self.nondet)
        if self.uses_w:
            out.append("  W = %s;" % self.nondet)
        out.append("  pthread_t h[%d];" % n_threads)
        out += ["  pthread_create(&h[%d], 0, t%d, 0);" % (i, i) for i in range(n_threads)]
        out += ["  pthread_join(h[%d], 0);" % i for i in range(n_threads)]
        shown = regs + ["x", "y"]
        out.append('  tsoify_outcome("%s", %s);' % (" ".join("%s=%%d" % r for r in shown), ", ".join(shown)))
        out += ["  return 0;", "}"]
        return "\n".join(out) + "\n"


def make(seed, i, max_ops, own_assumes=False, small=False):
    rng = random.Random("%d/%d" % (seed, i))
    n_threads = 3 if rng.random() < (0.15 if small else 0.3) else 2
    # three threads get fewer ops (--por none, the reference, tries every
    # interleaving of every step: millions at four ops each)
    shorter = 2 if small else 1
    return Gen(rng, own_assumes, small).program("nondet_%d_%d" % (seed, i), n_threads, max_ops if n_threads == 2 else max(1, max_ops - shorter))


def tool(bin_dir, name):
    p = os.path.join(bin_dir, name)
    return p if os.path.exists(p) else shutil.which(name) or name


def outcomes(args, prog, model, por):
    js = "%s.%s.%s.json" % (prog, model, por)
    cmd = [tool(args.bin_dir, "verify"), "--quiet", "--outcomes", "--model", model, "--por", por,
           "--timeout", str(args.timeout), "--json", js, prog]
    # the reference also takes the failing side of every assume (verify
    # skips it where the assuming thread's values are its own)
    env = dict(os.environ, TSOIFY_ASSUME_BOTH_SIDES="1") if por == "none" else None
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 60, env=env)
    if p.returncode not in (0, 1, 2) or not os.path.exists(js):
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()[-300:]))
    with open(js) as f:
        res = json.load(f)
    complete = res.get("verdict") != "UNKNOWN" and not res.get("incomplete")
    return sorted({o["outcome"] for o in res["outcomes"]}), res.get("verdict"), complete, " ".join(cmd)


def check(args, work, i):
    name = "nondet_%d_%d" % (args.seed, i)
    c = os.path.join(work, name + ".c")
    with open(c, "w") as f:
        f.write(make(args.seed, i, args.max_ops, args.own_assumes, args.small))
    prog = c[:-2] + ".tso"
    p = subprocess.run([tool(args.bin_dir, "tsoify"), c, "-o", prog], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        return "ERROR", "tsoify: " + p.stderr.strip()[-300:]
    status, notes = "OK", []
    for model in args.models:
        ref, ref_verdict, ref_done, ref_cmd = outcomes(args, prog, model, "none")
        if not ref_done:
            status = "PARTIAL" if status == "OK" else status
            continue
        for por in args.pors:
            got, verdict, done, cmd = outcomes(args, prog, model, por)
            if not done:
                status = "PARTIAL" if status == "OK" else status
                continue
            if got != ref or verdict != ref_verdict:
                status = "MISMATCH"
                notes.append("%s --por %s: %s %s against --por none: %s %s\n  %s\n  %s" % (
                    model, por, verdict, got, ref_verdict, ref, cmd, ref_cmd))
    return status, "\n".join(notes)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--only", help="comma-separated program indexes")
    ap.add_argument("--max-ops", type=int, default=4)
    ap.add_argument("--models", default="sc,tso,pso")
    ap.add_argument("--pors", default="optimal,source")
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--bin-dir", default=os.environ.get("TSOIFY_BIN_DIR", os.path.join(ROOT, "target", "release")))
    ap.add_argument("--keep", help="directory for the programs (kept on MISMATCH anyway)")
    ap.add_argument("--own-assumes", action="store_true",
                    help="threads more often take a value of their own and assume on it first")
    ap.add_argument("--small", action="store_true",
                    help="nondet values are _Bool (enumerated value choices), not wide ints")
    args = ap.parse_args()
    args.models = args.models.split(",")
    args.pors = args.pors.split(",")
    work = args.keep or tempfile.mkdtemp(prefix="nondetfuzz.")
    os.makedirs(work, exist_ok=True)
    which = [int(x) for x in args.only.split(",")] if args.only else range(args.count)
    counts, bad, partial = {}, False, []
    for i in which:
        try:
            status, notes = check(args, work, i)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            status, notes = "ERROR", str(e)
        counts[status] = counts.get(status, 0) + 1
        if status == "PARTIAL":
            partial.append(str(i))
        if status in ("MISMATCH", "ERROR"):
            bad = True
            print("nondet_%d_%d: %s\n%s" % (args.seed, i, status, notes), flush=True)
    print("nondetfuzz seed %d: %s%s" % (args.seed, ", ".join("%s %d" % kv for kv in sorted(counts.items())),
                                        " (partial: %s)" % " ".join(partial) if partial else ""))
    if bad:
        print("programs kept in %s" % work)
        sys.exit(1)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
