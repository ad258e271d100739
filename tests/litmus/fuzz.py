#!/usr/bin/env python3
"""Randomized differential test: `verify --outcomes` against oracle.py.

Generates small random litmus programs (deterministically from --seed) in
oracle.py's description format, turns each into C with oracle.c_source(),
builds it with `tsoify` and explores it with `verify --outcomes`, and checks
that, for every model (sc, tso, pso) and for TSO and PSO every store-buffer
bound in --bounds (SC unbounded), the SET of outcomes verify reports equals
the set the brute-force oracle (oracle.outcomes) computes. Include 32 (the
default bound, which these programs never fill) as well as 0: verify takes
other paths for bounded buffers. --pso-unbounded-only runs PSO unbounded
only, as fuzz.py did before (it then missed PSO bugs at K=2 and K=32).

Programs: 2 threads with 1 to 3 ops each (1 to --max-ops), or (probability 0.15) 3 threads
with 1 to 2 ops each and at most 4 in all (verify's PSO search grows fast
with the thread count); with --three-threads, 3 threads of 2 to --max-ops
ops each. Ops: a store of 1..3 to one of the shared ints x, y
(, z); a load into a fresh register; an mfence; an xchg; and, rarely, a 1- or
2-byte store or load inside a shared int (a mixed-size access). Every
register and the final value of every shared variable the program touches is
reported. With --atomic, threads also call __VERIFIER_atomic_ functions
that assume a shared int has a value and then store (SV-COMP atomic blocks,
and executions cut by a failed assume); with --assume, plain loads that
assume a value (__VERIFIER_assume outside any block). Program i of seed S
is named fuzz_S_i and does not depend on --count, so `--only i` (with the
same --max-ops, --atomic, --assume, --three-threads, --threads,
--max-total-ops, --corpus and --cas) reruns it. Without --threads,
--corpus, --cas and --assume a seed gives the same programs as before
those options existed.

--threads 3, --threads 4 or a mix (--threads 2,3,4): each program has one of
those thread counts, 1 to --max-ops ops per thread and at most
--max-total-ops ops in all (default 9 for 3 threads, 8 for 4: the oracle
then takes well under a second per program).

--corpus: programs shaped like Nidhugg's litmus corpus (see CorpusThread):
one shared `int vars[N]`, loads into locals that later ops depend on
(address: vars[1 + (a0 ^ a0)] or vars[a0 & 1]; data: vars[0] = (a0 ^ a0) + 2
or a0 + 1; control: if (a0 == 1) { ... }), re-reads of own stores, threads
that store 3-4 times to one or two elements, and C11 atomic_load_explicit /
atomic_store_explicit with memory_order_relaxed (some seq_cst) next to
plain accesses. In summaries, v[i] is vars[i], =~ relaxed, =! seq_cst.

--cas: also locked read-modify-writes, in the default shapes and with
--corpus alike: a compare-and-swap (__atomic_compare_exchange_n, strong,
seq_cst; the register gets 1 if it succeeded, else 0) or, half of the time,
__sync_val_compare_and_swap (the register gets the value it read, which a
failed CAS otherwise hides), and a fetch-add (__atomic_fetch_add, the
register gets the old value). Each is x86's locked cmpxchg / xadd: it waits
for an empty store buffer (all of them under PSO) and reads and writes
memory in one step. A CAS expects 0 (often) to 2 and half of the time
stores the expected value plus one, the steps of CAS rings and counters
(tests/programs/reduction/casrot-miss.c: a reduction that took a failed
CAS for a read lost interleavings, which fuzz.py without CAS never
generated). In corpus programs the result goes to a local, which later ops
may depend on like a loaded one. In summaries: r0=cas(x,0,1) (success),
r0=casv(x,0,1) (value read), r0=fadd(x,1).

--litmus [NAMES]: check oracle.py's litmus tests (all, or the named ones)
at the given models, bounds and --por instead of random programs (to check
the oracle itself against `verify --por none`).

With --export, each TSO/PSO config is checked through export mode instead:
`tsoify --export --model M --buffer-size K` (K = 32 for the unbounded
configs: these programs never buffer that many stores), then `verify
--model sc` on the exported module, against the oracle's set for M and K.
That checks the export's encoding of the model and the reduction over its
runtime steps (each an atomic block that declares what it touches).

Verdicts per program: OK (all sets equal); PARTIAL (verify hit --timeout but
what it found so far is a subset of the oracle's set: not a failure);
MISMATCH (the sets differ; the program is then shrunk by removing ops, a
load together with its report, and by making an op simpler (an if by its
body, an atomic access by a plain one, vars[c + (a ^ a)] by vars[c]) while
the mismatch persists); ERROR (a tool failed). On MISMATCH or ERROR the C
files, their descriptions and reproduction commands are kept in --keep DIR (or
a temporary directory whose path is printed) and the exit status is 1.

Usage:
  python3 tests/litmus/fuzz.py --seed 1 --count 40
  python3 tests/litmus/fuzz.py --seed 2 --count 40 --bounds 0,1,2
  python3 tests/litmus/fuzz.py --seed 2 --only 20,23 --models tso --bounds 1
  python3 tests/litmus/fuzz.py --seed 7 --count 100 --corpus --threads 2,3,4 --bounds 0,1,2,32
  python3 tests/litmus/fuzz.py --seed 9 --count 40 --cas --bounds 0,1,2,32
  python3 tests/litmus/fuzz.py --litmus --bounds 0,1,2,3,32 --por none

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
# with --assume: also plain loads that assume a value (no atomic block)
ASSUME_WEIGHTS = (("assume", 20),)
# with --cas: also locked compare-and-swaps and fetch-adds
CAS_WEIGHTS = (("cas", 20), ("fadd", 8))
P_CAS_VALUE = 0.5  # a CAS reports the value it read, not whether it succeeded
P_CAS_STEP = 0.5  # a CAS moves its location from e to e + 1 (rings, counters)


def cas_args(rng):
    """(EXPECTED, DESIRED) of a random CAS: the expected value often the
    initial 0, the desired value often one more (a ring or counter step)."""
    e = rng.choice((0, 0, 1, 2))
    return e, e + 1 if rng.random() < P_CAS_STEP else rng.randint(1, 3)


def gen_op(rng, shared, fresh_reg, weights=OP_WEIGHTS):
    """One random op over the shared variables `shared`."""
    if rng.random() < P_MIXED:
        return gen_mixed_op(rng, shared, fresh_reg)
    kind = rng.choices([k for k, _ in weights], [w for _, w in weights])[0]
    var = rng.choice(shared)
    if kind == "atomic":
        # assume var has a value (often the initial 0), then store
        return ("atomic", var, rng.choice((0, 0, 1, 2)), rng.choice(shared), rng.randint(1, 3))
    if kind == "assume":
        return ("assume", var, rng.choice((0, 0, 1, 2)))
    if kind == "st":
        return oracle.st(var, rng.randint(1, 3))
    if kind == "ld":
        return oracle.ld(fresh_reg(), var)
    if kind == "xchg":
        return ("xchg", var, rng.randint(1, 3))
    if kind == "cas":
        form = "casv" if rng.random() < P_CAS_VALUE else "cas"
        return (form, fresh_reg(), var) + cas_args(rng)
    if kind == "fadd":
        return ("fadd", fresh_reg(), var, rng.randint(1, 2))
    return oracle.FENCE


def gen_mixed_op(rng, shared, fresh_reg):
    """A 1- or 2-byte store or load inside a shared int (little-endian)."""
    size = rng.choice((1, 1, 2))
    loc = (rng.choice(shared), rng.randint(0, 4 - size), size)
    if rng.random() < 0.5:
        return oracle.st(loc, rng.randint(1, 3))
    return oracle.ld(fresh_reg(), loc)


def gen_counts(rng, nthreads, max_ops, budget, least=1):
    """Ops per thread for nthreads threads: least..max_ops each, at most
    budget in all (least per thread always)."""
    counts = [rng.randint(least, max(least, max_ops)) for _ in range(nthreads)]
    while sum(counts) > max(budget, least * nthreads):
        i = rng.choice([i for i, n in enumerate(counts) if n > least])
        counts[i] -= 1
    return counts


def gen_shape(rng, max_ops, three=False, threads=None, budget=None):
    """Ops per thread, e.g. [3, 1] or [1, 2, 1]. With threads (a list of
    thread counts), one of them, with 1 to max_ops ops per thread and at
    most budget ops in all."""
    if threads:
        n = rng.choice(threads)
        return gen_counts(rng, n, max_ops, budget or default_budget(n, max_ops))
    if three:
        return [rng.randint(2, max(2, max_ops)) for _ in range(3)]
    if rng.random() < P_THREE_THREADS:
        while True:
            shape = [rng.randint(1, 2) for _ in range(3)]
            if sum(shape) <= MAX_OPS_THREE_THREADS:
                return shape
    return [rng.randint(1, max_ops) for _ in range(2)]


def default_budget(nthreads, max_ops):
    """Ops in all for an nthreads-thread program: the oracle's state space
    (and verify's PSO search) grows fast with threads and ops."""
    return {2: 2 * max_ops, 3: 9, 4: 8}.get(nthreads, 2 * nthreads)


def gen_threads(rng, max_ops, weights=OP_WEIGHTS, three=False, threads=None,
                budget=None):
    """Random thread bodies (lists of oracle ops)."""
    shared = ["x", "y", "z"][:rng.choice((2, 3))]
    regs = []

    def fresh_reg():
        regs.append("r%d" % len(regs))
        return regs[-1]

    return [[gen_op(rng, shared, fresh_reg, weights) for _ in range(n)]
            for n in gen_shape(rng, max_ops, three, threads, budget)]

# Corpus shapes (--corpus): the shapes of Nidhugg's litmus corpus. Shared
# memory is one array `int vars[N]` (N = 2..4); loads go into locals
# (`int a3 = vars[1];`), each reported through a register (`r3 = a3;`, plain,
# so it is buffered and counts against K) right after the load or at the end
# of its thread.
# Address dependencies (`vars[1 + (a0 ^ a0)]`, or a real one: `vars[a0 & 1]`),
# data dependencies (`vars[0] = (a0 ^ a0) + 2`, `vars[0] = a0 + 1`), control
# dependencies (`if (a0 == 1) { vars[1] = 2; }`), re-reads of a location the
# thread stored to, threads that mostly store to one or two "home" elements,
# and C11 atomic loads and stores with memory_order_relaxed (and some
# seq_cst: a locked store) next to plain ones.

CORPUS_WEIGHTS = (("st", 30), ("ld", 22), ("rfi", 10), ("data", 10),
                  ("addr", 12), ("ctrl", 6), ("mfence", 5), ("xchg", 5))
# with --cas: also locked compare-and-swaps and fetch-adds into locals
CORPUS_CAS_WEIGHTS = (("cas", 12), ("fadd", 5))
CORPUS_ORDERS = ((None, 55), ("rlx", 35), ("sc", 10))
P_WRITER = 0.3  # a thread that only stores, to its home elements
P_HOME = 0.5  # another thread's store goes to a home element
P_REPORT_AT_ONCE = 0.5  # a local is reported right after its load


def gen_order(rng):
    return rng.choices([o for o, _ in CORPUS_ORDERS], [w for _, w in CORPUS_ORDERS])[0]


def ordered(op, order):
    return op + (order,) if order else op


class CorpusThread:
    """Generates the ops of one corpus-shaped thread."""

    def __init__(self, rng, nvars, fresh, weights=CORPUS_WEIGHTS):
        self.rng, self.nvars, self.fresh, self.weights = rng, nvars, fresh, weights
        self.homes = rng.sample(range(nvars), rng.choice((1, 1, 2)))
        self.locals, self.stored, self.ops = [], [], []
        self.reported = set()

    def elem(self, home_bias=P_HOME):
        if self.rng.random() < home_bias:
            return ("vars", self.rng.choice(self.homes))
        return ("vars", self.rng.randrange(self.nvars))

    def dep_index(self, local):
        """An index expression that depends on local."""
        rng = self.rng
        if rng.random() < 0.3:
            return ("&", local, 1)  # a real one: element 0 or 1
        return ("+", rng.randrange(self.nvars), ("^", local, local))

    def load(self, loc):
        name = self.fresh()
        self.locals.append(name)
        return ordered(("ldt", name, loc), gen_order(self.rng))

    def rmw(self, kind, loc):
        """A locked CAS or fetch-add on loc into a new local."""
        rng = self.rng
        name = self.fresh()
        self.locals.append(name)
        self.stored.append(loc)
        if kind == "fadd":
            return ("faddt", name, loc, rng.randint(1, 2))
        form = "casvt" if rng.random() < P_CAS_VALUE else "cast"
        return (form, name, loc) + cas_args(rng)

    def store(self, loc, v):
        self.stored.append(loc)
        return ordered(("st", loc, v), gen_order(self.rng))

    def data_value(self, a):
        rng = self.rng
        return rng.choice((("+", ("^", a, a), rng.randint(1, 3)), ("+", a, 1), a))

    def op(self, kind):
        rng = self.rng
        a = rng.choice(self.locals) if self.locals else None
        if kind in ("data", "addr", "ctrl") and a is None:
            kind = "ld"
        if kind == "rfi" and not self.stored:
            kind = "st"
        if kind == "st":
            return self.store(self.elem(), rng.randint(1, 3))
        if kind == "ld":
            return self.load(self.elem(0.3))
        if kind == "rfi":  # re-read an element this thread stored to
            return self.load(rng.choice(self.stored))
        if kind == "data":
            return self.store(self.elem(), self.data_value(a))
        if kind == "addr":
            loc = ("vars", self.dep_index(a))
            return self.load(loc) if rng.random() < 0.5 else \
                self.store(loc, rng.randint(1, 3))
        if kind == "ctrl":
            body = self.store(self.elem(), rng.choice((rng.randint(1, 3), self.data_value(a))))
            return ("if", ("==", a, rng.randint(0, 2)), [body])
        if kind == "xchg":
            return ("xchg", self.elem(), rng.randint(1, 3))
        if kind in ("cas", "fadd"):
            return self.rmw(kind, self.elem())
        return oracle.FENCE

    def generate(self, n):
        rng = self.rng
        writer = rng.random() < P_WRITER
        for _ in range(n):
            if writer:
                self.ops.append(self.store(self.elem(1), rng.randint(1, 3)))
                continue
            kind = rng.choices([k for k, _ in self.weights], [w for _, w in self.weights])[0]
            op = self.op(kind)
            self.ops.append(op)
            if to_local(op) and rng.random() < P_REPORT_AT_ONCE:
                self.ops.append(report(op[1]))
                self.reported.add(op[1])
        return self.ops + [report(a) for a in self.locals if a not in self.reported]


def to_local(op):
    """Whether op puts a value in a new thread-local (ldt, cast, ...)."""
    return op[0] == "ldt" or (op[0] in oracle.LOCKED_RMW and oracle.LOCKED_RMW[op[0]][2])


def to_register(op):
    """Whether op puts a value in a register (ld, cas, casv, fadd)."""
    return op[0] == "ld" or (op[0] in oracle.LOCKED_RMW and not oracle.LOCKED_RMW[op[0]][2])


def report(local):
    """The op that reports local through its register (a3 -> r3)."""
    return ("st", "r" + local[1:], local)


def gen_corpus_threads(rng, max_ops, threads, budget, weights=CORPUS_WEIGHTS):
    nvars = rng.choice((2, 2, 3, 3, 4))
    counter = []

    def fresh():
        counter.append(len(counter))
        return "a%d" % counter[-1]

    counts = gen_shape(rng, max_ops, threads=threads, budget=budget)
    return nvars, [CorpusThread(rng, nvars, fresh, weights).generate(n) for n in counts]


def loc_var(loc):
    return loc if isinstance(loc, str) else loc[0]


def is_report(op):
    """('st', REG, LOCAL): a corpus thread reporting a local."""
    return op[0] == "st" and isinstance(op[1], str) and isinstance(op[2], str)


def make_test(name, threads, nvars=None):
    """An oracle test dict: report every register and every shared variable
    (with nvars: a corpus program over int vars[nvars])."""
    if nvars:
        regs = [op[1] for code in threads for op in code if is_report(op)]
        return dict(name=name, doc="random corpus-shaped program generated by fuzz.py",
                    threads=threads, regs=regs, types={"vars": "int[%d]" % nvars},
                    final=[("v%d" % i, ("vars", i)) for i in range(nvars)])
    regs = [op[1] for code in threads for op in code if to_register(op)]
    shared = sorted({loc_var(op[1]) for code in threads for op in code
                     if op[0] in ("st", "xchg", "atomic", "assume")} |
                    {loc_var(op[3]) for code in threads for op in code
                     if op[0] == "atomic"} |
                    {loc_var(op[2]) for code in threads for op in code
                     if to_register(op)})
    return dict(name=name, doc="random program generated by fuzz.py",
                threads=threads, regs=regs, final=shared)


def touches_memory(threads):
    """Whether some op accesses a shared variable (C needs one to declare)."""
    return any(op[0] != "mfence" for code in threads for op in code)


def gen_test(seed, index, max_ops=3, atomic=False, three=False, threads=None,
             budget=None, corpus=False, cas=False, assume=False):
    """Program index of seed. Without threads, corpus and cas, the same
    program as before those options existed (the seeds in scripts/test)."""
    if corpus:
        rng = random.Random("fuzz-corpus/%d/%d" % (seed, index))
        weights = CORPUS_WEIGHTS + (CORPUS_CAS_WEIGHTS if cas else ())
        nvars, code = gen_corpus_threads(rng, max_ops, threads or [2], budget, weights)
        return make_test("fuzz_%d_%d" % (seed, index), code, nvars)
    rng = random.Random("fuzz/%d/%d" % (seed, index))
    weights = (ATOMIC_WEIGHTS if atomic else OP_WEIGHTS) + (CAS_WEIGHTS if cas else ()) \
        + (ASSUME_WEIGHTS if assume else ())
    code = gen_threads(rng, max_ops, weights, three, threads, budget)
    while not touches_memory(code):
        code = gen_threads(rng, max_ops, weights, three, threads, budget)
    return make_test("fuzz_%d_%d" % (seed, index), code)


def fmt_expr(e):
    if isinstance(e, (int, str)):
        return str(e)
    return "(%s%s%s)" % (fmt_expr(e[1]), e[0], fmt_expr(e[2]))


def fmt_loc(loc):
    if isinstance(loc, str):
        return loc
    if len(loc) == 2:  # corpus: vars[i]
        i = fmt_expr(loc[1])
        return "v[%s]" % (i[1:-1] if i.startswith("(") else i)
    return "%s[%d:%d]" % loc


ORDER_MARK = {None: "", "rlx": "~", "sc": "!"}


def fmt_op(op):
    kind = op[0]
    mark = ORDER_MARK[oracle.op_order(op)]
    if kind == "st":
        return "%s=%s%s" % (fmt_loc(op[1]), mark, fmt_expr(op[2]))
    if kind in ("ld", "ldt"):
        return "%s=%s%s" % (op[1], mark, fmt_loc(op[2]))
    if kind == "if":
        return "if(%s){%s}" % (fmt_expr(op[1])[1:-1], "; ".join(fmt_op(o) for o in op[2]))
    if kind == "xchg":
        return "xchg(%s,%d)" % (fmt_loc(op[1]), op[2])
    if kind == "atomic":
        return "atomic(%s==%d?%s=%d)" % (fmt_loc(op[1]), op[2], fmt_loc(op[3]), op[4])
    if kind == "assume":
        return "assume(%s==%d)" % (fmt_loc(op[1]), op[2])
    if kind in oracle.LOCKED_RMW:  # r0=cas(x,0,1), r0=casv(x,0,1), r0=fadd(x,1)
        name = kind[:-1] if oracle.LOCKED_RMW[kind][2] else kind
        return "%s=%s(%s)" % (op[1], name, ",".join(
            [fmt_loc(op[2])] + [fmt_expr(e) for e in op[3:]]))
    return "F"


def summary(t):
    """E.g. 'x=1; r0=y | y=1; F; r1=x[2:1]' (x[o:n]: the n bytes at offset o).
    Corpus programs: v[i] is vars[i], =~ a relaxed and =! a seq_cst atomic
    access; the reports (r3=a3) at the ends of threads are left out."""
    corpus = corpus_nvars(t)
    return " | ".join("; ".join(fmt_op(op) for op in code
                                if not (corpus and is_report(op)))
                      for code in t["threads"])

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
    # (a violation answers VIOLATION even where the search was cut)
    return outs, res.get("verdict") != "UNKNOWN" and not res.get("incomplete")

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


def configs(models, bounds, pso_bounded=True):
    """(model, bound) pairs to check: TSO and PSO with each bound (PSO only
    unbounded with pso_bounded False), SC unbounded."""
    bounded = ("tso", "pso") if pso_bounded else ("tso",)
    return [(m, b) for m in models for b in (bounds if m in bounded else [0])]


def store_count(t):
    """Most stores any one thread of t makes (registers included): a bound
    of at least that many never fills its buffer."""
    def stores(code):
        return sum(1 if op[0] == "st" or to_register(op) else
                   stores(op[2]) if op[0] == "if" else 0 for op in code)
    return max(stores(code) for code in t["threads"])


def oracle_outcomes(t, model, bound, cache):
    """oracle.outcomes, once per program and distinct model (a bound the
    buffers never reach is unbounded; SC has none)."""
    if model == "sc" or bound >= store_count(t):
        bound = 0
    key = (model, bound)
    if key not in cache:
        cache[key] = oracle.outcomes(t, model, bound)
    return cache[key]


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
    checks, cache = [], {}
    for model, bound in cfgs:
        if tools.export and model != "sc":
            got, complete = verify_outcomes(tools, export(tools, c_path, model, bound), "sc", 0)
        else:
            got, complete = verify_outcomes(tools, prog, model, bound)
        checks.append(Check(model, bound, got, oracle_outcomes(t, model, bound, cache),
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


def corpus_nvars(t):
    """N of a corpus program's int vars[N], or None."""
    ctype = t.get("types", {}).get("vars")
    return oracle.array_type(ctype)[1] if ctype else None


def op_uses(op):
    """The locals an op reads."""
    kind = op[0]
    used = set()
    if kind in ("st", "xchg"):
        used |= oracle.expr_locals(op[2]) if kind == "st" else set()
    if kind in oracle.LOCKED_RMW:
        for e in op[3:]:
            used |= oracle.expr_locals(e)
    if kind == "if":
        used |= oracle.expr_locals(op[1])
        for o in op[2]:
            used |= op_uses(o)
    for loc in oracle.op_locs(op):
        if isinstance(loc, tuple) and len(loc) == 2:
            used |= oracle.expr_locals(loc[1])
    return used


def rebuild(t, threads, name):
    threads = [code for code in threads if code]
    if not touches_memory(threads):
        return None
    return make_test(name, threads, corpus_nvars(t))


def without_op(t, ti, oi, name):
    """t with op oi of thread ti removed (None if no memory access is left,
    or another op than its report reads the local the op loads)."""
    threads = [list(code) for code in t["threads"]]
    op = threads[ti][oi]
    del threads[ti][oi]
    if to_local(op):
        if any(op[1] in op_uses(o) for o in threads[ti] if not is_report(o)):
            return None
        threads[ti] = [o for o in threads[ti] if not (is_report(o) and o[2] == op[1])]
    return rebuild(t, threads, name)


def simpler_op(t, ti, oi, name):
    """t with op oi of thread ti made simpler (an 'if' replaced by its body,
    an atomic access by a plain one), or None."""
    threads = [list(code) for code in t["threads"]]
    op = threads[ti][oi]
    loc = op[2] if op[0] in ("ld", "ldt") else op[1] if op[0] in ("st", "xchg") else None
    if op[0] == "if":
        threads[ti][oi:oi + 1] = op[2]
    elif oracle.op_order(op):
        threads[ti][oi] = op[:3]
    elif is_fake_dep(loc):  # vars[c + (a ^ a)] -> vars[c]
        static = ("vars", loc[1][1])
        threads[ti][oi] = op[:2] + (static,) if op[0] in ("ld", "ldt") else (op[0], static) + op[2:]
    else:
        return None
    return rebuild(t, threads, name)


def is_fake_dep(loc):
    """Whether loc is a corpus element vars[c + (a ^ a)]."""
    return isinstance(loc, tuple) and len(loc) == 2 and isinstance(loc[1], tuple) \
        and loc[1][0] == "+" and isinstance(loc[1][1], int)


def candidates(t, name):
    """Smaller programs, one op removed (or simplified) each."""
    for edit in (without_op, simpler_op):
        for ti, code in enumerate(t["threads"]):
            for oi in range(len(code)):
                if not is_report(code[oi]):
                    yield edit(t, ti, oi, name)


def smaller_mismatch(tools, workdir, t, check, name):
    """(program, Check) for the first one-op-smaller program that still
    mismatches under check's config, or None."""
    for cand in candidates(t, name):
        c = cand and still_mismatches(tools, workdir, cand, check.model, check.bound)
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
    ap.add_argument("--seed", type=int, default=None)
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
    ap.add_argument("--assume", action="store_true",
                    help="also generate plain loads that assume a value "
                    "(__VERIFIER_assume outside atomic blocks: executions "
                    "cut by a failed assume)")
    ap.add_argument("--three-threads", action="store_true",
                    help="every program has 3 threads of 2 to --max-ops ops "
                    "(slower; reaches races that need a third thread)")
    ap.add_argument("--threads", type=int_list, default=None,
                    help="comma-separated thread counts, e.g. 3 or 2,3,4: each "
                    "program has one of them (chosen at random), 1 to "
                    "--max-ops ops per thread and at most --max-total-ops in "
                    "all (replaces the default shape and --three-threads)")
    ap.add_argument("--max-total-ops", type=int, default=None,
                    help="with --threads: at most this many ops per program "
                    "(default 2 x --max-ops for 2 threads, 9 for 3, 8 for 4)")
    ap.add_argument("--corpus", action="store_true",
                    help="programs shaped like Nidhugg's litmus corpus: an "
                    "int array, address/data/control dependencies on loaded "
                    "values, re-reads of own stores, threads storing to one "
                    "or two elements, relaxed (and seq_cst) C11 atomics next "
                    "to plain accesses (2 threads unless --threads)")
    ap.add_argument("--cas", action="store_true",
                    help="also generate locked compare-and-swaps (reporting "
                    "success or the value read) and fetch-adds, in the "
                    "default and the --corpus shapes")
    ap.add_argument("--litmus", nargs="?", const="all", default=None,
                    help="check oracle.py's litmus tests (comma-separated "
                    "names, default all) instead of random programs")
    ap.add_argument("--pso-unbounded-only", action="store_true",
                    help="run PSO unbounded only (as before PSO took "
                    "--bounds too)")
    ap.add_argument("--por", default="optimal", choices=["none", "source", "optimal"],
                    help="verify's partial order reduction (default optimal, as verify's)")
    ap.add_argument("--bounds", type=int_list, default=[0],
                    help="TSO and PSO store-buffer bounds, 0 = unbounded "
                    "(default 0; include 32, verify's default, to check the "
                    "bounded code paths with a buffer that never fills)")
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
    if a.seed is None and not a.litmus:
        ap.error("--seed is required (or --litmus)")
    a.models = [m for m in a.models.split(",") if m]
    bad = [m for m in a.models if m not in oracle.MODELS]
    if bad:
        ap.error("unknown model(s): %s" % ", ".join(bad))
    bad = [n for n in (a.threads or []) if not 2 <= n <= 4]
    if bad:
        ap.error("--threads: 2, 3 or 4")
    if a.litmus:
        names = list(oracle.TESTS) if a.litmus == "all" else a.litmus.split(",")
        unknown = [n for n in names if n not in oracle.TESTS]
        if unknown:
            ap.error("unknown litmus test(s): %s" % ", ".join(unknown))
        a.litmus = names
        a.no_shrink = True
    bins = default_bin_dir()
    a.tsoify = a.tsoify or os.path.join(bins, "tsoify")
    a.verify = a.verify or os.path.join(bins, "verify")
    return a


def gen_flags(a):
    """The options that choose the programs of a seed."""
    return "--max-ops %d%s" % (a.max_ops, "".join((
        " --atomic" if a.atomic else "",
        " --assume" if a.assume else "",
        " --three-threads" if a.three_threads else "",
        " --threads %s" % ",".join(map(str, a.threads)) if a.threads else "",
        " --max-total-ops %d" % a.max_total_ops if a.max_total_ops else "",
        " --corpus" if a.corpus else "",
        " --cas" if a.cas else "")))


def rerun_command(a, index, model, bound):
    what = "--litmus %s" % index if a.litmus else \
        "--seed %d %s --only %d" % (a.seed, gen_flags(a), index)
    return "python3 %s %s --models %s --bounds %d --por %s%s --tsoify %s " \
        "--verify %s" % (os.path.abspath(__file__), what, model, bound, a.por,
                         " --export" if a.export else "", a.tsoify, a.verify)


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
    cfgs = configs(a.models, a.bounds, not a.pso_unbounded_only)
    workdir = tempfile.mkdtemp(prefix="tsoify-fuzz-")
    keepdir = a.keep or os.path.join(workdir, "failures")
    os.makedirs(keepdir, exist_ok=True)
    if a.litmus:
        indexes = a.litmus
    else:
        indexes = a.only if a.only is not None else range(a.count)
    print("fuzz: %s, %d program(s), por %s, configs %s" % (
        "litmus tests" if a.litmus else "seed %d (%s)" % (a.seed, gen_flags(a)),
        len(indexes), a.por, " ".join("%s/K=%d" % c for c in cfgs)), flush=True)
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


def program(a, i):
    """Program i of the seed (or litmus test i with --litmus)."""
    if a.litmus:
        return oracle.TESTS[i]
    return gen_test(a.seed, i, a.max_ops, a.atomic, a.three_threads, a.threads,
                    a.max_total_ops, a.corpus, a.cas, a.assume)


def run_one(a, workdir, keepdir, i, cfgs):
    """Check program i of the seed and print its report; True if it failed."""
    t0 = time.time()
    bad, lines = check_program(a, workdir, keepdir, program(a, i), cfgs,
                               lambda m, b: rerun_command(a, i, m, b))
    lines[0] += " (%.1fs)" % (time.time() - t0)
    print("\n".join(lines), flush=True)
    return bad


if __name__ == "__main__":
    sys.exit(main())
