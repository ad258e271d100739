// page.js - draws verify's answer from the JSON that html.rs puts into
// #tsoify-data: the verdict, the --compare table and plot, the timeline of
// the counterexample (one row per step, one column per thread and per store
// buffer), the source of the selected step, and the statistics.
// Plain DOM, no libraries, no network.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("tsoify-data").textContent);
  const page = document.getElementById("page");

  // el("div", {class: "x", text: "..."}, child, ...): an element
  function el(tag, props, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k === "style") e.style.cssText = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c !== null && c !== undefined && c !== false) e.append(c);
    }
    return e;
  }

  // ---- the verdict ---------------------------------------------------

  function header() {
    const verdict = data.verdict
      ? el("span", {class: "verdict " + data.verdict.toLowerCase().replace(/\s+/g, "-"), id: "verdict", text: data.verdict})
      : null;
    const lines = [];
    // the reason of a violation is its kind, which the summary says
    if (data.reason && !data.summary) lines.push(el("p", {class: "reason", text: data.reason}));
    if (data.summary) lines.push(el("p", {class: "summary", id: "summary", text: data.summary}));
    for (const w of data.warnings || []) lines.push(el("p", {class: "warning", text: "unsupported construct allowed: " + w}));
    for (const n of data.notes || []) lines.push(el("p", {class: "note", text: n}));
    return el("header", {class: "head"},
      el("h1", {}, el("span", {class: "tool", text: data.comparison ? "tsoify · verify --compare" : "tsoify · verify"}), verdict, el("span", {class: "program", text: data.program}),
        data.model ? el("span", {class: "model", text: "under " + data.model}) : null),
      lines);
  }

  function statistics() {
    if (!data.statistics) return null;
    return el("section", {class: "stats", id: "statistics"},
      el("h2", {text: "Statistics"}),
      el("dl", {}, data.statistics.map(([k, v]) => [el("dt", {text: k}), el("dd", {text: v})])));
  }

  function safeNote() {
    if (data.timeline || data.comparison) return null;
    const text = {
      SAFE: "No execution under this memory model violates the program's assertions: every one was explored (up to equivalence).",
      ROBUST: "Every execution under this memory model is equivalent to a sequentially consistent one.",
      UNKNOWN: "The search was cut short, and found no violation in what it explored: this is no proof that none exists.",
    }[data.verdict];
    return text ? el("p", {class: "explain", text}) : null;
  }

  // ---- verify --compare ----------------------------------------------

  function comparison() {
    const c = data.comparison;
    if (!c) return null;
    const head = ["model", "bound", "verdict", "executions", "seconds", "detail"];
    const table = el("table", {class: "compare", id: "compare-table"},
      el("thead", {}, el("tr", {}, head.map((h) => el("th", {text: h})))),
      el("tbody", {}, c.rows.map((r) => el("tr", {"data-model": r.model, "data-bound": r.bound},
        el("td", {text: r.model}), el("td", {text: r.bound}),
        el("td", {}, el("span", {class: "verdict small " + r.verdict.toLowerCase(), text: r.verdict})),
        el("td", {class: "n", text: r.executions}), el("td", {class: "n", text: r.seconds}),
        el("td", {class: "detail", text: r.reason})))));
    const plot = c.svg ? el("figure", {class: "plot", id: "compare-plot"}) : null;
    if (plot) plot.innerHTML = c.svg; // our own SVG, drawn by compare.rs
    return el("section", {class: "comparison"},
      el("h2", {text: "Models and store-buffer bounds"}),
      table,
      el("p", {class: "summary-line", text: c.summary}),
      plot,
      c.shown ? el("div", {class: "explain", id: "compare-shown"},
        el("p", {text: "Below: the counterexample of the first configuration that failed, " + c.shown + "."}),
        el("p", {class: "summary", text: c.shown_summary})) : null);
  }

  // ---- the timeline --------------------------------------------------

  // step number -> the marks (reordered pair, race) it belongs to
  function marksByStep(t) {
    const by = new Map();
    for (const m of t.marks) {
      m.steps.forEach((s, i) => {
        if (!by.has(s)) by.set(s, []);
        by.get(s).push({mark: m, role: i === 0 ? "first" : "second"});
      });
    }
    return by;
  }

  function sourceText(t, step) {
    const s = step.source && t.sources[step.source];
    if (!s) return "";
    const line = s.lines.find(([n]) => n === s.line);
    return line ? line[1].trim() : "";
  }

  function findings(t) {
    const items = [];
    for (const m of t.marks) {
      items.push(el("li", {class: "finding " + m.kind, "data-steps": m.steps.join(" ")},
        el("span", {class: "tag " + m.kind, text: m.kind === "race" ? "data race" : "reordered pair"}),
        el("button", {class: "steps", text: "steps " + m.steps.join(" and "), onclick: () => select(m.steps[1])}),
        " ", m.text));
    }
    for (const s of t.steps.filter((s) => s.stale)) {
      items.push(el("li", {class: "finding stale", "data-steps": String(s.step)},
        el("span", {class: "tag stale", text: "stale read"}),
        el("button", {class: "steps", text: "step " + s.step, onclick: () => select(s.step)}),
        " T" + s.thread + " " + s.operation + ": " + s.stale.replace(/^stale: /, "")));
    }
    if (!items.length) return null;
    return el("ul", {class: "findings", id: "findings"}, items);
  }

  function legend() {
    const chip = (cls, text) => el("span", {class: "chip"}, el("span", {class: "swatch " + cls}), text);
    return el("div", {class: "legend"},
      chip("in-buffer", "store waiting in a buffer, from the step that buffered it to its flush"),
      chip("stale", "stale read"),
      chip("reordered", "reordered pair"),
      chip("violation", "violation"));
  }

  function timeline() {
    const t = data.timeline;
    if (!t) return null;
    const byStep = marksByStep(t);
    // one source file: its name in the column head, only line numbers below
    const files = new Set(t.steps.filter((s) => s.location !== "-").map((s) => s.location.replace(/:\d+$/, "")));
    const oneFile = files.size === 1 ? [...files][0] : null;
    const shortLoc = (loc) => (oneFile && loc.startsWith(oneFile + ":") ? loc.slice(oneFile.length + 1) : loc);
    const lanesBefore = [];
    let lanes = 0;
    for (const b of t.buffers) { lanesBefore.push(lanes); lanes += b.lanes; }
    const firstThreadCol = 3;
    const firstBufferCol = firstThreadCol + t.threads.length;
    const columns = ["2.6em", "minmax(11em, 1.2fr)"]
      .concat(t.threads.map(() => "minmax(11em, 1.6fr)"))
      .concat(Array(lanes).fill("minmax(7em, 0.8fr)"));
    const grid = el("div", {class: "grid", id: "timeline", role: "table", style: "grid-template-columns: " + columns.join(" ")});

    // the header row
    const at = (col, row, span) => "grid-column: " + col + (span > 1 ? " / span " + span : "") + "; grid-row: " + row;
    grid.append(el("div", {class: "col-head num", style: at(1, 1), text: "#", title: "step"}));
    grid.append(el("div", {class: "col-head src", style: at(2, 1), text: oneFile ? "source: " + oneFile : "source", title: oneFile}));
    t.threads.forEach((th, i) => grid.append(el("div", {class: "col-head thread t" + (th % 6), "data-thread": th, style: at(firstThreadCol + i, 1)},
      el("span", {class: "dot"}), "T" + th, th === 0 ? el("small", {text: " main"}) : null)));
    t.buffers.forEach((b, i) => grid.append(el("div", {class: "col-head buffer t" + (b.thread % 6), "data-buffer": b.thread, style: at(firstBufferCol + lanesBefore[i], 1, b.lanes)},
      "T" + b.thread + "'s buffer")));

    // one row per step
    for (const s of t.steps) {
      const row = s.step + 1;
      const code = sourceText(t, s);
      const tip = s.location + (code ? "  " + code : "");
      const common = {"data-step": s.step, title: tip, onclick: () => select(s.step), onmouseenter: () => hover(s.step, true), onmouseleave: () => hover(s.step, false)};
      grid.append(el("div", Object.assign({class: "cell num", style: at(1, row), text: s.step}, common)));
      grid.append(el("div", Object.assign({class: oneFile ? "cell src one-file" : "cell src", style: at(2, row)}, common),
        el("span", {class: "loc", text: shortLoc(s.location)}), code ? el("code", {text: code}) : null));
      t.threads.forEach((th, i) => {
        const mine = th === s.thread && s.flush_of === null;
        grid.append(mine ? opCell(s, byStep.get(s.step) || [], at(firstThreadCol + i, row), common)
          : el("div", Object.assign({class: "cell empty", style: at(firstThreadCol + i, row)}, common)));
      });
      for (let l = 0; l < lanes; l++) {
        grid.append(el("div", Object.assign({class: "cell lane", style: at(firstBufferCol + l, row)}, common)));
      }
    }

    // a bar per buffered store
    const hidden = new Set(t.steps.filter((s) => s.hidden_by).map((s) => s.hidden_by));
    const reorderedStores = new Set(t.marks.filter((m) => m.kind === "reordered").map((m) => m.steps[0]));
    t.stores.forEach((st) => {
      const i = t.buffers.findIndex((b) => b.thread === st.buffer);
      const cls = ["bar", "t" + (st.buffer % 6), hidden.has(st.from) ? "hides" : "", reorderedStores.has(st.from) ? "reordered" : "", st.flushed ? "" : "unflushed"].join(" ").trim();
      grid.append(el("div", {class: cls, "data-buffer": st.buffer, "data-from": st.from, "data-to": st.to,
        title: "T" + st.buffer + "'s store " + st.label + ": buffered at step " + st.from + (st.flushed ? ", reached memory at step " + st.to : ", still buffered at the end"),
        style: "grid-column: " + (firstBufferCol + lanesBefore[i] + st.lane) + "; grid-row: " + (st.from + 1) + " / " + (st.to + 2),
        onclick: () => select(st.from)},
      el("span", {class: "bar-label", text: st.label}),
      el("span", {class: "bar-end", text: st.flushed ? "↓ memory · " + st.to : "still buffered"})));
    });

    return el("section", {class: "timeline"},
      el("div", {class: "caption"}, el("h2", {text: t.caption}), legend()),
      findings(t),
      el("div", {class: "grid-wrap"}, grid),
      t.truncated ? el("p", {class: "note", text: "The event log overflowed: the trace is truncated."}) : null);
  }

  const SECOND_LINE = new Set(["load", "store", "rmw", "fence", "await", "free"]);

  // a thread's step: the operation, what the buffer did, and its marks
  function opCell(s, marks, style, common) {
    const cls = ["cell", "op", s.kind];
    const badges = [];
    if (s.stale) { cls.push("stale"); badges.push(el("span", {class: "badge stale", text: "stale"})); }
    for (const {mark, role} of marks) {
      cls.push(mark.kind);
      // the store was held back in its buffer; the later access overtook it
      const word = mark.kind === "race" ? "race" : role === "first" ? "held back" : "overtook";
      badges.push(el("span", {class: "badge " + mark.kind, text: word}));
    }
    if (s.violation) cls.push("violation");
    // what the buffer did, on a second line where it tells something (a
    // thread call's "fence" only in the tooltip)
    const shown = s.buffer && SECOND_LINE.has(s.kind) ? s.buffer : null;
    const tip = (s.stale ? s.stale + "\n" : "") + (s.buffer ? "store buffer: " + s.buffer + "\n" : "") + common.title;
    return el("div", Object.assign({}, common, {class: cls.join(" "), style, "data-thread": s.thread, title: tip}),
      el("span", {class: "op-text", text: s.operation}),
      shown || badges.length ? el("span", {class: "op-line"}, shown ? el("span", {class: "op-buffer", text: shown}) : null, badges) : null);
  }

  function hover(step, on) {
    for (const c of document.querySelectorAll('#timeline [data-step="' + step + '"]')) c.classList.toggle("hover", on);
  }

  // ---- the source of the selected step ------------------------------

  const panel = el("section", {class: "source-panel", id: "source-panel", "aria-live": "polite"});

  function select(step) {
    const t = data.timeline;
    const s = t && t.steps.find((x) => x.step === step);
    if (!s) return;
    for (const c of document.querySelectorAll("#timeline .selected")) c.classList.remove("selected");
    for (const c of document.querySelectorAll('#timeline [data-step="' + step + '"]')) c.classList.add("selected");
    panel.dataset.step = step;
    const snip = s.source && t.sources[s.source];
    const where = s.location + (s.function ? " in " + s.function : "");
    const title = el("div", {class: "panel-title"},
      el("strong", {text: "step " + s.step}), " · " + (s.flush_of !== null ? "T" + s.flush_of + "'s buffer" : "T" + s.thread) + " · " + s.operation,
      el("span", {class: "where", text: where}));
    const body = snip
      ? el("pre", {class: "code"}, snip.lines.map(([n, text]) => el("span", {class: n === snip.line ? "line current" : "line"},
          el("span", {class: "ln", text: n}), el("span", {class: "lt", text: text || " "}))))
      : el("p", {class: "note", text: s.location === "-" ? "This step has no source position." : "The source file is not readable from where verify ran."});
    panel.replaceChildren(title, body);
    if (s.stale) panel.append(el("p", {class: "why stale", text: s.stale}));
  }

  function initialStep(t) {
    const v = t.steps.find((s) => s.violation);
    if (v) return v.step;
    if (t.marks.length) return t.marks[0].steps[1];
    const st = t.steps.find((s) => s.stale);
    return st ? st.step : t.steps.length ? t.steps[0].step : null;
  }

  // ---- the page ------------------------------------------------------

  page.replaceChildren();
  page.append(header());
  const safe = safeNote();
  if (safe) page.append(safe);
  const cmp = comparison();
  if (cmp) page.append(cmp);
  const tl = timeline();
  if (tl) {
    page.append(tl, panel);
    const first = initialStep(data.timeline);
    if (first !== null) select(first);
  }
  const stats = statistics();
  if (stats) page.append(stats);
})();
