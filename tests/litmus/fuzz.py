#!/usr/bin/env python3
"""Randomized differential test: `verify --outcomes` against oracle.py.

Generates small random litmus programs (deterministically from --seed) in
oracle.py's description format, turns each into C with oracle.c_source(),
builds it with `tsoify` and explores it with `verify --outcomes`, and checks
that, for every model (sc, tso, pso) and for TSO every store-buffer bound in
--bounds, the SET of outcomes verify reports equals the set the brute-force
oracle (oracle.outcomes) computes. SC and PSO are always run unbounded.

Programs: 2 threads with 1 to 3 ops each (1 to --max-ops), or (probability 0.15) 3 threads
with 1 to 2 ops each and at most 4 in all (verify's PSO search grows fast
with the thread count); with --three-threads, 3 threads of 2 to --max-ops
ops each. Ops: a store of 1..3 to one of the shared ints x, y
(, z); a load into a fresh register; an mfence; an xchg; and, rarely, a 1- or
2-byte store or load inside a shared int (a mixed-size access). Every
register and the final value of every shared variable the program touches is
reported. With --atomic, threads also call __VERIFIER_atomic_ functions
that assume a shared int has a value and then store (SV-COMP atomic blocks,
and executions cut by a failed assume). Program i of seed S is named
fuzz_S_i and does not depend on --count, so `--only i` (with the same
--max-ops and --atomic) reruns it.

With --export, each TSO/PSO config is checked through export mode instead:
`tsoify --export --model M --buffer-size K` (K = 32 for the unbounded
configs: these programs never buffer that many stores), then `verify
--model sc` on the exported module, against the oracle's set for M and K.
That checks the export's encoding of the model and the reduction over its
runtime steps (each an atomic block that declares what it touches).

Verdicts per program: OK (all sets equal); PARTIAL (verify hit --timeout but
what it found so far is a subset of the oracle's set: not a failure);
MISMATCH (the sets differ; the program is then shrunk by removing ops while
the mismatch persists); ERROR (a tool failed). On MISMATCH or ERROR the C
files, their descriptions and reproduction commands are kept in --keep DIR (or
a temporary directory whose path is printed) and the exit status is 1.

Usage:
  python3 tests/litmus/fuzz.py --seed 1 --count 40
  python3 tests/litmus/fuzz.py --seed 2 --count 40 --bounds 0,1,2
  python3 tests/litmus/fuzz.py --seed 2 --only 20,23 --models tso --bounds 1

The binaries default to ../../target/debug relative to this script, or to
$TSOIFY_BIN_DIR when set; --tsoify and --verify override each one.
"""

import argparse
import collections
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402

# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

P_THREE_THREADS = 0.15
MAX_OPS_THREE_THREADS = 4
P_MIXED = 0.08
OP_WEIGHTS = (("st", 40), ("ld", 35), ("mfence", 10), ("xchg", 10))
# with --atomic: also __VERIFIER_atomic_ functions that assume and then store
ATOMIC_WEIGHTS = OP_WEIGHTS + (("atomic", 25),)


def gen_op(rng, shared, fresh_reg, weights=OP_WEIGHTS):
    """One random op over the shared variables `shared`."""
    if rng.random() < P_MIXED:
        return gen_mixed_op(rng, shared, fresh_reg)
    kind = rng.choices([k for k, _ in weights], [w for _, w in weights])[0]
    var = rng.choice(shared)
    if kind == "atomic":
        # assume var has a value (often the initial 0), then store
        return ("atomic", var, rng.choice((0, 0, 1, 2)), rng.choice(shared), rng.randint(1, 3))
    if kind == "st":
        return oracle.st(var, rng.randint(1, 3))
    if kind == "ld":
        return oracle.ld(fresh_reg(), var)
    if kind == "xchg":
        return ("xchg", var, rng.randint(1, 3))
    return oracle.FENCE


def gen_mixed_op(rng, shared, fresh_reg):
    """A 1- or 2-byte store or load inside a shared int (little-endian)."""
    size = rng.choice((1, 1, 2))
    loc = (rng.choice(shared), rng.randint(0, 4 - size), size)
    if rng.random() < 0.5:
        return oracle.st(loc, rng.randint(1, 3))
    return oracle.ld(fresh_reg(), loc)


