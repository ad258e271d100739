"""Helper of scripts/bench: runs one command and measures its CPU time,
parses what verify, GenMC and Nidhugg print, and writes the markdown tables.

  bench.py measure OUT.json LIMIT CMD...     run CMD (killed after LIMIT s,
                                             0 = never); OUT gets rc, wall
                                             and cpu (user+sys of CMD and
                                             every process it started)
  bench.py row JSON ERR RC NAME MODEL POR RESULTS CPU.json
                                             one verify run: a row of the
                                             per-run table, a record in
                                             RESULTS
  bench.py peer TOOL OUT CPU.json NAME MODEL RESULTS
                                             one GenMC or Nidhugg run: a record
  bench.py summary RESULTS "MODELS" "PORS"   the reduction tables
  bench.py side RESULTS POR                  the side-by-side table, totals,
                                             worst program
  bench.py side RESULTS POR --head "PEERS" | PROGRAM MODEL "PEERS" | --totals
                                             its head, one row, or the totals
"""
import ctypes
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time


# ---------------------------------------------------------------- measuring

def measure(out_json, limit, *cmd):
    """CPU time of the whole process tree: this process becomes a child
    subreaper, so descendants whose parent exits (or is killed) are reparented
    here; reaping all of them makes RUSAGE_CHILDREN count every process CMD
    started."""
    limit = float(limit)
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # what this process's own children used before (a pyenv shim that
    # started this Python ran some, and exec keeps their time: 50-60 ms,
    # counted into every run as the tool's until 2026-12-04)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, start_new_session=True)
    killed = False
    rc = None
    while rc is None:
        pid, status = os.waitpid(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            rc = os.waitstatus_to_exitcode(status)
            break
        if limit > 0 and time.monotonic() - start > limit and not killed:
            killed = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.005)
    wall = time.monotonic() - start
    # descendants still running (orphans of CMD) belong to the run: end them
    # and reap them so that their time is counted too
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru.ru_utime + ru.ru_stime) - (before.ru_utime + before.ru_stime)
    with open(out_json, "w") as f:
        json.dump({"rc": rc, "wall": wall, "cpu": cpu, "killed": killed}, f)
    return 0


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------- per-run records

def num(x):
    return str(x)


def row(json_file, err_file, rc, name, model, por, results, cpu_file=None):
    rc = int(rc)
    err = open(err_file).read() if os.path.exists(err_file) else ""
    first_err = next((l.strip() for l in err.splitlines() if l.strip()), "")
    d = None
    if os.path.exists(json_file) and os.path.getsize(json_file) > 0:
        d = load(json_file)
    m = load(cpu_file) if cpu_file else None
    rec = {"program": name, "model": model, "por": por, "tool": "tsoify"}
    if m is not None:
        rec["cpu"] = m["cpu"]
    if d is not None:
        reason = d.get("reason", "")
        status = {"SAFE": "complete", "VIOLATION": "violation"}.get(d["verdict"], "partial")
        verdict = d["verdict"]
        if status == "partial":
            verdict += " (timeout)" if "timeout" in reason else f" ({reason})" if reason else ""
        rec.update(status=status, verdict=verdict, executions=d["executions"],
                   complete=d.get("complete", d["executions"]),
                   seconds=d["seconds"], assume_blocked=d.get("assume_blocked", 0))
    elif rc == 3 or "invalid value" in err:
        rec.update(status="na", verdict="n/a", note=first_err)
    elif rc == 124 or rc == 137 or rc == -9:
        rec.update(status="error", verdict="killed (hung past its timeout)")
    else:
        rec.update(status="error", verdict=f"error (exit {rc})", note=first_err)
    with open(results, "a") as f:
        f.write(json.dumps(rec) + "\n")
    if "executions" in rec:
        us = rec["seconds"] * 1e6 / max(rec["executions"], 1)
        cells = [rec["verdict"], num(rec["executions"]), f"{rec['seconds']:.2f}", f"{us:.0f}"]
    else:
        cells = [rec["verdict"], "-", "-", "-"]
    print("| " + " | ".join([name, model, por] + cells) + " |", flush=True)


