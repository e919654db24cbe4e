// The search explorer: runs a counted search on the server (/api/search),
// opens its tree node by node (/api/tree/ID/node/K) and replays it in
// visit order (/api/tree/ID/step/K). Nothing of the tree is loaded until asked.
"use strict";

const $ = (id) => document.getElementById(id);
const views = { a: null, b: null }; // {id, total, line:Set, nodes:Map}
let step = null; // {view, k}
// The step asked for last: its answer alone is shown (an older request
// answered later never undoes a newer one), and "next"/"prev" count from
// it, so that clicks faster than the server answers are never lost.
let stepWanted = null; // {ticket, k}
let stepTickets = 0;
let timer = null;
let runs = 0; // bumped by every run: answers for an older run are dropped
let selections = 0; // bumped by every node selected: an older selection's answer is dropped
let mode = false; // the last run: false (one tree), true (natural vs best) or "versus"

function bound(v) { return v === "-inf" ? "−∞" : v === "+inf" ? "+∞" : String(v); }
function fmt(n) { return Number(n).toLocaleString("en"); }
function setStatus(text, error) { $("status").textContent = text; $("status").classList.toggle("error", !!error); }

function params(order) {
  const p = new URLSearchParams({
    board: $("board").value.trim(), player: $("player").value, algorithm: $("algorithm").value,
    order: order || $("order").value, eval: $("eval").value,
  });
  if ($("depth").value) p.set("depth", $("depth").value);
  return p;
}

async function search(which, order, algorithm, my) {
  const p = params(order);
  if (algorithm) p.set("algorithm", algorithm);
  const r = await api("/api/search?" + p);
  if (my !== runs) throw new Superseded();
  const v = { id: r.id, total: r.count, events: r.events, line: new Set(r.chosen_line), nodes: new Map(), which };
  v.nodes.set(0, r.root);
  views[which] = v;
  const name = `${r.algorithm === "minimax" ? "minimax" : "alpha-beta"}, ${r.order} order` +
    (r.depth ? `, depth ${r.depth} (${r.eval})` : ", to the end");
  $("title-" + which).textContent = name;
  $("value-" + which).textContent = r.value;
  $("count-" + which).textContent = r.count;
  $("best-" + which).textContent = r.best || "none";
  const tree = $("tree-" + which);
  delete tree.dataset.lineOpen;
  tree.replaceChildren(nodeItem(v, r.root.node, true, true, r.root.max));
  tree.querySelector(".node").tabIndex = 0;
  const drawn = $("drawn-" + which);
  drawn.replaceChildren();
  drawn.hidden = r.count > 200;
  if (r.count <= 200) {
    const nodes = (await api(`/api/tree/${r.id}/nodes`)).nodes;
    if (my !== runs) throw new Superseded();
    drawTree(v, drawn, nodes);
  }
  return r;
}

/** A run overtaken by a later one (its answers are dropped). */
class Superseded extends Error {}

/** Keeps the explorer's state in the address: a reload or a shared link restores the same trees and step. */
function saveAddress() {
  const p = params();
  if (mode) p.set("compare", mode === "versus" ? "versus" : "order");
  if (step) { p.set("tree", step.v.which); p.set("step", step.k + 1); }
  history.replaceState(null, "", "/explore?" + p);
}

/** Empties the node panel (it described a node of an earlier search). */
function clearNode() {
  $("node-board").replaceChildren();
  $("node-info").replaceChildren(el("p", { class: "note" }, "Click a node of the tree to see it here."));
}