def gen_shape(rng, max_ops, three=False):
    """Ops per thread, e.g. [3, 1] or [1, 2, 1]."""
    if three:
        return [rng.randint(2, max(2, max_ops)) for _ in range(3)]
    if rng.random() < P_THREE_THREADS:
        while True:
            shape = [rng.randint(1, 2) for _ in range(3)]
            if sum(shape) <= MAX_OPS_THREE_THREADS:
                return shape
    return [rng.randint(1, max_ops) for _ in range(2)]


def gen_threads(rng, max_ops, weights=OP_WEIGHTS, three=False):
    """Random thread bodies (lists of oracle ops)."""
    shared = ["x", "y", "z"][:rng.choice((2, 3))]
    regs = []

    def fresh_reg():
        regs.append("r%d" % len(regs))
        return regs[-1]

    return [[gen_op(rng, shared, fresh_reg, weights) for _ in range(n)]
            for n in gen_shape(rng, max_ops, three)]


def loc_var(loc):
    return loc if isinstance(loc, str) else loc[0]


def make_test(name, threads):
    """An oracle test dict: report every register and every shared variable."""
    regs = [op[1] for code in threads for op in code if op[0] == "ld"]
    shared = sorted({loc_var(op[1]) for code in threads for op in code
                     if op[0] in ("st", "xchg", "atomic")} |
                    {loc_var(op[3]) for code in threads for op in code
                     if op[0] == "atomic"} |
                    {loc_var(op[2]) for code in threads for op in code
                     if op[0] == "ld"})
    return dict(name=name, doc="random program generated by fuzz.py",
                threads=threads, regs=regs, final=shared)


def touches_memory(threads):
    """Whether some op accesses a shared variable (C needs one to declare)."""
    return any(op[0] != "mfence" for code in threads for op in code)


def gen_test(seed, index, max_ops=3, atomic=False, three=False):
    rng = random.Random("fuzz/%d/%d" % (seed, index))
    weights = ATOMIC_WEIGHTS if atomic else OP_WEIGHTS
    threads = gen_threads(rng, max_ops, weights, three)
    while not touches_memory(threads):
        threads = gen_threads(rng, max_ops, weights, three)
    return make_test("fuzz_%d_%d" % (seed, index), threads)


def fmt_loc(loc):
    return loc if isinstance(loc, str) else "%s[%d:%d]" % loc


def fmt_op(op):
    kind = op[0]
    if kind == "st":
        return "%s=%d" % (fmt_loc(op[1]), op[2])
    if kind == "ld":
        return "%s=%s" % (op[1], fmt_loc(op[2]))
    if kind == "xchg":
        return "xchg(%s,%d)" % (op[1], op[2])
    if kind == "atomic":
        return "atomic(%s==%d?%s=%d)" % (fmt_loc(op[1]), op[2], fmt_loc(op[3]), op[4])
    return "F"


def summary(t):
    """E.g. 'x=1; r0=y | y=1; F; r1=x[2:1]' (x[o:n]: the n bytes at offset o)."""
    return " | ".join("; ".join(fmt_op(op) for op in code) for code in t["threads"])

# ---------------------------------------------------------------------------
# Running the tools
# ---------------------------------------------------------------------------


class ToolError(Exception):
    pass


def run_tool(argv, timeout, retries=5):
    """Run argv; retry briefly if the binary is missing or being rebuilt."""
    for attempt in range(retries + 1):
        try:
            return subprocess.run(argv, capture_output=True, text=True,
                                  timeout=timeout)
        except OSError as e:
            if attempt == retries:
                raise ToolError("cannot run %s: %s" % (argv[0], e))
            time.sleep(3)
        except subprocess.TimeoutExpired:
            raise ToolError("%s did not stop within %ds" % (argv[0], timeout))


def build(tools, c_path):
    out = c_path[:-2] + ".tso"
    p = run_tool([tools.tsoify, c_path, "-o", out], timeout=120)
    if p.returncode != 0:
        raise ToolError("tsoify failed: %s" % p.stderr.strip())
    return out


