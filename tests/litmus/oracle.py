#!/usr/bin/env python3
"""Independent brute-force oracle for the tsoify litmus tests (stdlib only).

Each litmus test is described below as a Python dict (TESTS). The oracle
enumerates, exhaustively and with memoised states, every interleaving of
thread steps and store-buffer flushes under three operational models:

  sc   every store goes straight to memory.
  tso  one FIFO store buffer per thread; only the oldest entry may flush.
  pso  one buffer per thread in which an entry may flush as soon as no
       older entry of the same thread overlaps it (per-address FIFO,
       byte-precise for mixed sizes).

Loads take each byte from the newest own buffer entry covering it, else from
memory. mfence, xchg, cas and fadd wait until the thread's buffer is empty
(under PSO: all of its entries, every address); xchg then writes memory
directly, and cas and fadd (x86's locked cmpxchg and xadd) read memory and
write it directly in one step, a failed cas writing nothing. An atomic
function (SV-COMP's __VERIFIER_atomic_*) waits for an empty buffer too, then
runs with no other thread or flush in between: it reads and writes memory
directly, and when its assume fails the execution is infeasible (modelled as
waiting: the same final states). A seq_cst store
(atomic_store_explicit(..., memory_order_seq_cst)) is a locked store like
xchg; relaxed atomic loads and stores are plain ones.

A bounded buffer (bound K > 0, TSO and PSO alike) makes a store wait until
the thread holds fewer than K entries; under PSO K counts all of the
thread's entries, over every address. Waiting is exact: the thread's own
flushes go on meanwhile, so the store can follow the flush of any entry that
may leave, which is what verify's eviction (a store into a full buffer first
flushes one of the entries that may leave, a choice) does in one step; the
same flush done earlier or later is a separate interleaving both explore.
An execution ends when every
thread is done and every buffer is empty (thread exit drains the buffer and
main joins all threads), and main then reads the final memory.

Registers (r0, r1, ...) are shared globals as in the C programs, so
`r0 = y` is a load of y followed by a (buffered) store to r0, exactly as the
-O0 code does it. This matters for bounded buffers only.

The C files are generated from the same descriptions (--emit-c), and --check
verifies that they are unchanged, so the C programs and the oracle describe
the same operations in the same order.

Usage:
  oracle.py [TEST...]          print outcome sets (--bound K: TSO and PSO with
                               store-buffer bound K)
  oracle.py --check [TEST...]  compare with the .expect and .c files; exit 1 on
                               any difference
  oracle.py --write [TEST...]  (re)write the .expect files
  oracle.py --emit-c [TEST...] (re)write the .c files
"""

import argparse
import os
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ("sc", "tso", "pso")
BOUNDS = (1, 2, 3, 4, 0)  # TSO bounds checked for [bounded]; 0 = unbounded

# ---------------------------------------------------------------------------
# Test descriptions
#
# ops:   ('st', LOC, VALUE[, ORD])     store (VALUE an EXPR: int, local, ...)
#        ('ld', REG, LOC[, ORD])       REG = LOC  (load, then store to REG)
#        ('ldt', LOCAL, LOC[, ORD])    int LOCAL = LOC  (thread-local temp)
#        ('mfence',)                   __atomic_thread_fence(__ATOMIC_SEQ_CST)
#        ('xchg', LOC, VALUE)          __atomic_exchange_n(&LOC, VALUE, SEQ_CST)
#        ('cas', REG, LOC, EXP, DES)   REG = __atomic_compare_exchange_n(&LOC,
#                                      &(int){EXP}, DES, 0, SEQ_CST, SEQ_CST):
#                                      locked; 1 (and LOC = DES) if LOC was
#                                      EXP, else 0 (EXP, DES: EXPRs)
#        ('casv', REG, LOC, EXP, DES)  REG = __sync_val_compare_and_swap(&LOC,
#                                      EXP, DES): the same locked CAS, but REG
#                                      = the value it read (EXP on success)
#        ('fadd', REG, LOC, VALUE)     REG = __atomic_fetch_add(&LOC, VALUE,
#                                      SEQ_CST): locked; REG = the old value
#        ('cast', LOCAL, ...), ('casvt', LOCAL, ...), ('faddt', LOCAL, ...)
#                                      int LOCAL = the same (as 'ldt' to 'ld')
#        ('atomic', LOC, V, LOC2, V2)  a __VERIFIER_atomic_ function:
#                                      __VERIFIER_assume(LOC == V); LOC2 = V2;
#        ('assume', LOC, V)            __VERIFIER_assume(LOC == V); outside any
#                                      atomic block: a plain load (own buffer,
#                                      else memory), the execution ends there
#                                      unless it read V
#        ('if', EXPR, [ops])           if (EXPR) { ops }  (no loads inside)
#        (cas and fadd take a 4-byte int LOC: an int variable or element)
# ORD:   None (plain access), 'rlx' or 'sc': atomic_load_explicit /
#        atomic_store_explicit with memory_order_relaxed / _seq_cst on a
#        4-byte int (a seq_cst store is locked, like xchg; loads are loads)
# LOC:   a variable name (whole variable), (var, byte_offset, size), or
#        (var, EXPR): element EXPR of an int array (var of type 'int[N]'),
#        e.g. ('vars', ('+', 1, ('^', 'a0', 'a0'))) is vars[1 + (a0 ^ a0)]
# EXPR:  an int, a local's name, or (OP, EXPR, EXPR), OP one of + ^ & ==
# regs:  registers reported, in order; final: final variables reported, each
#        a name or (label, LOC); types: C types of variables (default 'int');
# table: (partial outcome, (sc, tso, pso) reachability) from the team's table
# ---------------------------------------------------------------------------

