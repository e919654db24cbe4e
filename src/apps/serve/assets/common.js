// Shared helpers of the three pages: requests, elements and the board.
"use strict";

/** GET a JSON endpoint; rejects with the server's message on an error status. */
async function api(path) {
  const r = await fetch(path);
  const body = await r.json().catch(() => ({ error: "answer was not JSON (status " + r.status + ")" }));
  if (!r.ok) throw new Error(body.error || "status " + r.status);
  return body;
}

/** Creates an element with attributes (on* are listeners) and children. */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

const COLORS = { "0": "empty", "1": "black", "2": "white" };

/** The name of square (row, col): a1 is the top-left corner. */
function squareName(row, col) {
  return String.fromCharCode(97 + col) + (row + 1);
}

/**
 * Draws a board (digits in reading order) into `box` as a grid of buttons,
 * each with data-square="a1" and an accessible name ("a1 black", "c4 empty, legal").
 * opts: legal (names), last, flipped (names), onPlay(name) to make it playable,
 * onEdit(name) to make every square clickable (the board editor), small.
 * Arrow keys move the focus, Enter or Space plays.
 */
function drawBoard(box, digits, opts) {
  opts = opts || {};
  const n = Math.round(Math.sqrt(digits.length));
  const legal = new Set(opts.legal || []);
  const flipped = new Set(opts.flipped || []);
  const hadFocus = box.contains(document.activeElement);
  const focused = hadFocus ? document.activeElement.dataset.square : null;
  box.replaceChildren();
  box.className = "board" + (opts.small ? " small" : "");
  box.setAttribute("role", "grid");
  box.setAttribute("aria-label", opts.label || n + " by " + n + " board");
  box.style.setProperty("--n", n);
  box.style.gridTemplateColumns = (opts.coords ? "1.1rem " : "") + `repeat(${n}, auto)`;
  if (opts.coords) {
    // Column letters above and row numbers on the left, for the eyes only
    // (every square's accessible name already says where it is).
    box.append(el("div", { class: "coord", "aria-hidden": "true" }));
    for (let c = 0; c < n; c++) box.append(el("div", { class: "coord", "aria-hidden": "true" }, String.fromCharCode(97 + c)));
  }
  const buttons = [];
  for (let r = 0; r < n; r++) {
    const row = el("div", { role: "row" });
    if (opts.coords) row.append(el("div", { class: "coord", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < n; c++) {
      const name = squareName(r, c);
      const color = COLORS[digits[r * n + c]];
      const isLegal = legal.has(name);
      let label = name + " " + color + (isLegal ? ", legal" : "");
      if (opts.last === name) label += ", last move";
      else if (flipped.has(name)) label += ", flipped";
      const value = isLegal && opts.values ? opts.values.get(name) : undefined;
      const proof = opts.proofs ? opts.proofs.get(name) : undefined;
      const shown = value !== undefined ? hintText(value, opts.values, proof) : null;
      const best = value !== undefined && opts.best === name;
      if (value !== undefined) label += `, hint ${shown}` + (best ? ", best" : "");
      const b = el("button", {
        class: ["sq", color, isLegal ? "legal" : "", opts.last === name ? "last" : "", flipped.has(name) ? "flipped" : "", best ? "best" : ""].join(" "),
        "data-square": name, "aria-label": label, role: "gridcell", tabindex: "-1",
        "aria-disabled": (opts.onPlay && isLegal) || opts.onEdit ? null : "true",
        "data-hint": shown,
      }, shown !== null ? el("span", { class: "hint-label" + (shown.length >= 4 ? " long" : ""), "aria-hidden": "true" }, shown) : null);
      b.addEventListener("click", () => {
        if (opts.onEdit) opts.onEdit(name);
        else if (opts.onPlay && legal.has(name)) opts.onPlay(name);
      });
      b.addEventListener("keydown", (ev) => {
        const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
        if (moves[ev.key]) {
          const [dr, dc] = moves[ev.key];
          const rr = Math.min(n - 1, Math.max(0, r + dr)), cc = Math.min(n - 1, Math.max(0, c + dc));
          focusSquare(buttons, rr * n + cc);
          ev.preventDefault();
        }
      });
      buttons.push(b);
      row.append(b);
    }
    box.append(row);
  }
  // One square takes the Tab stop: the focused one, else the first legal, else a1.
  let start = buttons.findIndex((b) => b.dataset.square === focused);
  if (start < 0) start = buttons.findIndex((b) => legal.has(b.dataset.square));
  if (start < 0) start = 0;
  buttons[start].tabIndex = 0;
  if (hadFocus) buttons[start].focus();
  return buttons;
}

/**
 * A hint value as a board square shows it: whole discs, or one decimal
 * when whole numbers would make different values look equal; a proved
 * outcome (`proof`: win, loss or draw) as its letter, then the estimate
 * that agrees with it ("L-22"), never as a count of discs alone.
 */
function hintText(value, values, proof) {
  if (proof === "draw") return "D";
  const all = [...values.values()];
  const tie = all.some((v) => v !== value && Math.round(v) === Math.round(value));
  const t = tie ? value.toFixed(1) : String(Math.round(value));
  const number = t === "0" || t === "0.0" || t === "-0" ? "0" : (value > 0 ? "+" : "") + t;
  return proof ? (proof === "win" ? "W" : "L") + number : number;
}

function focusSquare(buttons, i) {
  for (const b of buttons) b.tabIndex = -1;
  buttons[i].tabIndex = 0;
  buttons[i].focus();
}

/** Reads the page's query string into an object. */
function query() {
  return Object.fromEntries(new URLSearchParams(location.search));
}