async function run(compare, at) {
  const my = ++runs;
  stopPlaying();
  setStatus("Searching…");
  clearNode();
  step = null;
  stepWanted = null;
  mode = compare;
  $("view-b").hidden = !compare;
  try {
    if (compare === "versus") {
      const a = await search("a", $("order").value, "minimax", my);
      const b = await search("b", $("order").value, "alphabeta", my);
      setStatus(`Minimax ${fmt(a.count)} states, alpha-beta ${fmt(b.count)} ` +
        `(${(100 * b.count / a.count).toFixed(1)}%); the same value ${a.value}.`);
    } else if (compare) {
      const a = await search("a", "natural", undefined, my);
      const b = await search("b", "best", undefined, my);
      setStatus(`Natural order ${fmt(a.count)} states, best order ${fmt(b.count)} ` +
        `(${(100 * b.count / a.count).toFixed(1)}%); the same value ${a.value}.`);
    } else {
      const a = await search("a", undefined, undefined, my);
      setStatus(`Value ${a.value}, ${fmt(a.count)} states explored.`);
      views.b = null;
    }
    $("step-tree").value = at && at.tree === "b" && views.b ? "b" : "a";
    await showStep(at ? at.step : 0);
  } catch (e) {
    if (!(e instanceof Superseded)) setStatus(e.message, true);
  }
}

async function detail(v, k) {
  if (!v.nodes.has(k)) v.nodes.set(k, await api(`/api/tree/${v.id}/node/${k}`));
  return v.nodes.get(k);
}

/** The list item of a node: a row (toggle, move, side, value, window, size) and its children, loaded on expand. */
function nodeItem(v, n, onLine, isRoot, max) {
  const chosen = onLine && (isRoot || n.chosen);
  const li = el("li", { role: "treeitem", "aria-expanded": n.leaf ? null : "false", "data-index": n.index });
  const toggle = n.leaf ? el("span", { class: "toggle" }) :
    el("button", { class: "toggle", type: "button", "aria-label": "expand " + (n.move || "root"), tabindex: "-1" }, "▸");
  const row = el("div", {
    class: "node" + (chosen ? " chosen" : ""), tabindex: "-1", "data-max": max ? "true" : "false",
    "data-testid": "node-" + n.index, "data-cutoff": n.cutoff ? "true" : null,
    "aria-label": `${n.move || "root"}, ${max ? "MAX" : "MIN"} to move, value ${n.value}, window ${bound(n.alpha)} to ${bound(n.beta)}, ${n.size} states` +
      (chosen ? ", chosen line" : "") + (n.leaf ? ", leaf" : ""),
  },
  toggle,
  el("span", { class: "mv" }, n.move || "root"),
  el("span", { class: "side " + (max ? "max" : "min"), title: max ? "MAX (dark) to move: takes the largest value" : "MIN (light) to move: takes the smallest value" }, max ? "MAX ▲" : "MIN ▼"),
  el("span", { class: "val" }, "v=" + n.value),
  el("span", { class: "win" }, `[${bound(n.alpha)}, ${bound(n.beta)}]`),
  el("span", { class: "win" }, "#" + n.index),
  el("span", { class: "win" }, fmt(n.size) + (n.size === 1 ? " state" : " states")),
  n.cutoff ? el("span", { class: "win", title: "alpha ≥ beta: the remaining moves were pruned" }, "cut") : null);
  const group = el("ul", { role: "group", hidden: true });
  li.append(row, group);
  const expand = async () => {
    if (n.leaf) return;
    const open = li.getAttribute("aria-expanded") === "true";
    if (open) { li.setAttribute("aria-expanded", "false"); group.hidden = true; toggle.textContent = "▸"; return; }
    const d = await detail(v, n.index);
    if (!group.childElementCount) {
      for (const c of d.children) group.append(nodeItem(v, c, chosen, false, !max));
      for (const m of d.pruned) {
        group.append(el("li", { role: "treeitem" }, el("div", { class: "node pruned", "aria-label": m + " pruned" },
          el("span", { class: "toggle" }), el("span", { class: "mv" }, m), el("span", {}, "pruned"))));
      }
    }
    li.setAttribute("aria-expanded", "true"); group.hidden = false; toggle.textContent = "▾";
  };
  li.expand = expand;
  toggle.addEventListener && toggle.addEventListener("click", (e) => { e.stopPropagation(); expand().catch(report); });
  row.addEventListener("click", () => { select(v, n.index, row, true).catch(report); });
  row.addEventListener("keydown", (e) => {
    const open = li.getAttribute("aria-expanded") === "true";
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(v, n.index, row, true).catch(report); expand().catch(report); }
    else if (e.key === "ArrowRight") { e.preventDefault(); if (li.getAttribute("aria-expanded") === "false") expand().catch(report); else if (open) moveFocus(row, 1); }
    else if (e.key === "ArrowLeft") {
      e.preventDefault();
      if (open) expand().catch(report);
      else { const up = li.parentElement.closest("li"); if (up) focusRow(up.querySelector(".node")); }
    }
    else if (e.key === "ArrowDown") { e.preventDefault(); moveFocus(row, 1); }
    else if (e.key === "ArrowUp") { e.preventDefault(); moveFocus(row, -1); }
    else if (e.key === "Home") { e.preventDefault(); focusRow(row.closest("ul.tree").querySelector(".node")); }
  });
  return li;
}