def verify_args(tools, model, bound, json_path, prog):
    return [tools.verify, "--quiet", "--outcomes", "--model", model,
            "--buffer-size", str(bound), "--timeout", str(tools.timeout),
            "--por", tools.por,
            "--json", json_path, prog]


def verify_outcomes(tools, prog, model, bound):
    """(sorted outcomes, complete?) verify reports for prog under model/bound."""
    json_path = "%s.%s%d.json" % (prog, model, bound)
    if os.path.exists(json_path):
        os.remove(json_path)
    p = run_tool(verify_args(tools, model, bound, json_path, prog),
                 timeout=tools.timeout + 60)
    if p.returncode not in (0, 1, 2) or not os.path.exists(json_path):
        raise ToolError("verify exit %d: %s" % (p.returncode, p.stderr.strip()))
    with open(json_path) as f:
        res = json.load(f)
    outs = sorted({o["outcome"] for o in res["outcomes"]})
    return outs, res.get("verdict") != "UNKNOWN"

# ---------------------------------------------------------------------------
# Comparing
# ---------------------------------------------------------------------------


class Check(collections.namedtuple("Check", "model bound got want complete")):
    """verify's set `got` against the oracle's `want` for one config."""

    @property
    def status(self):
        if self.complete:
            return "ok" if self.got == self.want else "mismatch"
        return "partial" if set(self.got) <= set(self.want) else "mismatch"

    @property
    def label(self):
        return "%s K=%d" % (self.model, self.bound)


def configs(models, bounds):
    """(model, bound) pairs to check: TSO with each bound, others unbounded."""
    return [(m, b) for m in models for b in (bounds if m == "tso" else [0])]


def write_c(workdir, t):
    path = os.path.join(workdir, t["name"] + ".c")
    with open(path, "w") as f:
        f.write(oracle.c_source(t))
    return path


EXPORT_UNBOUNDED = 32  # the bound an unbounded config is exported with


def export(tools, c_path, model, bound):
    k = bound or EXPORT_UNBOUNDED
    out = "%s.%s%d.sc.bc" % (c_path[:-2], model, k)
    p = run_tool([tools.tsoify, "--export", "--model", model, "--buffer-size",
                  str(k), c_path, "-o", out], timeout=120)
    if p.returncode != 0:
        raise ToolError("tsoify --export failed: %s" % p.stderr.strip())
    return out


def run_checks(tools, workdir, t, cfgs):
    """A Check for each (model, bound) config."""
    c_path = write_c(workdir, t)
    prog = build(tools, c_path)
    checks = []
    for model, bound in cfgs:
        if tools.export and model != "sc":
            got, complete = verify_outcomes(tools, export(tools, c_path, model, bound), "sc", 0)
        else:
            got, complete = verify_outcomes(tools, prog, model, bound)
        checks.append(Check(model, bound, got, oracle.outcomes(t, model, bound),
                            complete))
    return checks


def binaries_stamp(tools):
    """Modification times of the two binaries (None when missing)."""
    return tuple(os.stat(p).st_mtime_ns if os.path.exists(p) else None
                 for p in (tools.tsoify, tools.verify))


def run_checks_retrying(tools, workdir, t, cfgs, retries=3):
    """run_checks, retried after a pause when a tool failed while the
    binaries were being rebuilt (e.g. tsoify and verify of two versions)."""
    for attempt in range(retries + 1):
        stamp = binaries_stamp(tools)
        try:
            return run_checks(tools, workdir, t, cfgs)
        except ToolError:
            if attempt == retries or binaries_stamp(tools) == stamp:
                raise
            time.sleep(5)


def still_mismatches(tools, workdir, t, model, bound):
    try:
        (c,) = run_checks_retrying(tools, workdir, t, [(model, bound)])
    except ToolError:
        return None
    return c if c.status == "mismatch" else None


def without_op(t, ti, oi, name):
    """t with op oi of thread ti removed (None if no memory access is left)."""
    threads = [list(code) for code in t["threads"]]
    del threads[ti][oi]
    threads = [code for code in threads if code]
    return make_test(name, threads) if touches_memory(threads) else None


