// The play page: the game is its list of moves; the server replays it
// (/api/game) and answers the engine's moves (/api/engine).
"use strict";

const $ = (id) => document.getElementById(id);
let moves = [];
let game = null;
let thinking = null; // the AbortController of the engine request in flight
let engineLog = [];

function settings() {
  return {
    size: $("size").value, depth: $("depth").value, time_ms: $("time").value,
    eval: $("eval").value, algorithm: $("algorithm").value,
    level: $("size").value === "8" ? $("level").value : "",
  };
}

/** The level choice is for 8x8 only; a level replaces depth, evaluation and search. */
function syncLevel() {
  const on8 = $("size").value === "8";
  $("level").disabled = !on8;
  const byLevel = on8 && $("level").value !== "";
  for (const id of ["depth", "eval", "algorithm"]) $(id).disabled = byLevel;
}

function isEngine(color) {
  return $(color + "-player").value === "engine";
}

function setStatus(text, error) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!error);
}

async function refresh() {
  const s = settings();
  game = await api(`/api/game?size=${s.size}&moves=${moves.join(",")}`);
  render();
  if (game.over) return;
  if (game.must_pass) {
    setStatus(`${cap(game.to_move)} has no legal move and passes.`);
    await pause(700);
    moves.push("pass");
    return refresh();
  }
  if (isEngine(game.to_move)) return engineMove();
}

function cap(s) { return s[0].toUpperCase() + s.slice(1); }
function pause(ms) { return new Promise((r) => setTimeout(r, ms)); }

function render() {
  const human = !game.over && !isEngine(game.to_move);
  drawBoard($("board"), game.board, {
    legal: human ? game.legal : [], last: game.last, flipped: game.flipped,
    onPlay: human ? play : null, label: "game board", coords: true,
  });
  $("black").textContent = game.black;
  $("white").textContent = game.white;
  $("transcript").value = game.transcript;
  $("explore").href = `/explore?board=${game.board}&player=${game.player}`;
  if (game.over) {
    const s = game.score;
    setStatus(`Game over: ${s > 0 ? "black wins" : s < 0 ? "white wins" : "a draw"} ${game.black}-${game.white}.`);
  } else {
    setStatus(`${cap(game.to_move)} to move` + (human ? " (your move)" : " (engine thinking…)") +
      (game.last ? `; last move ${game.last}` : "") + ".");
  }
  const body = $("log").tBodies[0];
  body.replaceChildren(...engineLog.map((e) => el("tr", {},
    el("td", {}, e.ply), el("td", {}, e.move), el("td", {}, e.value), el("td", {}, e.nodes.toLocaleString("en")),
    el("td", {}, e.depth), el("td", {}, e.time_ms.toFixed(1)))));
}

function play(name) {
  if (thinking || !game || game.over) return;
  moves.push(name);
  refresh().catch((e) => setStatus(e.message, true));
}

async function engineMove() {
  const s = settings();
  thinking = new AbortController();
  const at = moves.length;
  try {
    const how = s.level ? `&level=${s.level}` : `&depth=${s.depth}&eval=${s.eval}&algorithm=${s.algorithm}`;
    const r = await fetch(`/api/engine?size=${s.size}&moves=${moves.join(",")}&time_ms=${s.time_ms}${how}`,
      { signal: thinking.signal });
    const m = await r.json();
    if (!r.ok) throw new Error(m.error);
    thinking = null;
    if (moves.length !== at) return;
    engineLog.push({ ply: at + 1, ...m });
    moves.push(m.move);
    await refresh();
  } catch (e) {
    thinking = null;
    if (e.name !== "AbortError") setStatus("Engine: " + e.message, true);
  }
}

function restart(keep) {
  if (thinking) { thinking.abort(); thinking = null; }
  moves = keep || [];
  engineLog = engineLog.filter((e) => e.ply <= moves.length);
  refresh().catch((e) => setStatus(e.message, true));
}

$("new").addEventListener("click", () => { engineLog = []; restart([]); });
$("size").addEventListener("change", () => { syncLevel(); engineLog = []; restart([]); });
$("level").addEventListener("change", syncLevel);
$("undo").addEventListener("click", () => {
  // Undo the last move of a person (and the engine's replies after it).
  const keep = moves.slice();
  while (keep.length) {
    const byEngine = isEngineAt(keep.length - 1);
    const popped = keep.pop();
    if (!byEngine && popped !== "pass") break;
  }
  restart(keep);
});
for (const id of ["black-player", "white-player"]) $(id).addEventListener("change", () => restart(moves));
$("copy").addEventListener("click", () => {
  $("transcript").select();
  navigator.clipboard && navigator.clipboard.writeText($("transcript").value).catch(() => {});
});

/** Whether the move at index i was the engine's (its log has every engine move by ply). */
function isEngineAt(i) {
  return engineLog.some((x) => x.ply === i + 1);
}

for (let n = 1; n <= 30; n++) $("level").append(el("option", { value: String(n) }, String(n)));
$("level").value = "10";
const q = query();
if (q.size) $("size").value = q.size;
if (q.level !== undefined) $("level").value = q.level;
syncLevel();
if (q.moves) moves = q.moves.split(",").filter(Boolean);
restart(moves);