def st(loc, v):
    return ("st", loc, v)


def ld(reg, loc):
    return ("ld", reg, loc)


FENCE = ("mfence",)


def ring(n):
    """SBn: n threads in a ring, Ti: x_i = 1; r_i = x_{(i+1) mod n}."""
    return [[st("x%d" % i, 1), ld("r%d" % i, "x%d" % ((i + 1) % n))]
            for i in range(n)]


TESTS = {}


def test(name, doc, threads, regs, final=(), **kw):
    TESTS[name] = dict(name=name, doc=doc, threads=threads, regs=list(regs),
                       final=list(final), **kw)


test("SB", "store buffering: each store may still be buffered when the other "
     "thread loads (allowed by TSO/PSO, not SC)",
     [[st("x", 1), ld("r0", "y")], [st("y", 1), ld("r1", "x")]],
     ["r0", "r1"], table=({"r0": 0, "r1": 0}, (False, True, True)))

test("SB+mfences", "SB with an mfence after each store: the fences forbid "
     "r0=0 r1=0 under every model",
     [[st("x", 1), FENCE, ld("r0", "y")], [st("y", 1), FENCE, ld("r1", "x")]],
     ["r0", "r1"], table=({"r0": 0, "r1": 0}, (False, False, False)))

test("SB+xchg", "SB with the stores done by locked xchg: xchg writes memory "
     "directly, so r0=0 r1=0 is forbidden",
     [[("xchg", "x", 1), ld("r0", "y")], [("xchg", "y", 1), ld("r1", "x")]],
     ["r0", "r1"], table=({"r0": 0, "r1": 0}, (False, False, False)))

test("SB+cas", "SB with one side's store done by a locked compare-and-swap "
     "(strong, seq_cst): the CAS writes memory directly, but T1's plain store "
     "may still be buffered, so r1=0 r2=0 stays allowed under TSO/PSO",
     [[("cas", "r0", "x", 0, 1), ld("r1", "y")], [st("y", 1), ld("r2", "x")]],
     ["r0", "r1", "r2"], table=({"r1": 0, "r2": 0}, (False, True, True)))

test("SB+cas+fadd", "SB with a locked compare-and-swap on one side and a "
     "locked fetch-add on the other: both write memory directly, so r1=0 "
     "r3=0 is forbidden under every model",
     [[("cas", "r0", "x", 0, 1), ld("r1", "y")],
      [("fadd", "r2", "y", 1), ld("r3", "x")]],
     ["r0", "r1", "r2", "r3"],
     table=({"r1": 0, "r3": 0}, (False, False, False)))

test("MP", "message passing: stores reach memory in order under TSO; only PSO "
     "lets the flag y overtake the data x",
     [[st("x", 1), st("y", 1)], [ld("r0", "y"), ld("r1", "x")]],
     ["r0", "r1"], table=({"r0": 1, "r1": 0}, (False, False, True)))

test("MP+fence", "MP with an mfence between the two stores: even PSO must "
     "publish x before y",
     [[st("x", 1), FENCE, st("y", 1)], [ld("r0", "y"), ld("r1", "x")]],
     ["r0", "r1"], table=({"r0": 1, "r1": 0}, (False, False, False)))

test("LB", "load buffering: loads are never reordered after later stores, so "
     "r0=1 r1=1 is forbidden everywhere",
     [[ld("r0", "x"), st("y", 1)], [ld("r1", "y"), st("x", 1)]],
     ["r0", "r1"], table=({"r0": 1, "r1": 1}, (False, False, False)))

test("2+2W", "two writers, two locations: final x=1 y=1 needs store-store "
     "reordering (PSO only)",
     [[st("x", 1), st("y", 2)], [st("y", 1), st("x", 2)]],
     [], ["x", "y"], table=({"x": 1, "y": 1}, (False, False, True)))

test("R", "R: T1's load of x may pass its own buffered store y=2 (TSO/PSO), "
     "giving y=2 r0=0",
     [[st("x", 1), st("y", 1)], [st("y", 2), ld("r0", "x")]],
     ["r0"], ["y"], table=({"y": 2, "r0": 0}, (False, True, True)))

test("S", "S: x=2 r0=1 needs T0's y=1 to reach memory before its x=2 (PSO "
     "only)",
     [[st("x", 2), st("y", 1)], [ld("r0", "y"), st("x", 1)]],
     ["r0"], ["x"], table=({"x": 2, "r0": 1}, (False, False, True)))

test("WRC", "write-to-read causality: all three models are multi-copy atomic, "
     "so r0=1 r1=1 r2=0 is forbidden",
     [[st("x", 1)], [ld("r0", "x"), st("y", 1)],
      [ld("r1", "y"), ld("r2", "x")]],
     ["r0", "r1", "r2"],
     table=({"r0": 1, "r1": 1, "r2": 0}, (False, False, False)))