function report(e) { setStatus(e.message, true); }

/**
 * A small search drawn as a node-link tree (SVG): leaves side by side in
 * visit order, each parent above the middle of its children; MAX nodes are
 * squares and MIN nodes circles (shape, not colour alone), the chosen line
 * thick, a cut-off node's pruned moves as dashed stubs. A click selects the node.
 */
function drawTree(v, box, nodes) {
  const NS = "http://www.w3.org/2000/svg";
  const s = (tag, a, text) => { const e = document.createElementNS(NS, tag); for (const [k, x] of Object.entries(a)) e.setAttribute(k, x); if (text !== undefined) e.textContent = text; return e; };
  const pos = new Map(), stubs = new Map();
  let leaves = 0, depth = 0;
  const place = (k) => {
    const n = nodes[k];
    depth = Math.max(depth, n.ply);
    const xs = n.children.map(place);
    stubs.set(k, n.pruned.map(() => leaves++));
    xs.push(...stubs.get(k));
    const x = xs.length ? (Math.min(...xs) + Math.max(...xs)) / 2 : leaves++;
    pos.set(k, x);
    return x;
  };
  place(0);
  // Drawn at its own size (labels 12 px, never scaled down): a tree wider
  // or taller than its box scrolls inside it.
  const dx = 44, dy = 62, W = Math.max(1, leaves) * dx + 20, H = (depth + 1) * dy + 30;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "drawn", role: "img",
    "aria-label": `the search tree drawn: ${nodes.length} nodes, squares MAX, circles MIN` });
  const X = (x) => 10 + dx / 2 + x * dx, Y = (p) => 20 + p * dy;
  const line = new Set([0]);
  for (const n of nodes) if (line.has(n.index)) for (const c of n.children) if (nodes[c].chosen) line.add(c);
  for (const n of nodes) {
    for (const c of n.children) {
      svg.append(s("line", { x1: X(pos.get(n.index)), y1: Y(n.ply), x2: X(pos.get(c)), y2: Y(n.ply + 1),
        class: "edge" + (line.has(c) ? " chosen" : "") }));
    }
    if (n.pruned.length) {
      // The pruned moves sit right of the searched children.
      for (const [i, m] of n.pruned.entries()) {
        const x = X(stubs.get(n.index)[i]), y = Y(n.ply + 1);
        svg.append(s("line", { x1: X(pos.get(n.index)), y1: Y(n.ply), x2: x, y2: y - 10, class: "edge pruned" }));
        svg.append(s("text", { x, y: y + 4, "text-anchor": "middle", class: "pruned-label" }, m + "✂"));
      }
    }
  }
  for (const n of nodes) {
    const x = X(pos.get(n.index)), y = Y(n.ply);
    const g = s("g", { class: "dnode" + (n.max ? " max" : " min") + (line.has(n.index) ? " chosen" : ""), "data-index": n.index, tabindex: "-1" });
    g.append(s("title", {}, `${n.move || "root"}: ${n.max ? "MAX" : "MIN"} to move, value ${n.value}, window [${bound(n.alpha)}, ${bound(n.beta)}]`));
    g.append(n.max ? s("rect", { x: x - 15, y: y - 14, width: 30, height: 28, rx: 2 }) : s("circle", { cx: x, cy: y, r: 15 }));
    g.append(s("text", { x, y: y + 4, "text-anchor": "middle" }, n.value));
    if (n.move) g.append(s("text", { x, y: y - 19, "text-anchor": "middle", class: "mvlabel" }, n.move));
    g.addEventListener("click", () => select(v, n.index, null, true).catch(report));
    svg.append(g);
  }
  box.append(svg);
  v.drawn = svg;
}

