// The study page: a match and a depth table streamed from the server as
// server-sent events, drawn as tables and SVG plots by this script.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#5d4037", "#455a64"];
// Series differ by dash and marker too, so coinciding lines stay readable.
const DASHES = ["", "6 3", "2 3", "10 3 2 3", "4 2 1 2", "1 2", "8 2", "3 5"];
const MARKERS = ["circle", "square", "triangle", "diamond", "cross", "circle-open", "square-open", "triangle-down"];

/** Round tick values (1, 2 or 5 times a power of ten apart) covering [lo, hi]. */
function niceTicks(lo, hi, want) {
  const raw = (hi - lo) / Math.max(1, want);
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
  const out = [];
  for (let t = Math.floor(lo / step) * step; t <= hi + 1e-9; t += step) out.push(Math.round(t * 1e6) / 1e6);
  return out;
}

/** A marker of `kind` at (x, y). */
function marker(kind, x, y, color) {
  const r = 3.5;
  const open = kind.endsWith("-open");
  const base = kind.replace("-open", "");
  const paint = { fill: open ? "#fff" : color, stroke: color, "stroke-width": 1.5 };
  if (base === "circle") return svg("circle", { cx: x, cy: y, r, ...paint });
  if (base === "square") return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...paint });
  if (base === "cross") return svg("path", { d: `M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`, stroke: color, "stroke-width": 2 });
  const pts = base === "triangle" ? [[0, -r - 1], [r + 1, r], [-r - 1, r]] : base === "triangle-down" ? [[0, r + 1], [r + 1, -r], [-r - 1, -r]] : [[0, -r - 1], [r + 1, 0], [0, r + 1], [-r - 1, 0]];
  return svg("polygon", { points: pts.map(([a, b]) => `${x + a},${y + b}`).join(" "), ...paint });
}
const sources = {};

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * A line plot into `box`: series [{name, color, points: [[x, y]]}], y on a log10 scale if `log`.
 */
function plot(box, series, opts) {
  const W = Number(box.getAttribute("width")), H = Number(box.getAttribute("height"));
  const m = { l: 56, r: 118, t: 24, b: 32 };
  box.replaceChildren();
  const pts = series.flatMap((s) => s.points);
  if (!pts.length) return;
  const fy = opts.log ? (y) => Math.log10(Math.max(1, y)) : (y) => y;
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => fy(p[1]));
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (opts.log) { y0 = Math.floor(y0); y1 = Math.ceil(y1); }
  if (opts.zero) { y0 = Math.min(y0, 0); y1 = Math.max(y1, 0); }
  if (x0 === x1) x1 = x0 + 1;
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const lin = opts.log ? null : niceTicks(y0, y1, 5);
  if (lin) { y0 = lin[0]; y1 = lin[lin.length - 1]; }
  // Series side by side around each x, so equal points do not cover each other.
  const dodge = (i) => opts.dodge ? (i - (series.length - 1) / 2) * Math.min(0.12, 0.6 / series.length) : 0;
  const X = (x) => m.l + (x - x0) / (x1 - x0) * (W - m.l - m.r);
  const Y = (y) => H - m.b - (fy(y) - y0) / (y1 - y0) * (H - m.t - m.b);
  const axis = { stroke: "#90a4ae", "stroke-width": 1 };
  box.append(svg("line", { x1: m.l, y1: H - m.b, x2: W - m.r, y2: H - m.b, ...axis }));
  box.append(svg("line", { x1: m.l, y1: m.t, x2: m.l, y2: H - m.b, ...axis }));
  const yticks = opts.log ? Array.from({ length: y1 - y0 + 1 }, (_, i) => 10 ** (y0 + i)) : lin;
  for (const t of yticks) {
    const zero = !opts.log && t === 0;
    box.append(svg("line", { x1: m.l - 4, y1: Y(t), x2: W - m.r, y2: Y(t), stroke: zero ? "#37474f" : "#eceff1",
      "stroke-width": zero ? 1.5 : 1, class: zero ? "zero" : "grid" }));
    box.append(svg("text", { x: m.l - 6, y: Y(t) + 4, "text-anchor": "end", class: "ytick" }, opts.log ? "1e" + Math.log10(t) : t));
  }
  const step = Math.max(1, Math.ceil((x1 - x0) / 10));
  for (let x = x0; x <= x1; x += step) box.append(svg("text", { x: X(x), y: H - m.b + 14, "text-anchor": "middle" }, x));
  box.append(svg("text", { x: (m.l + W - m.r) / 2, y: H - 4, "text-anchor": "middle" }, opts.xlabel));
  box.append(svg("text", { x: 8, y: 14 }, opts.ylabel));
  series.forEach((s, i) => {
    const dash = DASHES[i % DASHES.length], mk = MARKERS[i % MARKERS.length];
    const px = (p) => X(p[0] + dodge(i));
    const d = s.points.map((p, j) => (j ? "L" : "M") + px(p).toFixed(1) + "," + Y(p[1]).toFixed(1)).join(" ");
    box.append(svg("path", { d, fill: "none", stroke: s.color, "stroke-width": 2, "stroke-dasharray": dash, class: "series" }));
    for (const p of s.points) box.append(marker(mk, px(p), Y(p[1]), s.color));
    const ly = m.t + 10 + 16 * i;
    box.append(svg("line", { x1: W - m.r + 4, y1: ly - 4, x2: W - m.r + 24, y2: ly - 4, stroke: s.color, "stroke-width": 2, "stroke-dasharray": dash }));
    box.append(marker(mk, W - m.r + 14, ly - 4, s.color));
    const legend = svg("text", { x: W - m.r + 28, y: ly }, s.name);
    legend.style.fill = s.color; // the stylesheet greys plot text; the legend keeps its line's colour
    box.append(legend);
  });
}