test("IRIW", "independent reads of independent writes: readers cannot see "
     "the two writes in opposite orders (one shared memory)",
     [[st("x", 1)], [st("y", 1)], [ld("r0", "x"), ld("r1", "y")],
      [ld("r2", "y"), ld("r3", "x")]],
     ["r0", "r1", "r2", "r3"],
     table=({"r0": 1, "r1": 0, "r2": 1, "r3": 0}, (False, False, False)))

test("n6", "n6 (x86-TSO paper): T0 reads its own buffered x=1 while memory "
     "later ends with x=1 (TSO/PSO)",
     [[st("x", 1), ld("r0", "x"), ld("r1", "y")], [st("y", 2), st("x", 2)]],
     ["r0", "r1"], ["x"],
     table=({"r0": 1, "r1": 0, "x": 1}, (False, True, True)))

test("CoRR", "coherence of read-read: two loads of x in one thread never see "
     "the new value and then the old one",
     [[st("x", 1)], [ld("r0", "x"), ld("r1", "x")]],
     ["r0", "r1"], table=({"r0": 1, "r1": 0}, (False, False, False)))

test("own-read", "a thread always reads its own latest store (store-buffer "
     "forwarding), so r0=0 is impossible",
     [[st("x", 1), ld("r0", "x")]],
     ["r0"], table=({"r0": 0}, (False, False, False)))

test("SB3", "SB with 3 threads in a ring: all-zero needs every store "
     "buffered (TSO/PSO only)", ring(3), ["r0", "r1", "r2"])

test("SB4", "SB with 4 threads in a ring: all-zero needs every store "
     "buffered (TSO/PSO only)", ring(4), ["r0", "r1", "r2", "r3"])

test("CAS-ring3", "a ring of three compare-and-swaps on x (Ti moves x from i "
     "to i+1 mod 3; ri is 1 if it succeeded, else 0): T0 always succeeds, "
     "T1 only after it, T2 only after both",
     [[("cas", "r%d" % i, "x", i, (i + 1) % 3)] for i in range(3)],
     ["r0", "r1", "r2"], ["x"],
     table=({"r0": 1, "r1": 1, "r2": 0, "x": 2}, (True, True, True)))

test("CAS-ring4", "casrot-miss.c (tests/programs/reduction) as a litmus "
     "test: a ring of four compare-and-swaps on x, Ti moving x from i to i+1 "
     "mod 4, ri the value Ti's CAS read (i when it succeeded). r1=1 r2=0 "
     "r3=0 needs T2 and T3 to fail before T0, and optimal DPOR once missed "
     "it (a failed CAS counted as a read)",
     [[("casv", "r%d" % i, "x", i, (i + 1) % 4)] for i in range(4)],
     ["r0", "r1", "r2", "r3"], ["x"],
     table=({"r1": 1, "r2": 0, "r3": 0}, (True, True, True)))

test("MP3", "3-thread message-passing chain x -> y -> z: r0=1 r1=1 r2=0 "
     "needs PSO (T0's y overtaking x)",
     [[st("x", 1), st("y", 1)],
      [("ldt", "t", "y"), st("r0", "t"), st("z", "t")],
      [ld("r1", "z"), ld("r2", "x")]],
     ["r0", "r1", "r2"])

test("n6-3", "n6 plus an observer T2 reading y then x: the observer sees "
     "memory, never T0's buffered x=1",
     [[st("x", 1), ld("r0", "x"), ld("r1", "y")], [st("y", 2), st("x", 2)],
      [ld("r2", "y"), ld("r3", "x")]],
     ["r0", "r1", "r2", "r3"], ["x"])

test("mixed-bytes", "a 32-bit store 0x01020304 read back byte by byte "
     "(little-endian): each byte is old (0) or new, never torn out of order",
     [[st("w", 0x01020304)],
      [ld("b%d" % i, ("w", i, 1)) for i in range(4)]],
     ["b0", "b1", "b2", "b3"])

test("mixed-overlap", "overlapping unaligned stores (4 bytes at buf+1, 2 "
     "bytes at buf+3) merge byte-wise; a 16-bit read at buf+2 sees both",
     [[st(("buf", 1, 4), 0x11111111)], [st(("buf", 3, 2), 0x2222)],
      [ld("r0", ("buf", 2, 2))]],
     ["r0"], [("buf%d" % i, ("buf", i, 1)) for i in range(1, 5)],
     types={"buf": "unsigned char[8]"})

test("mixed-own", "partial-byte forwarding: T0 reads parts of its own "
     "buffered 32-bit store; T1 reads w with byte 0 from its own buffer and "
     "bytes 1..3 from memory (0xAABBCC55 = 2864434261, 0xAABBCCDD = "
     "2864434397)",
     [[st("w", 0xAABBCCDD), ld("r0", ("w", 1, 1)), ld("r1", ("w", 2, 2))],
      [st(("w", 0, 1), 0x55), ld("r2", "w")]],
     ["r0", "r1", "r2"], ["w"],
     types={"w": "unsigned int"}, reg_type="unsigned int")

test("bound3", "all-zero needs T0's 3 stores a,b,c all buffered at once: "
     "safe for TSO bound K=1,2, violated for K>=3 and unbounded",
     [[st("a", 1), st("b", 1), st("c", 1), ld("r0", "d")],
      [st("d", 1), FENCE, ld("r1", "a"), ld("r2", "b"), ld("r3", "c")]],
     ["r0", "r1", "r2", "r3"],
     bad={"r0": 0, "r1": 0, "r2": 0, "r3": 0})

