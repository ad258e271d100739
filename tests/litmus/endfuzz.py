#!/usr/bin/env python3
"""Differential fuzzing of the ends of executions: the reductions against `--por none`.

An execution can end in many ways besides main returning after its joins:
a thread calls abort() (an SV-COMP assumption that fails, also inside an
atomic block) or exit(), or main returns without joining every thread. The
step that ends it stops every other thread, so the reductions must try the
other threads before it (dpor::other_threads_before_the_end), and nothing
in the events shows that race. oracle.py only knows executions that end
with every thread joined, so this script has no oracle: `--por none` is the
reference, and `--por optimal` and `--por source` must reach exactly its
outcome set under every model and bound.

The outcome of an execution is what was reported in it: a thread that
aborts or exits names itself and its registers; main, before it returns,
names the shared values and the registers of the threads it joined (another
thread may still end the execution after that). Each report is an atomic
block that also writes one shared counter, so the reports of an execution
come in an order its trace fixes, and equivalent executions report the same.

  endfuzz.py --seed 7 --count 100                 # 100 programs
  endfuzz.py --seed 7 --only 12 --keep /tmp/f     # rerun one, keep its files
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from types import SimpleNamespace

from fuzz import verify_outcomes

HERE = os.path.dirname(os.path.abspath(__file__))
VARS = ["x", "y", "z"]
CONFIGS = [("sc", 0), ("tso", 0), ("tso", 1), ("tso", 32), ("pso", 0), ("pso", 2), ("pso", 32)]


def gen_thread(rng, t, n_ops):
    """Ops of thread t: (kind, ...) tuples; registers are numbered per thread."""
    ops, regs = [], 0
    for _ in range(n_ops):
        kind = rng.choice(["store"] * 3 + ["load"] * 3 + ["end"] * 2 + ["block", "block"] + ["fence"])
        if kind == "end" and regs == 0:
            kind = "load"
        if kind == "store":
            ops.append(("store", rng.choice(VARS), rng.randint(1, 2)))
        elif kind == "load":
            ops.append(("load", regs, rng.choice(VARS)))
            regs += 1
        elif kind == "end":
            ops.append(("end", rng.choice(["abort", "abort", "exit"]), rng.randrange(regs), rng.randint(0, 2)))
        elif kind == "block":
            # assume_abort_if_not(v == k) in an atomic block, then a store
            ops.append(("block", rng.choice(VARS), rng.randint(0, 2), rng.choice(VARS), rng.randint(1, 2)))
        else:
            ops.append(("fence",))
    return ops, regs


def gen_program(rng):
    n = rng.choice([2, 2, 3])
    threads = [gen_thread(rng, t, rng.randint(2, 3 if n == 2 else 2)) for t in range(n)]
    joined = [t for t in range(n) if rng.random() < 0.6]
    main_ops = [("store", rng.choice(VARS), 3)] if rng.random() < 0.4 else []
    how = rng.choice(["return", "return", "exit", "pthread_exit"]) if len(joined) < n else "return"
    return {"threads": threads, "joined": joined, "main_ops": main_ops, "how": how}


def regs_fmt(t, regs):
    names = ["r%d_%d" % (t, r) for r in range(regs)]
    return " ".join("%s=%%d" % r for r in names), ", ".join(names)


def c_op(t, op, regs, blocks):
    if op[0] == "store":
        return "atomic_store_explicit(&%s, %d, memory_order_relaxed);" % (op[1], op[2])
    if op[0] == "load":
        return "r%d_%d = atomic_load_explicit(&%s, memory_order_relaxed);" % (t, op[1], op[2])
    if op[0] == "fence":
        return "atomic_thread_fence(memory_order_seq_cst);"
    fmt, args = regs_fmt(t, regs)
    def say(how):
        return 'tsoify_outcome("T%d %s %s"%s);' % (t, how, fmt, (", " + args) if args else "")
    name = "__VERIFIER_atomic_b%d_%d" % (t, len(blocks))
    if op[0] == "end":
        call = "abort();" if op[1] == "abort" else "exit(0);"
        blocks.append("void %s(void) { reports++; %s %s }" % (name, say(op[1]), call))
        return "if (r%d_%d == %d) %s();" % (t, op[2], op[3], name)
    blocks.append("void %s(void) {\n  if (atomic_load_explicit(&%s, memory_order_relaxed) != %d) { reports++; %s abort(); }\n"
                  "  atomic_store_explicit(&%s, %d, memory_order_relaxed);\n}" % (
                      name, op[1], op[2], say("abort"), op[3], op[4]))
    return "%s();" % name


def c_source(prog):
    blocks, funcs = [], []
    for t, (ops, regs) in enumerate(prog["threads"]):
        funcs.append((t, "".join("  %s\n" % c_op(t, op, regs, blocks) for op in ops)))
    out = ["#include <pthread.h>", "#include <stdatomic.h>", "#include <stdlib.h>", '#include "tsoify.h"',
           "atomic_int x, y, z;",
           "int reports; // each report writes it: the reports of one execution are ordered by the trace"]
    # registers are globals: a block (a function of its own) reports them
    for t, (ops, regs) in enumerate(prog["threads"]):
        if regs:
            out.append("int %s;" % ", ".join("r%d_%d" % (t, r) for r in range(regs)))
    out += blocks
    for t, body in funcs:
        out.append("void *t%d(void *arg) {\n%s  return 0;\n}" % (t, body))
    n = len(prog["threads"])
    main = ["int main(void) {", "  pthread_t h[%d];" % n]
    main += ["  pthread_create(&h[%d], 0, t%d, 0);" % (t, t) for t in range(n)]
    main += ["  " + c_op(9, op, 0, []) for op in prog["main_ops"]]
    main += ["  pthread_join(h[%d], 0);" % t for t in prog["joined"]]
    parts, args = ["x=%d y=%d z=%d"], ["atomic_load(&x)", "atomic_load(&y)", "atomic_load(&z)"]
    for t in prog["joined"]:
        fmt, a = regs_fmt(t, prog["threads"][t][1])
        if a:
            parts.append(fmt)
            args.append(a)
    out.append('void __VERIFIER_atomic_report(void) {\n  reports++;\n  tsoify_outcome("end %s", %s);\n}' % (" ".join(parts), ", ".join(args)))
    main.append("  __VERIFIER_atomic_report();")
    main.append({"return": "  return 0;", "exit": "  exit(0);", "pthread_exit": "  pthread_exit(0);"}[prog["how"]])
    main.append("}")
    return "\n".join(out + main) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--only", help="comma-separated program indexes to run")
    ap.add_argument("--pors", default="optimal,source")
    ap.add_argument("--timeout", type=int, default=20)
    ap.add_argument("--keep", help="directory for the programs (default: a temporary one)")
    ap.add_argument("--tsoify")
    ap.add_argument("--verify")
    a = ap.parse_args()
    bins = os.environ.get("TSOIFY_BIN_DIR") or os.path.join(HERE, "..", "..", "target", "release")
    tsoify, verify = a.tsoify or os.path.join(bins, "tsoify"), a.verify or os.path.join(bins, "verify")
    work = a.keep or tempfile.mkdtemp(prefix="endfuzz-")
    os.makedirs(work, exist_ok=True)
    only = {int(s) for s in a.only.split(",")} if a.only else None
    failed = 0
    for i in range(a.count):
        prog = gen_program(random.Random("%d/%d" % (a.seed, i)))
        if only is not None and i not in only:
            continue
        name = "end_%d_%d" % (a.seed, i)
        c = os.path.join(work, name + ".c")
        with open(c, "w") as f:
            f.write(c_source(prog))
        tso = os.path.join(work, name + ".tso")
        p = subprocess.run([tsoify, c, "-o", tso], capture_output=True, text=True)
        if p.returncode != 0:
            print("%s: tsoify failed: %s" % (name, p.stderr.strip()))
            failed += 1
            continue
        bad, skipped = [], []
        for model, bound in CONFIGS:
            ref, complete = verify_outcomes(SimpleNamespace(verify=verify, timeout=a.timeout, por="none"), tso, model, bound)
            if not complete:
                skipped.append("%s/K=%d" % (model, bound))
                continue
            for por in a.pors.split(","):
                got, _ = verify_outcomes(SimpleNamespace(verify=verify, timeout=a.timeout, por=por), tso, model, bound)
                if got != ref:
                    bad.append("%s K=%d --por %s: missing %s, extra %s" % (
                        model, bound, por, sorted(set(ref) - set(got)), sorted(set(got) - set(ref))))
        word = "FAIL (%s)" % c if bad else "OK" + (" (--por none unfinished: %s)" % " ".join(skipped) if skipped else "")
        print("%-12s %s" % (name, word), flush=True)
        for b in bad:
            print("    " + b)
        failed += bool(bad)
    print("endfuzz: %d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