def peer(tool, out_file, cpu_file, name, model, results):
    """GenMC prints `Number of complete executions explored: N` and `No errors
    were detected.`, or `Error: WHAT` (exit 42; also when its estimation phase
    already met the error, then without a count); Nidhugg prints `Trace count:
    N` and `No errors were detected.`, or ` Error detected:` and `Error: WHAT`
    (exit 42)."""
    out = open(out_file, errors="replace").read() if os.path.exists(out_file) else ""
    m = load(cpu_file) or {}
    rec = {"program": name, "model": model, "tool": tool, "cpu": m.get("cpu")}
    if tool == "genmc":
        n = re.search(r"Number of complete executions explored: (\d+)", out)
        error = re.search(r"^Error: (.*)$", out, re.M)
    else:
        n = re.search(r"Trace count: (\d+)", out)
        error = re.search(r"^\s*Error detected:", out, re.M) and \
            (re.search(r"^\s*Error: (.*)$", out, re.M) or re.search(r"(Error detected:)", out))
    if n:
        rec["complete"] = int(n.group(1))
    if m.get("killed"):
        rec.update(status="partial", verdict="timeout")
    elif error:
        rec.update(status="violation", verdict="VIOLATION", note=error.group(1).strip()[:100])
    elif "No errors were detected" in out:
        rec.update(status="complete", verdict="SAFE")
    else:
        lines = [l.strip() for l in out.splitlines() if l.strip()]
        rec.update(status="error", verdict=f"error (exit {m.get('rc')})",
                   note=(lines[-1] if lines else "")[:160])
    with open(results, "a") as f:
        f.write(json.dumps(rec) + "\n")


# ------------------------------------------------------- reduction tables

def fmt(r):
    return f"{r:.0f}" if r >= 100 else f"{r:.1f}" if r >= 10 else f"{r:.2f}"


def ratio(a, b):
    """executions(a)/executions(b); '>' when only a was cut short (a lower
    bound), '<' when only b was, '?' when both were, 'viol' when a violation
    ended either search early (the counts are not comparable)."""
    if a is None or b is None or "executions" not in a or "executions" not in b:
        return "n/a"
    if "violation" in (a["status"], b["status"]):
        return "viol"
    r = a["executions"] / max(b["executions"], 1)
    cut_a, cut_b = a["status"] != "complete", b["status"] != "complete"
    if cut_a and cut_b:
        return "?"
    return (">" if cut_a else "<" if cut_b else "") + fmt(r)


def ours(results):
    return [r for r in map(json.loads, open(results)) if r.get("tool", "tsoify") == "tsoify"]


def summary(results, models, pors):
    recs = ours(results)
    runs = {(r["program"], r["model"], r["por"]): r for r in recs}
    programs = list(dict.fromkeys(r["program"] for r in recs))
    models, pors = models.split(), pors.split()
    reduced = [p for p in pors if p != "none"]
    if "none" in pors and reduced:
        print()
        print("Reduction: executions(none) / executions(por), per program and model.")
        print("`>` the none search was cut by the timeout (a lower bound); `viol` a violation")
        print("stopped a search early, so the counts do not compare.")
        print()
        head = [f"{m} none/{p}" for m in models for p in reduced]
        print("| program | " + " | ".join(head) + " |")
        print("|---|" + "---|" * len(head))
        for prog in programs:
            cells = [ratio(runs.get((prog, m, "none")), runs.get((prog, m, p))) for m in models for p in reduced]
            print(f"| {prog} | " + " | ".join(cells) + " |")
    relaxed = [m for m in models if m != "sc"]
    if "sc" in models and relaxed:
        print()
        print("Cost of the relaxed model: executions(model) / executions(sc), per program and por.")
        print("`>` the relaxed search was cut (a lower bound), `<` the SC one was.")
        print()
        head = [f"{m}/sc {p}" for m in relaxed for p in pors]
        print("| program | " + " | ".join(head) + " |")
        print("|---|" + "---|" * len(head))
        for prog in programs:
            cells = [ratio(runs.get((prog, m, p)), runs.get((prog, "sc", p))) for m in relaxed for p in pors]
            print(f"| {prog} | " + " | ".join(cells) + " |")
    notes = []
    for prog in programs:
        for m in models:
            done = {p: runs[(prog, m, p)]["status"] for p in pors
                    if (prog, m, p) in runs and runs[(prog, m, p)]["status"] in ("complete", "violation", "partial")}
            found = [p for p, s in done.items() if s == "violation"]
            safe = [p for p, s in done.items() if s == "complete"]
            if found and safe:
                notes.append(f"- **verdicts disagree** on {prog} under {m}: VIOLATION with "
                             f"{', '.join(found)}, SAFE with {', '.join(safe)}")
    skipped = {}
    for r in recs:
        if r["status"] == "na":
            skipped.setdefault(r["por"], r.get("note", ""))
    for por, why in skipped.items():
        notes.append(f"- --por {por}: n/a, verify rejected it" + (f" (`{why}`)" if why else ""))
    for r in recs:
        if r["status"] == "error":
            notes.append(f"- {r['program']} {r['model']} {r['por']}: {r['verdict']}"
                         + (f": `{r['note']}`" if r.get("note") else ""))
    if notes:
        print()
        print("\n".join(notes))