def smaller_mismatch(tools, workdir, t, check, name):
    """(program, Check) for the first one-op-smaller program that still
    mismatches under check's config, or None."""
    for ti, code in enumerate(t["threads"]):
        for oi in range(len(code)):
            cand = without_op(t, ti, oi, name)
            c = cand and still_mismatches(tools, workdir, cand,
                                          check.model, check.bound)
            if c:
                return cand, c
    return None


def shrink(tools, workdir, t, check):
    """Greedily drop ops while verify and the oracle still disagree; returns
    the smallest program found and its Check."""
    name = "%s_min_%s%d" % (t["name"], check.model, check.bound)
    while True:
        smaller = smaller_mismatch(tools, workdir, t, check, name)
        if smaller is None:
            return t, check
        t, check = smaller

# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------


def fmt_set(outs):
    return "{%s}" % ", ".join(outs)


def set_diff(c):
    extra = sorted(set(c.got) - set(c.want))
    missing = sorted(set(c.want) - set(c.got))
    return "verify-only %s, oracle-only %s" % (fmt_set(extra), fmt_set(missing))


def check_lines(c, indent="    "):
    partial = "" if c.complete else " (incomplete: verify timed out)"
    return [indent + "%s: verify %s%s" % (c.label, fmt_set(c.got), partial),
            indent + "%s: oracle %s" % (c.label, fmt_set(c.want)),
            indent + set_diff(c)]


def keep_failure(tools, keepdir, t, c, rerun):
    """Write C file, description and reproduction commands; return the
    path of the note."""
    c_path = write_c(keepdir, t)
    base = c_path[:-2]
    note = "%s.%s-K%d.txt" % (base, c.model, c.bound)
    with open(note, "w") as f:
        f.write("description (oracle.py format):\n%r\n\n" % (t,))
        f.write("model %s, bound %d\n" % (c.model, c.bound))
        f.write("\n".join(check_lines(c, "")) + "\n\nreproduce:\n")
        f.write("  %s %s -o %s.tso\n" % (tools.tsoify, c_path, base))
        f.write("  %s\n" % " ".join(
            verify_args(tools, c.model, c.bound, base + ".json", base + ".tso")))
        f.write("  %s\n" % rerun)
    return note


def mismatch_lines(tools, workdir, keepdir, t, c, rerun):
    """Report lines for one mismatching config, shrinking it if asked."""
    lines = check_lines(c)
    lines.append("    kept %s" % keep_failure(tools, keepdir, t, c, rerun))
    if tools.no_shrink:
        return lines
    small, sc = shrink(tools, workdir, t, c)
    if small is t:
        return lines + ["    (already minimal)"]
    lines.append("    minimal: %s" % summary(small))
    lines += check_lines(sc, "      ")
    lines.append("      kept %s" % keep_failure(tools, keepdir, small, sc, rerun))
    return lines


def check_program(tools, workdir, keepdir, t, cfgs, rerun):
    """Check one program; returns (failed?, report lines). rerun(model,
    bound) is the command that reruns it."""
    head = "%-12s %-44s" % (t["name"], summary(t))
    try:
        checks = run_checks_retrying(tools, workdir, t, cfgs)
    except ToolError as e:
        return True, [head + " ERROR", "    " + str(e),
                      "    kept %s" % write_c(keepdir, t)]
    bad = [c for c in checks if c.status == "mismatch"]
    partial = [c.label for c in checks if c.status == "partial"]
    if not bad:
        word = "PARTIAL (%s)" % ", ".join(partial) if partial else "OK"
        return False, [head + " " + word]
    lines = [head + " MISMATCH"]
    for c in bad:
        lines += mismatch_lines(tools, workdir, keepdir, t, c,
                                rerun(c.model, c.bound))
    return True, lines

# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def int_list(text):
    return [int(s) for s in text.split(",") if s]