# ---------------------------------------------------------------------------
# Program layout: every variable (shared and register) gets its own bytes.
# ---------------------------------------------------------------------------

TYPE_SIZE = {"int": 4, "unsigned int": 4, "unsigned char": 1}


def is_array(ctype):
    return ctype.endswith("]")


def array_type(ctype):
    """('int', 3) for 'int[3]'."""
    base, dim = ctype[:-1].split("[")
    return base, int(dim)


def type_size(ctype):
    if is_array(ctype):
        base, n = array_type(ctype)
        return TYPE_SIZE[base] * n
    return TYPE_SIZE[ctype]


def is_element(loc):
    """Whether loc is (array, EXPR): an element of an int array."""
    return isinstance(loc, tuple) and len(loc) == 2


def is_int_loc(t, loc):
    """Whether loc is a whole int: an int variable or an int array's element."""
    return is_element(loc) or (isinstance(loc, str) and var_type(t, loc) == "int")

# ---------------------------------------------------------------------------
# Expressions: an int, a local's name, or (OP, EXPR, EXPR)
# ---------------------------------------------------------------------------

EXPR_OPS = {"+": lambda a, b: a + b, "^": lambda a, b: a ^ b,
            "&": lambda a, b: a & b, "==": lambda a, b: int(a == b)}


def eval_expr(e, env):
    if isinstance(e, int):
        return e
    if isinstance(e, str):
        return env[e]
    return EXPR_OPS[e[0]](eval_expr(e[1], env), eval_expr(e[2], env))


def expr_locals(e):
    """The locals an EXPR reads."""
    if isinstance(e, int):
        return set()
    if isinstance(e, str):
        return {e}
    return expr_locals(e[1]) | expr_locals(e[2])


def c_expr(e, top=True):
    if isinstance(e, (int, str)):
        return str(e)
    text = "%s %s %s" % (c_expr(e[1], False), e[0], c_expr(e[2], False))
    return text if top else "(%s)" % text


# The locked read-modify-writes: op kind -> (micro-op, result: 'ok' the
# success bit or 'old' the value read, into a local?). The *t forms put the
# result in a thread-local temporary (like 'ldt'), the others in a register.
LOCKED_RMW = {"cas": ("cas", "ok", False), "cast": ("cas", "ok", True),
              "casv": ("cas", "old", False), "casvt": ("cas", "old", True),
              "fadd": ("fadd", "old", False), "faddt": ("fadd", "old", True)}


def op_locs(op):
    """The LOCs an op accesses (not thread-local temporaries)."""
    if op[0] in ("st", "xchg"):
        return [op[1]]
    if op[0] == "atomic":
        return [op[1], op[3]]
    if op[0] == "assume":
        return [op[1]]
    if op[0] in ("ld", "ldt"):
        return [op[2]] + ([op[1]] if op[0] == "ld" else [])
    if op[0] in LOCKED_RMW:  # REG too, unless into a local
        return [op[2]] + ([] if LOCKED_RMW[op[0]][2] else [op[1]])
    if op[0] == "if":
        return [loc for o in op[2] for loc in op_locs(o)]
    return []


def shared_vars(t):
    """Names of the shared (non-register) variables, sorted."""
    names = {loc if isinstance(loc, str) else loc[0]
             for code in t["threads"] for op in code for loc in op_locs(op)}
    names |= {f if isinstance(f, str) else f[1][0] for f in t["final"]}
    return sorted(names - set(t["regs"]))


def var_type(t, name):
    if name in t["regs"]:
        return t.get("reg_type", "int")
    return t.get("types", {}).get(name, "int")


class Program:
    """A test compiled to micro-ops over byte addresses."""

    def __init__(self, t):
        self.test = t
        self.addr = {}
        nbytes = 0
        for name in shared_vars(t) + t["regs"]:
            self.addr[name] = nbytes
            nbytes += type_size(var_type(t, name))
        self.nbytes = nbytes
        self.threads = [self.compile(code) for code in t["threads"]]

    def loc(self, loc):
        """(address, size) of a LOC, or ('dyn', array address, EXPR, 4) for
        an element whose index depends on locals (resolve() at run time)."""
        if isinstance(loc, str):
            return self.addr[loc], type_size(var_type(self.test, loc))
        if is_element(loc):
            var, idx = loc
            base, n = array_type(var_type(self.test, var))
            assert base == "int", loc
            if isinstance(idx, int):
                assert 0 <= idx < n, loc
                return self.addr[var] + 4 * idx, 4
            return ("dyn", self.addr[var], idx, n)
        var, off, size = loc
        return self.addr[var] + off, size

    def compile(self, code):
        out = []
        for op in code:
            kind = op[0]
            sc_store = kind == "st" and len(op) > 3 and op[3] == "sc"
            if kind == "st":
                out.append(("xchg" if sc_store else "store", self.loc(op[1]), op[2]))
            elif kind == "ld":
                out.append(("load", "$tmp", self.loc(op[2])))
                out.append(("store", self.loc(op[1]), "$tmp"))
            elif kind == "ldt":
                out.append(("load", op[1], self.loc(op[2])))
            elif kind == "if":
                body = self.compile(op[2])
                assert not any(m[0] == "load" for m in body), op
                out.append(("skip", op[1], len(body)))
                out += body
            elif kind == "mfence":
                out.append(("fence",))
            elif kind == "xchg":
                out.append(("xchg", self.loc(op[1]), op[2]))
            elif kind == "atomic":
                out.append(("atomic", self.loc(op[1]), op[2], self.loc(op[3]), op[4]))
            elif kind == "assume":
                out.append(("assume", self.loc(op[1]), op[2]))
            elif kind in LOCKED_RMW:
                assert is_int_loc(self.test, op[2]), op
                micro, result, to_local = LOCKED_RMW[kind]
                dest = op[1] if to_local else "$tmp"
                out.append((micro, result, dest, self.loc(op[2])) + tuple(op[3:]))
                if dest == "$tmp":
                    out.append(("store", self.loc(op[1]), "$tmp"))
            else:
                raise ValueError("unknown op %r" % (op,))
        return out