/** Marks the replay's node `k` in the drawn tree (if any) and scrolls it into the box's view. */
function markDrawn(v, k) {
  if (!v.drawn) return;
  v.drawn.querySelectorAll(".dnode.current").forEach((g) => g.classList.remove("current"));
  const g = v.drawn.querySelector(`.dnode[data-index="${k}"]`);
  if (!g) return;
  g.classList.add("current");
  const box = v.drawn.parentElement, r = g.getBoundingClientRect(), b = box.getBoundingClientRect();
  if (r.left < b.left || r.right > b.right) box.scrollLeft += r.left - b.left - b.width / 2;
  if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 2;
}

/** The tree is one Tab stop: the focused row holds it (roving tabindex). */
function focusRow(row) {
  if (!row) return;
  for (const r of row.closest("ul.tree").querySelectorAll('.node[tabindex="0"]')) r.tabIndex = -1;
  row.tabIndex = 0;
  row.focus();
}

/** Moves the focus to the next (+1) or previous (-1) visible row. */
function moveFocus(row, delta) {
  const rows = [...row.closest("ul.tree").querySelectorAll(".node")].filter((r) => r.offsetParent !== null);
  focusRow(rows[rows.indexOf(row) + delta]);
}

/** Opens the tree along node numbers `path` and marks the last one as the replay's node. */
async function reveal(v, path) {
  const tree = $("tree-" + v.which);
  let li = tree.firstElementChild;
  for (let i = 0; li && i < path.length; i++) {
    if (Number(li.dataset.index) !== path[i]) return;
    if (i === path.length - 1) break;
    if (li.getAttribute("aria-expanded") === "false") await li.expand();
    li = [...li.querySelectorAll(":scope > ul > li")].find((c) => Number(c.dataset.index) === path[i + 1]);
  }
  tree.querySelectorAll(".node.current").forEach((r) => r.classList.remove("current"));
  if (li) {
    const row = li.querySelector(".node");
    row.classList.add("current");
    const box = tree.getBoundingClientRect(), r = row.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) tree.scrollTop += r.top - box.top - box.height / 2;
  }
}

async function select(v, k, row, jump) {
  const my = ++selections;
  document.querySelectorAll(".node.selected").forEach((r) => r.classList.remove("selected"));
  if (row) row.classList.add("selected");
  if (row) for (const r of row.closest("ul.tree").querySelectorAll('.node[tabindex="0"]')) if (r !== row) r.tabIndex = -1;
  if (row) row.tabIndex = 0;
  const d = await detail(v, k);
  if (my !== selections) return; // a node selected since wins
  if (jump && views[$("step-tree").value] === v) { stopPlaying(); await showStep(d.event, true); }
  drawBoard($("node-board"), d.position.board, { small: true, label: "board of node " + k });
  const n = d.node;
  $("node-info").replaceChildren(
    el("div", {}, `node #${k}${n.move ? " after " + n.move : " (root)"}, ply ${n.ply}, ${d.max ? "dark (MAX)" : "light (MIN)"} to move`),
    el("div", {}, `value ${n.value}; window on entry [${bound(n.alpha)}, ${bound(n.beta)}]`),
    el("div", {}, `${fmt(n.size)} states in its subtree; ${d.children.length} searched, ${d.pruned.length} pruned` +
      (d.pruned.length ? ` (${d.pruned.join(" ")})` : "")),
    el("div", {}, "board " + d.position.board + " player " + d.position.player));
}