/**
 * Reads the server-sent events of `url` (a new run of `key` aborts the previous one, which
 * stops it on the server) and calls handlers[name](data) per event; errors go to status().
 */
async function stream(key, url, handlers, status) {
  if (sources[key]) sources[key].abort();
  const ctl = new AbortController();
  sources[key] = ctl;
  try {
    const r = await fetch(url, { signal: ctl.signal });
    if (!r.ok) {
      const b = await r.json().catch(() => ({ error: "status " + r.status }));
      return status(b.error, true);
    }
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) name = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        if (name === "failed") status(JSON.parse(data).error, true);
        else if (handlers[name]) handlers[name](JSON.parse(data));
      }
    }
  } catch (e) {
    if (e.name !== "AbortError") status(e.message, true);
  }
}

function setStatus(id, text, error) { $(id).textContent = text; $(id).classList.toggle("error", !!error); }

$("match-form").addEventListener("submit", (e) => {
  e.preventDefault();
  syncForms();
  const size = $("m-size").value, depth = $("m-depth").value, ev = $("m-eval").value;
  const rows = [];
  const body = $("m-table").tBodies[0];
  body.replaceChildren();
  $("m-table").tFoot.replaceChildren();
  $("m-progress").max = size * size - 4;
  $("m-progress").value = 0;
  setStatus("m-status", "Running…");
  const draw = () => plot($("m-plot"), [
    { name: "minimax", color: PALETTE[1], points: rows.map((r) => [r.ply, r.minimax]) },
    { name: "alpha-beta", color: PALETTE[0], points: rows.map((r) => [r.ply, r.alphabeta]) },
  ], { log: true, xlabel: "move", ylabel: "states per move" });
  stream("match", `/api/study/match?size=${size}&depth=${depth}&eval=${ev}`, {
    move: (r) => {
      rows.push(r);
      $("m-progress").value = r.ply;
      body.append(el("tr", {}, el("td", {}, r.ply), el("td", {}, r.move), el("td", {}, r.value),
        el("td", {}, r.alphabeta.toLocaleString("en")), el("td", {}, r.minimax.toLocaleString("en")),
        el("td", {}, (100 * r.alphabeta / r.minimax).toFixed(1) + "%")));
      draw();
      setStatus("m-status", `Move ${r.ply}…`);
    },
    done: (d) => {
      $("m-progress").max = rows.length;
      $("m-progress").value = rows.length;
      const ab = rows.reduce((s, r) => s + r.alphabeta, 0), mm = rows.reduce((s, r) => s + r.minimax, 0);
      // The totals go in the table's last row, so the status stays one short line.
      $("m-table").tFoot.replaceChildren(el("tr", {}, el("th", { scope: "row", colspan: 3 }, "all moves"),
        el("td", {}, ab.toLocaleString("en")), el("td", {}, mm.toLocaleString("en")), el("td", {}, (100 * ab / mm).toFixed(1) + "%")));
      setStatus("m-status", `Done: ${d.moves} moves, final score ${d.score}.`);
    },
  }, (t, err) => setStatus("m-status", t, err));
});