# ---------------------------------------------------------------------------
# Operational semantics
# state = (pcs, locals, mem, bufs)
#   pcs:    tuple of per-thread program counters
#   locals: tuple per thread of sorted ((name, value), ...)
#   mem:    tuple of byte values
#   bufs:   tuple per thread of ((address, bytes), ...), oldest first
# ---------------------------------------------------------------------------


def to_bytes(value, size):
    return tuple((value >> (8 * i)) & 0xFF for i in range(size))


def from_bytes(bs):
    return sum(b << (8 * i) for i, b in enumerate(bs))


def overlaps(e1, e2):
    (a1, b1), (a2, b2) = e1, e2
    return a1 < a2 + len(b2) and a2 < a1 + len(b1)


def write_mem(mem, addr, bs):
    m = list(mem)
    m[addr:addr + len(bs)] = bs
    return tuple(m)


def read(mem, buf, addr, size):
    """Each byte from the newest own buffer entry covering it, else memory."""
    out = []
    for a in range(addr, addr + size):
        for (ea, ebs) in reversed(buf):
            if ea <= a < ea + len(ebs):
                out.append(ebs[a - ea])
                break
        else:
            out.append(mem[a])
    return from_bytes(out)


def flushable(buf, model):
    """Indices of the entries that may be written to memory next."""
    if not buf:
        return []
    if model == "tso":
        return [0]
    return [j for j, e in enumerate(buf)
            if not any(overlaps(buf[k], e) for k in range(j))]


def replace(tup, i, v):
    return tup[:i] + (v,) + tup[i + 1:]


def set_local(locs, name, value):
    d = dict(locs)
    d[name] = value
    return tuple(sorted(d.items()))


def successors(prog, model, bound, state):
    pcs, locs, mem, bufs = state
    for i, code in enumerate(prog.threads):
        buf = bufs[i]
        for j in flushable(buf, model):
            addr, bs = buf[j]
            yield (pcs, locs, write_mem(mem, addr, bs),
                   replace(bufs, i, buf[:j] + buf[j + 1:]))
        if pcs[i] == len(code):
            continue
        step = thread_step(code[pcs[i]], model, bound, locs[i], mem, buf)
        if step is not None:
            advance, loc_i, mem2, buf2 = step
            yield (replace(pcs, i, pcs[i] + advance), replace(locs, i, loc_i),
                   mem2, replace(bufs, i, buf2))


def value(e, locs):
    return e if isinstance(e, int) else eval_expr(e, dict(locs))


def resolve(spec, locs):
    """(address, size) of a compiled location (see Program.loc)."""
    if spec[0] != "dyn":
        return spec
    _, base, idx, n = spec
    i = eval_expr(idx, dict(locs))
    if not 0 <= i < n:
        raise ValueError("index %d out of bounds (%r)" % (i, idx))
    return base + 4 * i, 4


def thread_step(op, model, bound, locs, mem, buf):
    """Execute one micro-op: (pc advance, locals, memory, buffer), or None
    if it cannot run now."""
    kind = op[0]
    if kind == "load":
        addr, size = resolve(op[2], locs)
        return 1, set_local(locs, op[1], read(mem, buf, addr, size)), mem, buf
    if kind == "assume":  # a failed one never completes: as if it waits
        addr, size = resolve(op[1], locs)
        return (1, locs, mem, buf) if read(mem, buf, addr, size) == op[2] else None
    if kind == "skip":  # a branch: over the next op[2] micro-ops unless op[1]
        return (1 if eval_expr(op[1], dict(locs)) else 1 + op[2]), locs, mem, buf
    if kind == "store":
        (addr, size), v = resolve(op[1], locs), value(op[2], locs)
        bs = to_bytes(v, size)
        if model == "sc":
            return 1, locs, write_mem(mem, addr, bs), buf
        if bound and len(buf) >= bound:
            return None  # full: wait for an entry that may leave to flush
        return 1, locs, mem, buf + ((addr, bs),)
    if buf:
        return None  # fence / locked op: wait until the buffer is empty
    if kind == "fence":
        return 1, locs, mem, buf
    if kind == "xchg":
        (addr, size), v = resolve(op[1], locs), value(op[2], locs)
        return 1, locs, write_mem(mem, addr, to_bytes(v, size)), buf
    if kind in ("cas", "fadd"):  # locked: memory only (the buffer is empty)
        _, result, dest, loc = op[:4]
        addr, size = resolve(loc, locs)
        mask = (1 << 8 * size) - 1
        old = from_bytes(mem[addr:addr + size])
        ok = kind == "fadd" or old == value(op[4], locs) & mask
        new = old + value(op[4], locs) if kind == "fadd" else value(op[5], locs)
        if ok:
            mem = write_mem(mem, addr, to_bytes(new & mask, size))
        return 1, set_local(locs, dest, int(ok) if result == "ok" else old), mem, buf
    if kind == "atomic":
        (addr, size), v, (addr2, size2), v2 = op[1:]
        if read(mem, buf, addr, size) != v:
            return None
        return 1, locs, write_mem(mem, addr2, to_bytes(v2, size2)), buf
    raise ValueError("unknown micro-op %r" % (op,))