# ------------------------------------------------------------ side by side

PEERS = ("genmc", "nidhugg")
FINISHED = ("complete", "violation")


def side_index(results, por):
    recs = [json.loads(l) for l in open(results)]
    runs = {}
    for r in recs:
        tool = r.get("tool", "tsoify")
        if tool == "tsoify" and r.get("por") != por:
            continue
        runs[(r["program"], r["model"], tool)] = r
    peers = [p for p in PEERS if any(r.get("tool") == p for r in recs)]
    keys = list(dict.fromkeys((r["program"], r["model"]) for r in recs
                              if r.get("tool") in PEERS))
    return runs, peers, keys


def cpu_cell(r):
    return "-" if r is None or r.get("cpu") is None or r["status"] in ("na", "error") else f"{r['cpu']:.2f}"


def verdict_cell(r):
    if r is None:
        return "-"
    v = r["verdict"]
    return "timeout" if r["status"] == "partial" and "timeout" in v else v


def execs_cell(r):
    if r is None or r.get("complete") is None:
        return "-"
    return (">=" if r["status"] == "partial" else "") + str(r["complete"])


def time_ratio(a, b):
    """cpu(a)/cpu(b) when both finished; '>' when only a was cut by the
    timeout (a lower bound), '<' when only b was."""
    if a is None or b is None or a.get("cpu") is None or b.get("cpu") is None:
        return "-"
    fa, fb = a["status"] in FINISHED, b["status"] in FINISHED
    if not fa and a["status"] != "partial" or not fb and b["status"] != "partial":
        return "-"
    if not fa and not fb:
        return "?"
    r = a["cpu"] / max(b["cpu"], 0.005)
    return (">" if not fa else "<" if not fb else "") + fmt(r)


def side_head(peers):
    head = ["program", "model", "tsoify", "execs", "cpu s"]
    for p in peers:
        head += [p, "execs", "cpu s", f"ours/{p}"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head), flush=True)


def side_row(runs, peers, prog, model):
    o = runs.get((prog, model, "tsoify"))
    cells = [prog, model, verdict_cell(o), execs_cell(o), cpu_cell(o)]
    for p in peers:
        r = runs.get((prog, model, p))
        cells += [verdict_cell(r), execs_cell(r), cpu_cell(r), time_ratio(o, r)]
    print("| " + " | ".join(cells) + " |", flush=True)