async function openLine(which) {
  const v = views[which];
  if (!v) return;
  const tree = $("tree-" + which);
  delete tree.dataset.lineOpen;
  let li = tree.firstElementChild;
  // The line's last node is selected unless a node was selected meanwhile
  // (the line opens node by node; a click during it is not taken back).
  const before = selections;
  for (const k of [...v.line].sort((x, y) => x - y)) {
    if (!li || Number(li.dataset.index) !== k) break;
    if (li.getAttribute("aria-expanded") === "false") await li.expand();
    const next = [...li.querySelectorAll(":scope > ul > li")].find((c) => v.line.has(Number(c.dataset.index)));
    if (!next) { if (selections === before) await select(v, k, li.firstElementChild); break; }
    li = next;
  }
  if (views[which] === v) tree.dataset.lineOpen = "true"; // done (tests wait for it)
}

// Step mode.
async function showStep(k, fromTree) {
  const v = views[$("step-tree").value] || views.a;
  if (!v) return;
  k = Math.max(0, Math.min(v.events - 1, k));
  const ticket = ++stepTickets;
  stepWanted = { ticket, k };
  const s = await api(`/api/tree/${v.id}/event/${k}`);
  if (views[v.which] !== v) return; // a new search replaced this tree
  if (ticket !== stepTickets) return; // a newer step was asked for
  step = { v, k };
  markDrawn(v, s.kind === "cutoff" ? s.cutoff.index : s.path[s.path.length - 1].index);
  $("prev-cut").disabled = s.prev_cutoff === null;
  $("next-cut").disabled = s.next_cutoff === null;
  step.prevCut = s.prev_cutoff;
  step.nextCut = s.next_cutoff;
  $("goto").value = k + 1;
  saveAddress();
  $("step-count").textContent = s.count;
  $("step-total").textContent = s.total;
  $("step-event").textContent = `${fmt(k + 1)} of ${fmt(s.events)}`;
  $("step-kind").textContent = s.kind === "cutoff" ? "a cutoff: not a state, so the count stays" : "a state entered";
  $("cutoff").hidden = s.kind !== "cutoff";
  $("cutoff").textContent = s.kind === "cutoff" ? "✂ " + s.cutoff.reason + "." : "";
  if (!fromTree && (!timer || Number($("speed").value) <= 20)) reveal(v, s.path.map((f) => f.index)).catch(report);
  drawBoard($("step-board"), s.position.board, { small: true, label: "board of the current node" });
  $("frames").replaceChildren(...s.path.map((f, i) => {
    const kids = f.children.map((c) => el("span", {
      class: "chip " + c.state,
      title: c.state,
      "aria-label": `${c.move} ${c.state}${c.value !== null && c.value !== undefined ? " " + c.value : ""}`,
    }, c.move + (c.state === "done" ? "=" + c.value : "")));
    const leaf = f.leaf_value !== null && f.leaf_value !== undefined ? ` leaf value ${f.leaf_value}` : "";
    return el("div", { class: "frame" },
      el("b", {}, `${i === 0 ? "root" : f.move}`), " ",
      el("span", { class: "side " + (f.max ? "max" : "min") }, f.max ? "MAX ▲" : "MIN ▼"),
      ` #${f.index} entry [${bound(f.alpha)}, ${bound(f.beta)}]`,
      f.value_so_far !== null && f.value_so_far !== undefined ? ` best so far ${f.value_so_far}, now [${bound(f.alpha_now)}, ${bound(f.beta_now)}]` : "",
      leaf, kids.length ? " — " : "", kids);
  }));
}