def explore(prog, model, bound=0):
    """All final memories reachable under the model (exhaustive DFS)."""
    n = len(prog.threads)
    init = ((0,) * n, ((),) * n, (0,) * prog.nbytes, ((),) * n)
    seen = {init}
    stack = [init]
    finals = set()
    while stack:
        state = stack.pop()
        pcs, _, mem, bufs = state
        if all(pc == len(c) for pc, c in zip(pcs, prog.threads)) \
                and not any(bufs):
            finals.add(mem)
        for nxt in successors(prog, model, bound, state):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return finals


def report_items(t):
    """(label, LOC) pairs in outcome order: registers, then final variables."""
    items = [(r, r) for r in t["regs"]]
    items += [(f, f) if isinstance(f, str) else f for f in t["final"]]
    return items


def loc_value(prog, mem, loc):
    addr, size = prog.loc(loc)
    v = from_bytes(mem[addr:addr + size])
    signed = is_element(loc) or (isinstance(loc, str) and var_type(prog.test, loc) == "int")
    if signed and v >= 1 << 31:
        v -= 1 << 32
    return v


def outcome_dict(prog, mem):
    return {label: loc_value(prog, mem, loc)
            for label, loc in report_items(prog.test)}


def fmt_outcome(t, d):
    return " ".join("%s=%d" % (label, d[label]) for label, _ in report_items(t))


def outcomes(t, model, bound=0):
    """Sorted list of outcome strings for test t."""
    prog = Program(t)
    return sorted({fmt_outcome(t, outcome_dict(prog, m))
                   for m in explore(prog, model, bound)})


def matches(outcome, partial):
    d = dict(kv.split("=") for kv in outcome.split())
    return all(int(d[k]) == v for k, v in partial.items())


def bounded_verdicts(t):
    """{'safe': [K...], 'violation': [K...]} for the test's bad outcome."""
    res = {"safe": [], "violation": []}
    for k in BOUNDS:
        bad = any(matches(o, t["bad"]) for o in outcomes(t, "tso", k))
        res["violation" if bad else "safe"].append(k)
    return res

# ---------------------------------------------------------------------------
# C generation
# ---------------------------------------------------------------------------


def c_lit(v, size):
    return str(v) if v < 16 else "0x%0*X" % (2 * size, v)


def c_loc(t, loc):
    if isinstance(loc, str):
        return loc
    if is_element(loc):
        return "%s[%s]" % (loc[0], c_expr(loc[1]))
    var, off, size = loc
    ctype = var_type(t, var)
    if not is_array(ctype) and off == 0 and size == type_size(ctype):
        return var
    base = var if is_array(ctype) else "(unsigned char *)&" + var
    if size == 1:
        return "%s[%d]" % (base if is_array(ctype) else "(%s)" % base, off)
    ctn = {2: "unsigned short", 4: "unsigned int"}[size]
    return "*(%s *)(%s + %d)" % (ctn, base, off)


def loc_size(t, loc):
    if isinstance(loc, str):
        return type_size(var_type(t, loc))
    return 4 if is_element(loc) else loc[2]


C_ORDER = {"rlx": "memory_order_relaxed", "sc": "memory_order_seq_cst"}


def op_order(op):
    """The ORD of a st/ld/ldt op (None: a plain access)."""
    return op[3] if op[0] in ("st", "ld", "ldt") and len(op) > 3 else None


def c_atomic_ptr(t, loc):
    assert loc_size(t, loc) == 4, loc
    return "(atomic_int *)&%s" % c_loc(t, loc)


def c_load(t, op):
    if op_order(op):
        return "atomic_load_explicit(%s, %s)" % (c_atomic_ptr(t, op[2]), C_ORDER[op[3]])
    return c_loc(t, op[2])


def c_value(t, e, loc):
    """An EXPR stored to loc, in C (int literals sized as loc)."""
    return c_lit(e, loc_size(t, loc)) if isinstance(e, int) else c_expr(e)


def c_rmw(t, op):
    """The C expression of a cas or fadd op (on a 4-byte int)."""
    loc = op[2]
    assert is_int_loc(t, loc), op
    micro, result, _ = LOCKED_RMW[op[0]]
    if micro == "cas" and result == "ok":
        return ("__atomic_compare_exchange_n(&%s, &(int){%s}, %s, 0, __ATOMIC_SEQ_CST, "
                "__ATOMIC_SEQ_CST)" % (c_loc(t, loc), c_value(t, op[3], loc),
                                       c_value(t, op[4], loc)))
    if micro == "cas":
        return "__sync_val_compare_and_swap(&%s, %s, %s)" % (
            c_loc(t, loc), c_value(t, op[3], loc), c_value(t, op[4], loc))
    return "__atomic_fetch_add(&%s, %s, __ATOMIC_SEQ_CST)" % (
        c_loc(t, loc), c_value(t, op[3], loc))