def side(results, por, *only):
    runs, peers, keys = side_index(results, por)
    if only:  # the head, one row (streamed while the runs go on), or the totals
        if only[0] == "--totals":
            side_totals(runs, peers, keys)
        elif only[0] == "--head":
            side_head(only[1].split())
        else:
            side_row(runs, only[2].split() if len(only) > 2 else peers, only[0], only[1])
        return
    if not peers:
        return
    print()
    print(f"Side by side: tsoify (--por {por}) against {', '.join(peers)}. cpu s is the CPU time")
    print("(user+sys) of the whole process tree of the checking run: verify and its workers")
    print("(tsoify's build is not counted); the peer's whole command, its own clang front end")
    print("included. execs: complete executions (GenMC: `complete executions explored`,")
    print("Nidhugg: `Trace count`). ours/peer is cpu(tsoify)/cpu(peer) where both finished;")
    print("`>` only ours hit the timeout (a lower bound), `<` only the peer did.")
    print("(empty) is `int main(void) { return 0; }`: the least one run costs; not in the totals.")
    print()
    side_head(peers)
    for prog, model in keys:
        side_row(runs, peers, prog, model)
    side_totals(runs, peers, keys)


def side_totals(runs, peers, keys):
    models = list(dict.fromkeys(m for _, m in keys))
    lines = []
    for p in peers:
        for m in models:
            both = []
            for prog, mm in keys:
                if mm != m or prog.startswith("("):
                    continue
                o, r = runs.get((prog, m, "tsoify")), runs.get((prog, m, p))
                if o and r and o["status"] in FINISHED and r["status"] in FINISHED \
                        and o.get("cpu") is not None and r.get("cpu") is not None:
                    both.append((prog, o["cpu"], r["cpu"]))
            if not both:
                continue
            t_o, t_p = sum(b[1] for b in both), sum(b[2] for b in both)
            # the same without the fixed cost of a run, (empty)'s time
            e_o, e_p = runs.get(("(empty)", m, "tsoify")), runs.get(("(empty)", m, p))
            above = "-"
            if e_o and e_p and e_o.get("cpu") is not None and e_p.get("cpu") is not None:
                a_o, a_p = t_o - len(both) * e_o["cpu"], t_p - len(both) * e_p["cpu"]
                above = f"{max(a_o, 0):.2f}/{max(a_p, 0):.2f}"
            worst = max(both, key=lambda b: b[1] / max(b[2], 0.005))
            best = min(both, key=lambda b: b[1] / max(b[2], 0.005))
            over3 = sum(1 for b in both if b[1] > 3 * b[2])
            lines.append(f"| {p} | {m} | {len(both)} | {t_o:.2f} | {t_p:.2f} | {fmt(t_o / max(t_p, 0.005))} | {above} "
                         f"| {worst[0]} {worst[1]:.2f}/{worst[2]:.2f} ({fmt(worst[1] / max(worst[2], 0.005))}) "
                         f"| {best[0]} ({fmt(best[1] / max(best[2], 0.005))}) | {over3} |")
    if lines:
        print()
        print("Totals over the programs both finished (SAFE or VIOLATION), CPU seconds:")
        print()
        print("`above (empty)`: both totals less programs x the (empty) run's time (ours/peer s),")
        print("what the searches cost beyond starting; `>3x`: programs where ours took over 3x the peer's.")
        print()
        print("| peer | model | programs | tsoify | peer | ours/peer | above (empty) | worst (ours/peer s) | best | >3x |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        print("\n".join(lines))
    notes = []
    for p in peers:
        for prog, m in keys:
            o, r = runs.get((prog, m, "tsoify")), runs.get((prog, m, p))
            if o and r and o["status"] in FINISHED and r["status"] in FINISHED and o["status"] != r["status"]:
                notes.append(f"- **verdicts differ** on {prog} under {m}: tsoify {o['verdict']}, "
                             f"{p} {r['verdict']}" + (f" (`{r['note']}`)" if r.get("note") else ""))
            if r and r["status"] == "error":
                notes.append(f"- {p} on {prog} under {m}: {r['verdict']}"
                             + (f": `{r['note']}`" if r.get("note") else ""))
            if o and o["status"] == "error":
                notes.append(f"- tsoify on {prog} under {m}: {o['verdict']}"
                             + (f": `{o['note']}`" if o.get("note") else ""))
    if notes:
        print()
        print("\n".join(notes))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "measure":
        sys.exit(measure(args[0], args[1], *args[2:]))
    {"row": row, "peer": peer, "summary": summary, "side": side}[cmd](*args)