def default_bin_dir():
    return os.environ.get("TSOIFY_BIN_DIR") or os.path.normpath(
        os.path.join(HERE, "..", "..", "target", "debug"))


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--only", type=int_list, default=None,
                    help="comma-separated program indexes to run (reruns)")
    ap.add_argument("--models", default="sc,tso,pso")
    ap.add_argument("--max-ops", type=int, default=3,
                    help="at most this many ops per thread of a two-thread "
                    "program (default 3; longer programs reach more "
                    "store-then-own-load and overwrite patterns)")
    ap.add_argument("--atomic", action="store_true",
                    help="also generate __VERIFIER_atomic_ functions that "
                    "assume a value and then store (atomic blocks, failed "
                    "assumes)")
    ap.add_argument("--three-threads", action="store_true",
                    help="every program has 3 threads of 2 to --max-ops ops "
                    "(slower; reaches races that need a third thread)")
    ap.add_argument("--por", default="source", choices=["none", "source", "optimal"],
                    help="verify's partial order reduction (default source)")
    ap.add_argument("--bounds", type=int_list, default=[0],
                    help="TSO store-buffer bounds, 0 = unbounded (default 0)")
    ap.add_argument("--export", action="store_true",
                    help="check TSO/PSO through `tsoify --export` and "
                    "`verify --model sc` on the export")
    ap.add_argument("--keep", help="directory for failing programs")
    ap.add_argument("--tsoify", default=None)
    ap.add_argument("--verify", default=None)
    ap.add_argument("--timeout", type=int, default=30,
                    help="seconds per verify run (default 30)")
    ap.add_argument("--no-shrink", action="store_true",
                    help="do not minimise mismatching programs")
    a = ap.parse_args(argv)
    a.models = [m for m in a.models.split(",") if m]
    bad = [m for m in a.models if m not in oracle.MODELS]
    if bad:
        ap.error("unknown model(s): %s" % ", ".join(bad))
    bins = default_bin_dir()
    a.tsoify = a.tsoify or os.path.join(bins, "tsoify")
    a.verify = a.verify or os.path.join(bins, "verify")
    return a


def rerun_command(a, index, model, bound):
    return "python3 %s --seed %d --max-ops %d%s --only %d --models %s " \
        "--bounds %d --por %s --tsoify %s --verify %s" % (
            os.path.abspath(__file__), a.seed, a.max_ops,
            (" --atomic" if a.atomic else "") + (" --three-threads" if a.three_threads else "")
            + (" --export" if a.export else ""), index, model,
            bound, a.por, a.tsoify, a.verify)


def cleanup(workdir, keepdir):
    """Remove the scratch directory, except a non-empty failures directory."""
    for f in os.listdir(workdir):
        p = os.path.join(workdir, f)
        if not (p == keepdir and os.listdir(keepdir)):
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    if not os.listdir(workdir):
        os.rmdir(workdir)


def main(argv=None):
    a = parse_args(argv)
    cfgs = configs(a.models, a.bounds)
    workdir = tempfile.mkdtemp(prefix="tsoify-fuzz-")
    keepdir = a.keep or os.path.join(workdir, "failures")
    os.makedirs(keepdir, exist_ok=True)
    indexes = a.only if a.only is not None else range(a.count)
    print("fuzz: seed %d, %d program(s), configs %s" % (
        a.seed, len(indexes), " ".join("%s/K=%d" % c for c in cfgs)))
    start, failed = time.time(), 0
    try:
        for i in indexes:
            failed += run_one(a, workdir, keepdir, i, cfgs)
    finally:
        cleanup(workdir, keepdir)
    print("fuzz: %d of %d program(s) failed in %.1fs" % (
        failed, len(indexes), time.time() - start))
    if failed:
        print("fuzz: failing programs kept in %s" % keepdir)
    return 1 if failed else 0


def run_one(a, workdir, keepdir, i, cfgs):
    """Check program i of the seed and print its report; True if it failed."""
    t0 = time.time()
    bad, lines = check_program(a, workdir, keepdir, gen_test(a.seed, i, a.max_ops, a.atomic, a.three_threads), cfgs,
                               lambda m, b: rerun_command(a, i, m, b))
    lines[0] += " (%.1fs)" % (time.time() - t0)
    print("\n".join(lines), flush=True)
    return bad


if __name__ == "__main__":
    sys.exit(main())