def c_stmt(t, op):
    kind = op[0]
    if kind == "st":
        v = c_value(t, op[2], op[1])
        if op_order(op):
            return "atomic_store_explicit(%s, %s, %s);" % (
                c_atomic_ptr(t, op[1]), v, C_ORDER[op[3]])
        return "%s = %s;" % (c_loc(t, op[1]), v)
    if kind == "ld":
        return "%s = %s;" % (op[1], c_load(t, op))
    if kind == "ldt":
        return "int %s = %s;" % (op[1], c_load(t, op))
    if kind in LOCKED_RMW:
        return ("int %s = %s;" if LOCKED_RMW[kind][2] else "%s = %s;") % (
            op[1], c_rmw(t, op))
    if kind == "if":
        return "if (%s) { %s }" % (c_expr(op[1]), " ".join(c_stmt(t, o) for o in op[2]))
    if kind == "mfence":
        return "__atomic_thread_fence(__ATOMIC_SEQ_CST);"
    if kind == "xchg":
        return "__atomic_exchange_n(&%s, %s, __ATOMIC_SEQ_CST);" % (
            c_loc(t, op[1]), c_lit(op[2], loc_size(t, op[1])))
    if kind == "atomic":
        return "%s();" % atomic_name(t, op)
    if kind == "assume":
        return "__VERIFIER_assume(%s == %d);" % (c_loc(t, op[1]), op[2])
    raise ValueError(op)


def atomic_ops(t):
    return [op for code in t["threads"] for op in code if op[0] == "atomic"]


def atomic_name(t, op):
    """The C function of an atomic op: one per op, numbered in program order."""
    return "__VERIFIER_atomic_%d" % next(i for i, o in enumerate(atomic_ops(t)) if o is op)


def c_atomic_functions(t):
    assumes = any(op[0] == "assume" for code in t["threads"] for op in code)
    out = ["void __VERIFIER_assume(int);"] if atomic_ops(t) or assumes else []
    for op in atomic_ops(t):
        out.append("void %s(void) { __VERIFIER_assume(%s == %d); %s = %d; }" % (
            atomic_name(t, op), c_loc(t, op[1]), op[2], c_loc(t, op[3]), op[4]))
    return out


def c_thread(t, i, code):
    head = "static void *t%d(void *arg) {" % i
    stmts = [c_stmt(t, op) for op in code] + ["return 0;"]
    line = head + " " + " ".join(stmts) + " }"
    if len(line) <= 100:
        return [line]
    return [head] + ["  " + s for s in stmts] + ["}"]


def c_decls(t):
    lines, by_type = [], {}
    for v in shared_vars(t):
        by_type.setdefault(var_type(t, v), []).append(v)
    for ctype, names in by_type.items():
        if is_array(ctype):
            base, dim = ctype.split("[")
            for n in names:
                lines.append("%s %s[%s __attribute__((aligned(8)));"
                             % (base, n, dim))
        else:
            lines.append("%s %s;" % (ctype, ", ".join(names)))
    lines[0] = lines[0].ljust(39) + " /* shared, initially 0 */"
    if t["regs"]:
        lines.append(("%s %s;" % (t.get("reg_type", "int"), ", ".join(t["regs"])))
                     .ljust(39) + " /* registers, read by main after join */")
    return lines


def c_format(t, loc):
    if isinstance(loc, str) and var_type(t, loc) == "unsigned int":
        return "%u"
    return "%d"


def c_main(t):
    n = len(t["threads"])
    hs = ["h%d" % i for i in range(n)]
    out = ["int main(void) {", "  pthread_t %s;" % ", ".join(hs)]
    out += ["  pthread_create(&%s, 0, t%d, 0);" % (h, i) for i, h in enumerate(hs)]
    out += ["  pthread_join(%s, 0);" % h for h in hs]
    items = report_items(t)
    fmt = " ".join("%s=%s" % (lab, c_format(t, loc)) for lab, loc in items)
    args = ", ".join(c_loc(t, loc) for _, loc in items)
    out.append('  tsoify_outcome("%s", %s);' % (fmt, args))
    if "bad" in t:
        cond = " && ".join("%s == %d" % kv for kv in t["bad"].items())
        out.append("  assert(!(%s));" % cond)
    out += ["  return 0;", "}"]
    return out


def all_ops(code):
    """The ops of a thread, those inside an 'if' included."""
    for op in code:
        yield op
        if op[0] == "if":
            yield from all_ops(op[2])


def uses_c11_atomics(t):
    return any(op_order(op) for code in t["threads"] for op in all_ops(code))


def c_source(t):
    text = textwrap.wrap("%s: %s." % (t["name"], t["doc"]), 74)
    out = ["/* " + text[0]] + [" * " + line for line in text[1:]]
    out[-1] += " */"
    if "bad" in t:
        out.append("#include <assert.h>")
    out += ["#include <pthread.h>"]
    if uses_c11_atomics(t):
        out += ["#include <stdatomic.h>"]
    out += ['#include "tsoify.h"']
    out += c_decls(t)
    out += c_atomic_functions(t)
    for i, code in enumerate(t["threads"]):
        out += c_thread(t, i, code)
    out += c_main(t)
    return "\n".join(out) + "\n"

# ---------------------------------------------------------------------------
# .expect files (TOML)
# ---------------------------------------------------------------------------