function stopPlaying() {
  if (timer) { clearTimeout(timer); timer = null; $("playstep").textContent = "play"; $("playstep").setAttribute("aria-label", "play"); }
}

async function tick() {
  if (!step || step.k + 1 >= step.v.events) { stopPlaying(); return; }
  await showStep(step.k + 1);
  timer = setTimeout(() => tick().catch(report), 1000 / Number($("speed").value));
}

$("form").addEventListener("submit", (e) => { e.preventDefault(); run(false); });
$("compare").addEventListener("click", () => run(true));
$("versus").addEventListener("click", () => run("versus"));
function applyPreset(p) {
  $("board").value = p.board; $("player").value = p.player; $("algorithm").value = p.algorithm;
  $("depth").value = p.depth || ""; $("eval").value = p.eval || "disc"; $("order").value = "natural";
}
$("preset").addEventListener("change", () => {
  const p = PRESETS[$("preset").value];
  if (!p) return;
  applyPreset(p);
  run(false);
});
$("line-a").addEventListener("click", () => openLine("a").catch(report));
$("line-b").addEventListener("click", () => openLine("b").catch(report));
/** The step the replay is at or on its way to. */
function currentStep() {
  return stepWanted ? stepWanted.k : step.k;
}
$("next").addEventListener("click", () => step && showStep(currentStep() + 1).catch(report));
$("prev").addEventListener("click", () => step && showStep(currentStep() - 1).catch(report));
$("first").addEventListener("click", () => showStep(0).catch(report));
$("next-cut").addEventListener("click", () => step && step.nextCut !== null && showStep(step.nextCut).catch(report));
$("prev-cut").addEventListener("click", () => step && step.prevCut !== null && showStep(step.prevCut).catch(report));
$("goto").addEventListener("change", () => showStep(Number($("goto").value) - 1).catch(report));
$("step-tree").addEventListener("change", () => { stopPlaying(); showStep(0).catch(report); });
$("playstep").addEventListener("click", () => {
  if (timer) return stopPlaying();
  $("playstep").textContent = "pause"; $("playstep").setAttribute("aria-label", "pause");
  timer = setTimeout(() => tick().catch(report), 0);
});

const START6 = "000000000000002100001200000000000000";
const START8 = "0".repeat(27) + "21" + "0".repeat(6) + "12" + "0".repeat(27);
const PRESETS = {
  contract: { board: "0000021001200000", player: "1", algorithm: "alphabeta" },
  small: { board: "0000021001200000", player: "1", algorithm: "alphabeta", depth: 3, eval: "strong" },
  weights: { board: "0000021001200000", player: "1", algorithm: "alphabeta", depth: 4, eval: "weights" },
  six: { board: START6, player: "1", algorithm: "alphabeta", depth: 3, eval: "strong" },
  eight: { board: START8, player: "1", algorithm: "alphabeta", depth: 3, eval: "weights" },
  endgame: { board: "2220021001110000", player: "1", algorithm: "alphabeta" },
};

// The address's search (a reload, a shared link, "Explore this position"),
// else the contract's position searched by alpha-beta to the end.
const q = query();
for (const k of ["board", "player", "algorithm", "order", "depth", "eval"]) {
  if (q[k] !== undefined && $(k).querySelector && $(k).tagName === "SELECT" && ![...$(k).options].some((o) => o.value === q[k])) continue;
  if (q[k] !== undefined) $(k).value = q[k];
}
if (q.board && q.depth === undefined && (q.board.match(/0/g) || []).length > 12) $("depth").value = 4;
const compareMode = q.compare === "versus" ? "versus" : q.compare === "order" || q.compare === "1" ? true : false;
const at = q.step ? { tree: q.tree, step: Math.max(0, Number(q.step) - 1 || 0) } : undefined;
if (!q.board && !q.run) {
  $("preset").value = "contract";
  applyPreset(PRESETS.contract);
}
run(compareMode, at);