$("table-form").addEventListener("submit", (e) => {
  e.preventDefault();
  syncForms();
  const size = $("t-size").value, max = Number($("t-depth").value), ev = $("t-eval").value;
  const cells = [];
  $("t-progress").max = max * max;
  $("t-progress").value = 0;
  setStatus("t-status", "Running…");
  const draw = () => {
    const head = el("tr", {}, el("th", {}, "black \\ white"), ...Array.from({ length: max }, (_, w) => el("th", { scope: "col" }, w + 1)));
    const rows = Array.from({ length: max }, (_, b) => el("tr", {}, el("th", { scope: "row" }, b + 1),
      ...Array.from({ length: max }, (_, w) => {
        const c = cells.find((x) => x.black === b + 1 && x.white === w + 1);
        return paint(el("td", { "data-testid": `cell-${b + 1}-${w + 1}`, class: "cell",
          title: c ? `black depth ${b + 1} against white depth ${w + 1}: ${c.score > 0 ? "black wins" : c.score < 0 ? "white wins" : "a draw"}` : null },
          c ? (c.score > 0 ? "+" + c.score : String(c.score)) : ""), c && cellStyle(c.score, size));
      })));
    $("t-table").replaceChildren(el("thead", {}, head), el("tbody", {}, rows));
    plot($("t-plot"), Array.from({ length: max }, (_, b) => ({
      name: "black depth " + (b + 1), color: PALETTE[b % PALETTE.length],
      points: cells.filter((c) => c.black === b + 1).map((c) => [c.white, c.score]),
    })).filter((s) => s.points.length), { log: false, zero: true, dodge: true, xlabel: "white depth", ylabel: "final score (black − white, discs)" });
  };
  draw();
  stream("table", `/api/study/table?size=${size}&max_depth=${max}&eval=${ev}`, {
    cell: (c) => { cells.push(c); $("t-progress").value = cells.length; draw(); setStatus("t-status", `Game ${cells.length} of ${max * max}…`); },
    done: (d) => { setStatus("t-status", `Done: ${d.games} games.`); },
  }, (t, err) => setStatus("t-status", t, err));
});

/**
 * A depth-table cell's colours: dark for black's wins, light blue-grey for
 * white's, white for a draw, stronger with the margin; the text keeps a
 * contrast of at least 4.5:1 (white on the dark cells).
 */
function cellStyle(score, size) {
  const t = Math.min(1, Math.abs(score) / (size * size / 2));
  if (score > 0) {
    const l = Math.round(70 - 45 * t);
    return [`hsl(200 18% ${l}%)`, l < 55 ? "#fff" : "#000"];
  }
  if (score < 0) return [`hsl(45 90% ${Math.round(92 - 30 * t)}%)`, "#000"];
  return ["#fff", "#000"];
}

/** Colours a cell through the style object (the pages' CSP refuses style attributes). */
function paint(e, colours) {
  if (colours) { e.style.backgroundColor = colours[0]; e.style.color = colours[1]; }
  return e;
}

/** The server's depth caps (from /api/status) bound the forms' depth fields. */
const caps = { match: { 4: 12, 6: 6, 8: 5 }, table: { 4: 8, 6: 5, 8: 4 } };
function bound(kind, sizeId, depthId) {
  const max = caps[kind][$(sizeId).value];
  $(depthId).max = max;
  if (Number($(depthId).value) > max) $(depthId).value = max;
  if (Number($(depthId).value) < 1) $(depthId).value = 1;
  $(depthId).setAttribute("aria-describedby", depthId + "-cap");
  $(depthId + "-cap").textContent = `1 to ${max} on ${$(sizeId).value}x${$(sizeId).value}`;
}
const syncForms = () => { bound("match", "m-size", "m-depth"); bound("table", "t-size", "t-depth"); };
for (const id of ["m-size", "t-size", "m-depth", "t-depth"]) $(id).addEventListener("change", syncForms);
api("/api/status").then((s) => {
  for (const n of [4, 6, 8]) {
    caps.match[n] = s.study.match_max_depth[n];
    caps.table[n] = s.study.table_max_depth[n];
  }
  syncForms();
}).catch(() => syncForms());
syncForms();