def toml_list(key, items):
    one = "%-3s = [%s]" % (key, ", ".join('"%s"' % s for s in items))
    if len(one) <= 100:
        return [one]
    return ["%-3s = [" % key] + ['  "%s",' % s for s in items] + ["]"]


def expect_text(t, sets, bounded=None):
    out = ["# %s" % t["doc"], "[outcomes]"]
    for m in MODELS:
        out += toml_list(m, sets[m])
    if bounded is not None:
        out += ["", "[bounded]  # TSO verdicts by store-buffer bound K "
                "(0 = unbounded)",
                "safe = [%s]" % ", ".join(map(str, bounded["safe"])),
                "violation = [%s]" % ", ".join(map(str, bounded["violation"]))]
    return "\n".join(out) + "\n"


def parse_toml(text):
    try:
        import tomllib
        return tomllib.loads(text)
    except ImportError:  # Python < 3.11: enough TOML for our own files
        import ast
        doc, table, pending = {}, None, ""
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()  # no '#' inside our strings
            if not line:
                continue
            if line.startswith("[") and not pending:
                table = doc.setdefault(line.strip("[] "), {})
                continue
            pending += line
            if pending.count("[") == pending.count("]"):
                k, v = pending.split("=", 1)
                table[k.strip()] = ast.literal_eval(v.strip())
                pending = ""
        return doc


def path(t, ext):
    return os.path.join(HERE, t["name"] + ext)

# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


def compute(t):
    sets = {m: outcomes(t, m) for m in MODELS}
    bounded = bounded_verdicts(t) if "bad" in t else None
    return sets, bounded


def check_table(t, sets):
    errors = []
    if "table" in t:
        partial, want = t["table"]
        for m, w in zip(MODELS, want):
            got = any(matches(o, partial) for o in sets[m])
            if got != w:
                errors.append("table: %s reachable under %s is %s, table says %s"
                              % (partial, m, got, w))
    return errors


def check_expect(t, sets, bounded):
    p = path(t, ".expect")
    if not os.path.exists(p):
        return ["missing %s" % p]
    exp = parse_toml(open(p).read())
    errors = []
    for m in MODELS:
        want = exp.get("outcomes", {}).get(m)
        if want != sets[m]:
            errors.append("%s: .expect %s, oracle %s" % (m, want, sets[m]))
    if bounded is not None:
        b = exp.get("bounded", {})
        for key in ("safe", "violation"):
            if sorted(b.get(key, [])) != sorted(bounded[key]):
                errors.append("bounded.%s: .expect %s, oracle %s"
                              % (key, b.get(key), bounded[key]))
    return errors


def check_c(t):
    p = path(t, ".c")
    if not os.path.exists(p):
        return ["missing %s" % p]
    if open(p).read() != c_source(t):
        return ["%s differs from its description (run --emit-c)" % p]
    return []


def cmd_check(tests):
    bad = 0
    for t in tests:
        sets, bounded = compute(t)
        errors = check_table(t, sets) + check_expect(t, sets, bounded) + check_c(t)
        print("%-14s %s" % (t["name"], "ok" if not errors else "FAIL"))
        for e in errors:
            print("    " + e)
        bad += bool(errors)
    names = {t["name"] for t in TESTS.values()}
    for f in sorted(os.listdir(HERE)):
        stem, ext = os.path.splitext(f)
        if ext in (".c", ".expect") and stem not in names:
            print("%-14s FAIL\n    %s has no description in oracle.py" % (stem, f))
            bad += 1
    print("%d test(s) failed" % bad if bad else "all %d tests ok" % len(tests))
    return 1 if bad else 0


def cmd_write(tests):
    for t in tests:
        sets, bounded = compute(t)
        with open(path(t, ".expect"), "w") as f:
            f.write(expect_text(t, sets, bounded))
        print("wrote", path(t, ".expect"))
    return 0


def cmd_emit_c(tests):
    for t in tests:
        with open(path(t, ".c"), "w") as f:
            f.write(c_source(t))
        print("wrote", path(t, ".c"))
    return 0


def cmd_show(tests, bound):
    for t in tests:
        print(t["name"])
        for m in MODELS:
            if bound and m == "sc":
                continue
            os_ = outcomes(t, m, bound)
            print("  %-3s (%d): %s" % (m, len(os_), ", ".join(os_)))
        if "bad" in t and not bound:
            print("  bounded:", bounded_verdicts(t))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true",
                   help="compare with .expect and .c files, exit 1 on mismatch")
    g.add_argument("--write", action="store_true", help="(re)write .expect files")
    g.add_argument("--emit-c", action="store_true", help="(re)write .c files")
    ap.add_argument("--bound", type=int, default=0,
                    help="TSO/PSO store-buffer bound K when printing (0 = unbounded)")
    ap.add_argument("tests", nargs="*", help="test names (default: all)")
    a = ap.parse_args(argv)
    unknown = [n for n in a.tests if n not in TESTS]
    if unknown:
        ap.error("unknown test(s): %s" % ", ".join(unknown))
    tests = [TESTS[n] for n in (a.tests or TESTS)]
    if a.check:
        return cmd_check(tests)
    if a.write:
        return cmd_write(tests)
    if a.emit_c:
        return cmd_emit_c(tests)
    return cmd_show(tests, a.bound)


if __name__ == "__main__":
    sys.exit(main())
