// The play page. The game (board size, who plays each side, level, moves and
// a loaded start) lives in the address and in this browser's local storage,
// so Back/Forward walk it and a reload or another page never loses it; the
// server replays it (/api/game) and answers the engine's moves
// (/api/engine), hints (/api/hint), reviews (/api/review) and pasted
// records (/api/record).
"use strict";

const $ = (id) => document.getElementById(id);
const STORE = "reversi.play";
const LEVEL_NAMES = [[2, "novice"], [5, "beginner"], [9, "casual"], [14, "club"], [19, "strong"], [24, "expert"], [30, "master"]];
// The opponent's settings and the coach's level (its own setting: the
// hint and the review search at it, whatever the opponent plays).
const DEFAULTS = { depth: "6", time: "1000", eval: "strong", algorithm: "alphabeta", coach: "8" };
// Each export form's file name when saved.
const FILE_NAMES = { passes: "reversi-game.txt", compact: "reversi-game.txt", ggf: "reversi-game.ggf", pgn: "reversi-game.pgn", board: "reversi-position.txt" };

let st = { size: "8", black: "human", white: "engine", level: "10", moves: [], start: null, variations: [] };
let game = null;      // the server's answer for the position now
let gen = 0;          // bumped by every restart: answers for older games are dropped
let busy = false;     // a move is being played (clicks are ignored meanwhile)
let stalled = false;  // the last engine request failed: Retry resumes
let controller = null;
// The engine's moves: a row is shown while its move is still the game's at
// its ply, so Undo hides it and Redo (or Forward) shows it again.
let engineLog = [];
let redo = [];        // groups of undone moves, the latest last
let hints = null;     // {moves: [...]} for the position now
let review = null;    // {data, at, game}
let notice = null;    // what was wrong with the address's game (shown until the next move)
let editor = null;    // the board editor: {digits: [...], player} while setting up a position
let follow = { rows: [], moves: "", busy: false, again: false }; // the graph that follows the game
// Analysis while playing: every legal move's value on the board, at its level,
// for the position shown; a new position cancels the search under way.
let analysis = { key: null, hints: null, controller: null };
// The masters' games of the position shown (null: the server has no index).
let masters = { key: null, available: true };
let reviewNext = null; // a game opened from the masters' games: review it at this move
// The coach's hint area as the page starts (shown again when the position changes).
const HINT_PLACEHOLDER = $("hint-out").innerHTML;

function levelName(n) {
  return LEVEL_NAMES.find(([max]) => n <= max)[1];
}

function cap(s) { return s[0].toUpperCase() + s.slice(1); }
function pause(ms) { return new Promise((r) => setTimeout(r, ms)); }
// One way to write zero: "0", never "+0", "-0" or "0.0".
function signed(v, digits) { const t = Number(v).toFixed(digits); return Number(t) === 0 ? "0" : v > 0 ? "+" + t : t; }
// A loss in discs: "0", or "−" and the discs.
function lossText(v) { const t = Number(v).toFixed(1); return Number(t) === 0 ? "0" : "−" + t; }
/** The engine's rows that belong to the game now (their move still played at their ply). */
function shownLog() { return engineLog.filter((e) => e.ply <= st.moves.length && st.moves[e.ply - 1] === e.move); }
/** Forgets the engine's rows from ply `n` on (another move is played there). */
function dropLogFrom(n) { engineLog = engineLog.filter((e) => e.ply < n); }
/** What a value is, in words: book (level, games), estimate (depth), proof, exact. */
function kindText(c) {
  if (!c) return "estimate";
  if (c.kind === "book") return `book, level ${c.level}` + (c.games ? `, ${c.games.toLocaleString("en")} games` : "");
  if (c.kind === "estimate") return `estimate, ${c.depth} plies`;
  return c.kind === "exact" ? "exact" : "proof";
}

/** What a value is, in a review table's cell: exact, est. 8, book L12, proof. */
function kindShort(c) {
  if (!c) return "est.";
  if (c.kind === "book") return `book L${c.level}`;
  if (c.kind === "estimate") return `est. ${c.depth}`;
  return c.kind === "exact" ? "exact" : "proof";
}

/**
 * A hinted move's value as the hint's list shows it (the unit and the side
 * are the list's heading's): the number, then what it is; a proved
 * win/loss/draw named as such, its number the estimate that agrees.
 */
function hintValueText(m, unit, who) {
  const kind = m.certainty ? m.certainty.kind : "estimate";
  if (kind === "win-loss-draw") {
    if (m.value === 0) return "0 (a draw, proved)";
    return `${signed(m.value, 0)} (${m.value > 0 ? "a win" : "a loss"} for ${who}, proved; the discs estimated)`;
  }
  const number = kind === "exact" ? signed(m.value, 0) : signed(m.value, 1);
  const what = unit === "discs" ? "" : " " + unit;
  return `${number}${what} (${kind === "exact" ? "exact final score" : kindText(m.certainty)})`;
}

/** A position's key: its board and side to move. */
function keyOf(g) { return g.board + "/" + g.player; }

/** The moves that lead to the position shown: the game's, the review's, or a variation's. */
function shownMoves() {
  if (!review) return st.moves;
  const v = review.variation;
  return v ? st.moves.slice(0, v.at).concat(v.moves) : st.moves.slice(0, review.at);
}

/** The position shown: the game's, the reviewed one, or a variation's. */
function shownGame() {
  if (!review) return game;
  const v = review.variation;
  return v && v.game ? v.game : review.game;
}

/** The hint values to draw for the position `g`: the hint asked for (when
 * its box is ticked), the analysis while playing, or a variation's. */
function valuesFor(g) {
  const k = keyOf(g);
  const v = review && review.variation;
  return [$("hint-board").checked ? hints : null, $("analysis").checked ? analysis.hints : null, v ? v.hints : null]
    .find((h) => h && h.key === k) || null;
}

/**
 * One value as the page shows it, from the API's value model: `v` a number in
 * `unit` ("discs", or an evaluation's points) from `who`'s view, with its
 * certainty. A proved win/loss/draw is named, never a number; an exact value
 * is the final score (empty squares to the winner); an estimate says so.
 */
function valueText(v, unit, certainty, who) {
  const kind = certainty ? certainty.kind : "estimate";
  if (kind === "win-loss-draw") {
    // The proof is the outcome; the number is the estimate that agrees with it.
    if (v === 0) return "a draw, proved";
    return `${v > 0 ? "a win" : "a loss"} for ${who}, proved (about ${signed(v, 0)} discs, estimated)`;
  }
  const number = kind === "exact" ? signed(v, 0) : signed(v, 1);
  const what = unit === "discs" ? "discs" : unit;
  const how = kind === "exact" ? "exact final score"
    : kind === "book" ? `book, level ${certainty.level}` + (certainty.games ? `, ${certainty.games.toLocaleString("en")} games` : "")
      : certainty && certainty.depth !== undefined ? `estimate, ${certainty.depth} plies` : "estimate";
  return `${number} ${what} for ${who} (${how})`;
}

/** The end of a game by the standard rule: the winner gets the empty squares. */
function finalText(g) {
  const s = g.final_score;
  const empty = g.size * g.size - g.black - g.white;
  const [b, w] = s > 0 ? [g.black + empty, g.white] : s < 0 ? [g.black, g.white + empty] : [g.black, g.white];
  const result = s > 0 ? "Black wins" : s < 0 ? "White wins" : "A draw";
  const counted = empty && s ? ` (${g.black} to ${g.white} on the board; the ${empty} empty square${empty > 1 ? "s go" : " goes"} to the winner)` : "";
  return { result, text: `${result}, ${b} to ${w}${counted}. Final score ${signed(s, 0)} for Black.` };
}

function setStatus(text, error) {
  $("status").textContent = text;
  $("status").classList.toggle("error", !!error);
}

/** A message of the record's panel, beside the file and paste controls. */
function recordStatus(text, error) {
  $("record-status").textContent = text;
  $("record-status").classList.toggle("error", !!error);
}

/** The query of the game (its start and moves) for the API. */
function gameQuery(moves) {
  const p = new URLSearchParams({ size: st.size, moves: (moves || st.moves).join(",") });
  if (st.start) { p.set("start", st.start.board); p.set("start_player", st.start.player); }
  return p.toString();
}

function isEngine(color) { return st[color] === "engine"; }

/** Reads the form into the state (the game's own fields stay). */
function readForm() {
  st.size = $("size").value;
  st.black = $("black-player").value;
  st.white = $("white-player").value;
  st.level = $("level").value;
  for (const k of Object.keys(DEFAULTS)) st[k] = $(k).value;
}

function writeForm() {
  $("size").value = st.size;
  $("black-player").value = st.black;
  $("white-player").value = st.white;
  $("level").value = st.level;
  for (const k of Object.keys(DEFAULTS)) $(k).value = st[k] || DEFAULTS[k];
  syncLevel();
}

/** The level choice is for 8x8 only; a level replaces depth, evaluation and search. */
function syncLevel() {
  const on8 = $("size").value === "8";
  $("level").disabled = !on8;
  const byLevel = on8 && $("level").value !== "";
  for (const id of ["depth", "eval", "algorithm"]) $(id).disabled = byLevel;
}

/** The kept variations as the address and the API write them: `AT:m,m;AT:m`. */
function variationsText() {
  return st.variations.map((v) => `${v.at}:${v.moves.join(",")}`).join(";");
}

/** Reads `AT:m,m;AT:m` (a bad item is left out). */
function parseVariations(text) {
  return (text || "").split(";").map((item) => {
    const [at, moves] = item.split(":");
    return { at: Number(at), moves: (moves || "").split(",").filter(Boolean) };
  }).filter((v) => Number.isInteger(v.at) && v.at >= 0 && v.moves.length);
}

/** The address of the game now. */
function address() {
  const p = new URLSearchParams({ size: st.size, black: st.black, white: st.white });
  if (st.size === "8") p.set("level", st.level);
  for (const [k, v] of Object.entries(DEFAULTS)) if (st[k] && st[k] !== v) p.set(k, st[k]);
  if (st.start) { p.set("start", st.start.board); p.set("start_player", st.start.player); }
  if (st.moves.length) p.set("moves", st.moves.join(","));
  if (st.variations.length) p.set("variations", variationsText());
  return "/play?" + p;
}

/** Keeps the game in the address (a new history entry if `push`) and in local storage. */
function save(push) {
  // A variation branches from a move of the game: one beyond it goes.
  st.variations = (st.variations || []).filter((v) => v.at < st.moves.length);
  const url = address();
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
  try {
    localStorage.setItem(STORE, JSON.stringify(st));
    // The engine's moves and the undone moves of this game, for a reload.
    localStorage.setItem(STORE + ".extra", JSON.stringify({ address: url, engineLog, redo, review: review ? review.at : null }));
  } catch (e) { /* private mode: the address keeps the game */ }
}

/** The game from the address, else from local storage, else a new one. */
function load() {
  const q = query();
  if (Object.keys(q).length) {
    const next = { size: q.size || "8", black: q.black || "human", white: q.white || "engine",
      level: q.level !== undefined ? q.level : "10", moves: (q.moves || "").split(",").filter(Boolean),
      start: q.start ? { board: q.start, player: Number(q.start_player || 1) } : null,
      variations: parseVariations(q.variations) };
    for (const k of Object.keys(DEFAULTS)) next[k] = q[k] || DEFAULTS[k];
    return next;
  }
  try {
    const saved = JSON.parse(localStorage.getItem(STORE));
    if (saved && Array.isArray(saved.moves)) return { variations: [], ...saved };
  } catch (e) { /* nothing kept */ }
  return null;
}

/** Brings the game up to date: replays it, plays forced passes and the engine's moves. */
async function advance() {
  const my = ++gen;
  if (controller) controller.abort();
  controller = new AbortController();
  busy = true;
  stalled = false;
  $("retry").hidden = true;
  try {
    for (;;) {
      let g;
      try {
        g = await api("/api/game?" + gameQuery());
      } catch (e) {
        // A move that cannot be played (a hand-edited or shared address):
        // the game up to it, playable, and the reason in the status.
        const bad = /^move (\d+): (.*)$/.exec(e.message);
        if (my !== gen || !bad || Number(bad[1]) > st.moves.length) throw e;
        const n = Number(bad[1]);
        const dropped = st.moves.splice(n - 1);
        redo = [];
        dropLogFrom(n);
        save(false);
        notice = `Move ${n} of the address, ${dropped[0]}, cannot be played: ${bad[2]}. ` +
          `The game is shown up to move ${n - 1}` +
          (dropped.length > 1 ? ` (the ${dropped.length - 1} move${dropped.length > 2 ? "s" : ""} after it left out)` : "") +
          "; play on from here.";
        continue;
      }
      if (my !== gen) return;
      if (!game || g.board !== game.board || g.player !== game.player) $("hint-out").innerHTML = HINT_PLACEHOLDER;
      game = g;
      hints = null;
      render();
      refreshExport().catch(() => {});
      if (reviewNext !== null) {
        // A master's game opened: its review at the position it came from.
        const at = reviewNext;
        reviewNext = null;
        startReview(at).catch(report);
        break;
      }
      if (g.over || review) break;
      if (g.must_pass) {
        setStatus(`${cap(g.to_move)} has no legal move and passes.`);
        await pause(700);
        if (my !== gen) return;
        st.moves.push("pass");
        save(false);
        continue;
      }
      if (!isEngine(g.to_move)) break;
      // When the engine plays both sides, a pause lets the eye follow.
      if (isEngine(g.to_move === "black" ? "white" : "black") && st.moves.length) await pause(600);
      if (my !== gen) return;
      const how = st.size === "8" && st.level ? `&level=${st.level}` : `&depth=${st.depth}&eval=${st.eval}&algorithm=${st.algorithm}`;
      const r = await fetch(`/api/engine?${gameQuery()}&time_ms=${st.time}${how}`, { signal: controller.signal });
      const m = await r.json().catch(() => ({ error: "status " + r.status }));
      if (!r.ok) throw new Error(m.error);
      if (my !== gen) return;
      dropLogFrom(st.moves.length + 1);
      engineLog.push({ ply: st.moves.length + 1, ...m });
      st.moves.push(m.move);
      save(false);
    }
  } catch (e) {
    if (my !== gen || e.name === "AbortError") return;
    stalled = true;
    // The board stays as the server last drew it, but nothing on it is
    // playable until Retry has brought the game up to date.
    if (game) render();
    // fetch rejects with a TypeError when no server answers at all.
    setStatus(e instanceof TypeError && /fetch|network/i.test(e.message)
      ? "The server does not answer: start it again, then Retry."
      : "Engine: " + e.message + " — correct the settings and press Retry.", true);
    $("retry").hidden = false;
  } finally {
    if (my === gen) busy = false;
  }
}

function render() {
  if (editor) { drawEditor(); return; }
  // First: a new position or level drops the analysis's values (and aborts its search).
  updateAnalysis();
  const g = shownGame();
  const human = !review && !stalled && !game.over && !isEngine(game.to_move);
  // In the review a click on a legal square tries a move there (a variation).
  const trying = !!review && !g.over;
  const shown = valuesFor(g);
  const values = shown ? new Map(shown.moves.map((m) => [m.move, m.value])) : null;
  const proofs = values ? new Map(shown.moves.filter((m) => m.outcome).map((m) => [m.move, m.outcome])) : null;
  drawBoard($("board"), g.board, {
    legal: human || trying ? g.legal : [], last: g.last, flipped: g.flipped,
    onPlay: human ? play : trying ? (name) => tryMove(name).catch(report) : null, label: "game board", coords: true, values, proofs,
    best: values && shown.moves.length ? shown.moves[0].move : null,
  });
  const who = (c) => isEngine(c) ? (st.size === "8" && st.level ? `engine, level ${st.level} (${levelName(Number(st.level))})`
    : `engine, depth ${st.depth}, ${st.eval}`) : "person";
  $("players").textContent = `Black: ${who("black")}. White: ${who("white")}. Coach: level ${st.coach}. (See Settings.)`;
  // Always there on 8x8 (the line does not come and go under the board).
  $("opening").hidden = g.size !== 8;
  $("opening").textContent = `Opening: ${g.opening || "none named"}`;
  $("black").textContent = g.black;
  $("white").textContent = g.white;
  showExport();
  $("explore").href = exploreAddress(g);
  $("undo").disabled = !st.moves.length || !!review;
  $("redo").disabled = !redo.length || !!review;
  $("hint").disabled = !human;
  $("end").hidden = !game.over || !!review;
  if (review && review.variation) {
    setStatus(`Review: a variation from move ${review.variation.at} (${review.variation.moves.length} move${review.variation.moves.length === 1 ? "" : "s"} tried).`);
  } else if (review) {
    setStatus(`Review: after move ${review.at} of ${game.moves.length}.`);
  } else if (game.over) {
    const f = finalText(game);
    setStatus(`Game over: ${f.result.toLowerCase()} (${game.black}-${game.white} on the board; final score ${signed(game.final_score, 0)}).`);
    $("end-text").textContent = f.text;
    $("end-text").dataset.finalScore = game.final_score;
    $("end-rule").textContent = "Scoring: " + game.scoring + ".";
  } else {
    setStatus(`${cap(game.to_move)} to move` + (human ? " (your move)" : " (engine thinking…)") +
      (game.last ? `; last move ${game.last}` : "") + ".");
  }
  if (notice && !review) setStatus(notice + " " + $("status").textContent, true);
  $("moves").replaceChildren(...game.moves.map((mv, i) => el("li", {}, el("button", {
    type: "button", class: "link", "data-index": i + 1, "aria-label": `move ${i + 1}, ${game.movers[i]} ${mv}: review from here`,
    "aria-current": review && review.at === i + 1 ? "step" : "false",
    onclick: () => startReview(i + 1).catch(report) }, `${mv}`))));
  $("log").tBodies[0].replaceChildren(...shownLog().map((e) => el("tr", {},
    el("td", {}, e.ply), el("td", {}, e.move), el("td", { "data-value": e.value, "data-unit": e.unit }, `${signed(e.value, Number.isInteger(e.value) ? 0 : 2)} ${e.unit}`),
    el("td", {}, e.nodes.toLocaleString("en")), el("td", { title: e.level_depth && e.depth < e.level_depth ? `level ${e.level} asks ${e.level_depth} plies; the time (${st.time} ms) stopped it at ${e.depth}` : null },
      e.book ? "book" : e.exact ? "exact" : e.level_depth && e.depth < e.level_depth ? `${e.depth} of ${e.level_depth} (time)` : e.depth), el("td", {}, e.time_ms.toFixed(1)))));
  updateFollow().catch(report);
  updateMasters();
  drawVariations();
}

/** The record in the chosen form (PGN with the kept variations). */
function showExport() {
  const exported = game.export[$("export-form").value];
  $("transcript").value = exported !== null && exported !== undefined ? exported
    : $("export-form").value === "pgn" ? "(PGN is written for 8x8 games from the standard start only)" : "(GGF is written for 8x8 games only)";
}

/** The export forms with the kept variations (PGN holds them). */
async function refreshExport() {
  if (!st.variations.length || !game) return;
  const moves = st.moves.join(",");
  const g = await api(`/api/game?${gameQuery()}&variations=${encodeURIComponent(variationsText())}`);
  if (game && st.moves.join(",") === moves) {
    game.export = g.export;
    showExport();
  }
}

/**
 * The explorer on the position shown, searched as this game's engine plays:
 * its depth, evaluation and algorithm; at a level (8x8), alpha-beta with
 * the pattern evaluation, the level's depth up to 5 plies (the explorer
 * keeps every node of its tree).
 */
function exploreAddress(g) {
  const level = st.size === "8" && st.level ? Number(st.level) : 0;
  const p = new URLSearchParams({ board: g.board, player: g.player,
    algorithm: level ? "alphabeta" : st.algorithm, eval: level ? "pattern" : st.eval,
    depth: level ? Math.min(level, 5) : Math.min(Number(st.depth), 64) });
  return "/explore?" + p;
}

function play(name) {
  if (busy || stalled || !game || game.over || review) return; // one move at a time
  busy = true;
  redo = [];
  notice = null;
  dropLogFrom(st.moves.length + 1);
  st.moves.push(name);
  save(true);
  advance().catch((e) => setStatus(e.message, true));
}

/** Starts over from the state's moves (a new history entry if `push`). */
function restart(push) {
  save(push);
  advance().catch((e) => setStatus(e.message, true));
}

function undo() {
  notice = null;
  if (!game || !st.moves.length) return;
  // Back to the last move of a person: the engine's replies go too.
  const people = ["black", "white"].some((c) => !isEngine(c));
  const group = [];
  while (st.moves.length) {
    const who = game.movers[st.moves.length - 1];
    const mv = st.moves.pop();
    group.unshift(mv);
    if (!people || (!isEngine(who) && mv !== "pass")) break;
  }
  redo.push(group);
  restart(true);
}

function redoMove() {
  notice = null;
  const group = redo.pop();
  if (!group) return;
  st.moves.push(...group);
  restart(true);
}

async function hint() {
  if (!game || game.over) return;
  const my = gen;
  const key = keyOf(game);
  $("hint-out").replaceChildren(el("p", { class: "note" }, "Thinking…"));
  try {
    const h = await api(`/api/hint?${gameQuery()}&level=${st.coach}`);
    if (my !== gen) return;
    h.key = key;
    hints = h;
    const who = cap(h.view);
    $("hint-out").replaceChildren(...[
      el("p", { class: "note", title: "exact values are final scores, the empty squares going to the winner" },
        `Values in ${h.unit} for ${who}, the side to move (+ is good for ${who}). Level ${h.level}, ${h.nodes.toLocaleString("en")} nodes.`),
      // A search the server's time cut says so: its values are shallower than the level's.
      h.cut ? el("p", { class: "note cut", "data-testid": "hint-cut" }, `Cut by the server's time: these values come from shallower searches than level ${h.level}'s.`) : null,
      // The best line first: the list below it may scroll in its fixed-size box.
      h.moves.length ? el("p", { class: "best-line" }, "Engine's best line: ", el("span", { "data-testid": "best-line" }, h.moves[0].line.join(" "))) : null,
      el("ol", { class: "hints" }, h.moves.map((m) => el("li", { "data-move": m.move, "data-kind": m.certainty.kind },
        el("b", {}, m.move), " " + hintValueText(m, h.unit, who))))].filter(Boolean));
    render();
    // On a phone the coach is below the board: bring the answer into view.
    const r = $("hint-out").getBoundingClientRect();
    if (r.top < 0 || r.top > innerHeight - 80) $("hint-out").scrollIntoView({ block: "center" });
  } catch (e) {
    $("hint-out").replaceChildren(el("p", { class: "error" }, "Hint: " + e.message));
  }
}

/**
 * Analysis while playing (when ticked): every legal move's value on the
 * board for the position shown, at the analysis's level, while a person is
 * to move (or in the review); a new position cancels the search under way.
 */
function updateAnalysis() {
  const on = $("analysis").checked && !!game;
  const g = on ? shownGame() : null;
  const wanted = on && g && !g.over && (review || !isEngine(game.to_move)) && !stalled;
  const key = wanted ? keyOf(g) + "@" + $("analysis-level").value : null;
  if (key === analysis.key) return;
  if (analysis.controller) analysis.controller.abort();
  analysis = { key, hints: null, controller: null };
  if (!on) { $("analysis-note").textContent = ""; return; }
  if (!wanted) { $("analysis-note").textContent = g && g.over ? "Analysis: the game is over." : "Analysis: waiting for a person's move."; return; }
  const level = $("analysis-level").value;
  const controller = analysis.controller = new AbortController();
  $("analysis-note").textContent = `Analysis at level ${level}…`;
  (async () => {
    const r = await fetch(`/api/hint?${gameQuery(shownMoves())}&level=${level}`, { signal: controller.signal });
    const h = await r.json();
    if (!r.ok) throw new Error(h.error);
    if (analysis.key !== key) return;
    h.key = keyOf(g);
    analysis.hints = h;
    $("analysis-note").textContent = `Analysis at level ${h.level}: every legal move's value on the board, in ${h.unit} for ${cap(h.view)} (${h.nodes.toLocaleString("en")} nodes` +
      (h.cut ? "; cut by the server's time: shallower than the level" : "") + ").";
    render();
  })().catch((e) => {
    if (e.name === "AbortError" || analysis.key !== key) return;
    $("analysis-note").textContent = "Analysis: " + e.message;
    // The server's search slots were all busy: try again in a moment.
    if (/searches are running/.test(e.message)) setTimeout(() => { if (analysis.key === key) { analysis.key = null; updateAnalysis(); } }, 700);
  });
}

/** Percent of `n` in `of`, whole. */
function pct(n, of) { return of ? Math.round(100 * n / of) + "%" : "–"; }

/**
 * The masters' games of the position shown (8x8): how many reached it, how
 * they ended, the moves played next (a click plays or tries one), and the
 * latest games, each opened in the review at this position.
 */
function updateMasters() {
  const g = shownGame();
  if (!g) return;
  if (g.size !== 8) {
    masters.key = null;
    $("masters").replaceChildren(el("p", { class: "note" }, "The world's games are 8x8 games."));
    return;
  }
  if (!masters.available) return;
  const key = keyOf(g);
  if (key === masters.key) return;
  masters.key = key;
  const moves = shownMoves();
  api(`/api/games?${gameQuery(moves)}&games=8`).then((d) => {
    if (masters.key !== key) return;
    drawMasters(d, g);
  }).catch((e) => {
    if (masters.key !== key) return;
    if (/no games index/.test(e.message)) {
      masters.available = false;
      $("masters").replaceChildren(el("p", { class: "note" }, "This server has no games index: build one with `reversi games index` from the WTHOR files and start it with `reversi serve --games FILE` (see the README)."));
    } else {
      $("masters").replaceChildren(el("p", { class: "error" }, "Masters' games: " + e.message));
    }
  });
}

function drawMasters(d, g) {
  const known = d.games - d.unknown;
  if (!d.games) {
    $("masters").replaceChildren(el("p", { "data-testid": "masters-total", "data-games": 0 }, `No game of the ${d.indexed.toLocaleString("en")} indexed reaches this position.`));
    return;
  }
  const mean = d.mean_score === null ? "" : `; mean score ${signed(d.mean_score, 1)} for Black`;
  const human = !review && !stalled && !game.over && !isEngine(game.to_move);
  const legal = new Set(g.legal);
  $("masters").replaceChildren(
    el("p", { "data-testid": "masters-total", "data-games": d.games },
      `${d.games.toLocaleString("en")} game${d.games === 1 ? "" : "s"}: Black won ${pct(d.black_wins, known)}, ${pct(d.draws, known)} drawn, White won ${pct(d.white_wins, known)}${mean}.`),
    d.moves.length ? el("table", { "data-testid": "masters-moves" },
      el("thead", {}, el("tr", {}, el("th", {}, "next"), el("th", {}, "games"), el("th", { title: "won by Black" }, "Black"), el("th", {}, "drawn"), el("th", { title: "won by White" }, "White"), el("th", { title: "mean score for Black" }, "mean"))),
      el("tbody", {}, d.moves.map((m) => {
        const k = m.games - m.unknown;
        const can = legal.has(m.move) && (human || review);
        return el("tr", { "data-move": m.move, "data-games": m.games },
          el("td", {}, can ? el("button", { type: "button", class: "link", "aria-label": `${review ? "try" : "play"} ${m.move}`,
            onclick: () => (review ? tryMove(m.move) : Promise.resolve(play(m.move))).catch(report) }, m.move) : m.move),
          el("td", {}, m.games.toLocaleString("en")), el("td", {}, pct(m.black_wins, k)), el("td", {}, pct(m.draws, k)), el("td", {}, pct(m.white_wins, k)),
          el("td", {}, m.mean_score === null ? "–" : signed(m.mean_score, 1)));
      }))) : null,
    el("p", { class: "note" }, `The latest ${d.listed.length} of them:`),
    el("ol", { "data-testid": "masters-games" }, d.listed.map((lg) => el("li", { "data-number": lg.number },
      `${lg.year || "----"} ${lg.black || "?"} – ${lg.white || "?"}, ${lg.score === null ? "?" : signed(lg.score, 0)}` + (lg.tournament ? `, ${lg.tournament}` : "") + (lg.as_asked ? "" : " (through an image of this position) "),
      " ", el("button", { type: "button", class: "link", onclick: () => openMasterGame(lg) }, "review it")))));
}

/** A master's game becomes the page's game, reviewed at the position it came from. */
function openMasterGame(lg) {
  editor = null;
  $("editor").hidden = true;
  st.size = "8";
  st.moves = lg.moves.slice();
  st.start = null;
  st.variations = [];
  engineLog = [];
  redo = [];
  notice = null;
  review = null;
  $("review-box").hidden = true;
  writeForm();
  reviewNext = lg.at;
  restart(true);
}

/** The review's level: the coach's, at most 10 (a whole game is searched). */
function reviewLevel() { return Math.min(Number(st.coach), 10); }

/** Review mode at move `at` (the end by default); the analysis fills in when it arrives. */
async function startReview(at) {
  if (!game || !st.moves.length) return;
  if (at === undefined) at = st.moves.length;
  $("review-box").hidden = false;
  if (review) return showReview(at);
  review = { data: null, at, game };
  $("rv-opening").hidden = game.size !== 8;
  $("rv-opening").textContent = "The game's opening: …";
  const level = reviewLevel();
  const mine = review;
  await showReview(at);
  try {
    const data = await api(`/api/review?${gameQuery()}&level=${level}`);
    if (review !== mine) return;
    review.data = data;
    drawReview();
    await showReview(review.at);
  } catch (e) {
    $("hint-out").replaceChildren(el("p", { class: "error" }, "Review: " + e.message));
  }
}

function drawReview() {
  const d = review.data;
  $("rv-opening").textContent = `The game's opening: ${d.opening || "none named"}`;
  $("rv-table").tBodies[0].replaceChildren(...d.moves.map((m) => el("tr", { "data-index": m.index + 1 },
    el("td", {}, el("button", { type: "button", class: "link", "aria-label": `go to move ${m.index + 1}`,
      onclick: () => showReview(m.index + 1).catch(report) }, m.index + 1)),
    el("td", {}, m.mover), el("td", {}, m.played),
    reviewValue(m.played_value, m.played_certainty),
    el("td", {}, m.best),
    reviewValue(m.best_value, m.certainty),
    el("td", { class: "line", "data-testid": "review-line" }, m.best_line.join(" ")),
    el("td", { class: m.loss >= 4 ? "loss big" : "loss" }, lossText(m.loss)))));
  drawGraph($("graph"), d.moves, review.at);
}

/** A review cell: the value (mover's view, discs) and what it is (book, estimate, proof, exact). */
function reviewValue(v, certainty) {
  const kind = certainty ? certainty.kind : "estimate";
  return el("td", { "data-value": v, "data-kind": kind, title: kindText(certainty) },
    signed(v, kind === "exact" ? 0 : 1), el("br"), el("small", {}, " " + kindShort(certainty)));
}

/**
 * An evaluation graph in `box`: black's value in discs after each reviewed
 * move (`rows` from /api/review), one bar a move, `at` marked.
 */
function drawGraph(box, rows, at) {
  const W = 520, H = 200, m = { l: 40, r: 8, t: 10, b: 22 };
  const pts = rows.map((x) => x.black_value_after);
  // The axis never runs past the board's squares (no score lies beyond).
  const squares = Number(st.size) * Number(st.size);
  const top = Math.max(8, ...pts.map(Math.abs));
  const scale = Math.min(squares, Math.ceil(top / 8) * 8);
  const Y = (v) => m.t + (H - m.t - m.b) * (1 - (v + scale) / (2 * scale));
  const bw = (W - m.l - m.r) / Math.max(1, pts.length);
  const SVGNS = "http://www.w3.org/2000/svg";
  const s = (tag, a, text) => { const e = document.createElementNS(SVGNS, tag); for (const [k, v] of Object.entries(a)) e.setAttribute(k, v); if (text !== undefined) e.textContent = text; return e; };
  box.replaceChildren();
  for (const t of [-scale, -scale / 2, 0, scale / 2, scale]) {
    box.append(s("line", { x1: m.l, x2: W - m.r, y1: Y(t), y2: Y(t), stroke: t === 0 ? "#37474f" : "#dde1e4" }));
    box.append(s("text", { x: m.l - 4, y: Y(t) + 4, "text-anchor": "end" }, t > 0 ? "+" + t : t));
  }
  pts.forEach((v, i) => {
    const r = s("rect", { x: m.l + i * bw + 0.5, width: Math.max(1, bw - 1), y: Math.min(Y(v), Y(0)), height: Math.max(1, Math.abs(Y(v) - Y(0))),
      fill: v >= 0 ? "#263238" : "#607d8b", "data-index": i + 1, "data-value": v, "data-exact": rows[i].exact });
    r.append(s("title", {}, `move ${i + 1}: ${signed(v, rows[i].exact ? 0 : 1)} discs for black`));
    r.addEventListener("click", () => startReview(i + 1).catch(report));
    box.append(r);
  });
  box.append(s("text", { x: m.l, y: H - 6 }, "black's value in discs after each move (dark: black ahead; exact: final score)"));
  if (at) {
    const x = m.l + (at - 0.5) * bw;
    box.append(s("line", { x1: x, x2: x, y1: m.t, y2: H - m.b, stroke: "#ef6c00", "stroke-width": 2, "stroke-dasharray": "4 2" }));
  }
}

async function showReview(at) {
  if (!review) return;
  // Stepping leaves a variation under way.
  review.variation = null;
  $("variation").hidden = true;
  at = Math.max(0, Math.min(st.moves.length, at));
  const g = await api("/api/game?" + gameQuery(st.moves.slice(0, at)));
  review.at = at;
  review.game = g;
  save(false);
  const m = review.data && review.data.moves[at - 1];
  const played = at ? `: ${game.movers[at - 1]} ${st.moves[at - 1]}` : "";
  $("rv-at").textContent = `move ${at} of ${st.moves.length}` + played +
    (m ? `, ${lossText(m.loss) !== "0" ? "lost " + m.loss.toFixed(1) + " discs" : "best"} (${kindText(m.certainty)}; best line ${m.best_line.join(" ")})` : review.data ? "" : " (analysing…)") +
    (m && review.data.level ? `. Reviewed at level ${review.data.level}` + (review.data.level < Number(st.coach) ? ` (below the coach's ${st.coach}, for speed)` : "") + "." : "");
  for (const tr of $("rv-table").tBodies[0].rows) tr.classList.toggle("selected", Number(tr.dataset.index) === at);
  for (const b of $("moves").querySelectorAll("button")) b.setAttribute("aria-current", Number(b.dataset.index) === at ? "step" : "false");
  if (review.data) drawGraph($("graph"), review.data.moves, at);
  render();
}

/**
 * In the review, a move tried on the board: the game's own next move steps
 * on; another starts a variation from the reviewed position, whose later
 * moves extend it (a forced pass is played at once).
 */
async function tryMove(name) {
  if (!review) return;
  let v = review.variation;
  if (!v) {
    if (st.moves[review.at] === name) return showReview(review.at + 1);
    v = review.variation = { at: review.at, moves: [], game: null, hints: null };
  }
  v.moves.push(name);
  await showVariation();
}

/** The variation under way: its position, its line, and its values (the coach's hint). */
async function showVariation() {
  const v = review && review.variation;
  if (!v) return;
  const prefix = st.moves.slice(0, v.at);
  let g = await api("/api/game?" + gameQuery(prefix.concat(v.moves)));
  while (g.must_pass && review && review.variation === v) {
    v.moves.push("pass");
    g = await api("/api/game?" + gameQuery(prefix.concat(v.moves)));
  }
  if (!review || review.variation !== v) return;
  v.game = g;
  v.hints = null;
  $("variation").hidden = false;
  variationText(v);
  render();
  if (g.over) return;
  const moves = v.moves.length;
  const h = await api(`/api/hint?${gameQuery(prefix.concat(v.moves))}&level=${reviewLevel()}`);
  if (!review || review.variation !== v || v.moves.length !== moves) return;
  h.key = keyOf(g);
  v.hints = h;
  variationText(v);
  render();
}

/** The variation's line and its value: the best move there and its line, or the final score. */
function variationText(v) {
  const g = v.game;
  let value;
  if (g.over) value = `The game ends there: final score ${signed(g.final_score, 0)} for Black.`;
  else if (v.hints && v.hints.moves.length) {
    const best = v.hints.moves[0], who = cap(v.hints.view);
    value = `${who} to move: best ${best.move}, ${hintValueText(best, v.hints.unit, who)} for ${who} (level ${v.hints.level}); its line ${best.line.join(" ")}. Each legal move's value is on the board.`;
  } else value = "Valuing…";
  $("var-text").textContent = `A variation from move ${v.at} (instead of ${st.moves[v.at] || "the end"}): ${v.moves.join(" ")}. ${value}`;
}

/** Leaves the variation: the review at the move it branched from. */
function leaveVariation() {
  const v = review && review.variation;
  if (!v) return;
  showReview(v.at).catch(report);
}

/** Takes back the variation's last move (all of it: back to the game). */
function takeBack() {
  const v = review && review.variation;
  if (!v) return;
  v.moves.pop();
  while (v.moves.length && v.moves[v.moves.length - 1] === "pass") v.moves.pop();
  if (!v.moves.length) { leaveVariation(); return; }
  showVariation().catch(report);
}

/** Keeps the variation with the game (in the address, and in its PGN). */
function keepVariation() {
  const v = review && review.variation;
  if (!v) return;
  const item = { at: v.at, moves: v.moves.slice() };
  if (!st.variations.some((w) => w.at === item.at && w.moves.join() === item.moves.join())) st.variations.push(item);
  st.variations.sort((a, b) => a.at - b.at);
  save(false);
  drawVariations();
  refreshExport().catch(report);
  $("var-text").textContent += " Kept with the game.";
}

/** The kept variations: each reopens in the review, or goes. */
function drawVariations() {
  $("variations").replaceChildren(...st.variations.map((v, i) => el("li", { "data-at": v.at },
    el("button", { type: "button", class: "link", onclick: () => openVariation(v).catch(report) }, `from move ${v.at}: ${v.moves.join(" ")}`),
    " ", el("button", { type: "button", class: "link", "aria-label": `remove the variation from move ${v.at}`, onclick: () => {
      st.variations.splice(i, 1);
      save(false);
      drawVariations();
      // The export without it (the game's answer holds none).
      api("/api/game?" + gameQuery()).then((g) => { if (game && g.board === game.board) { game.export = g.export; refreshExport().catch(report); showExport(); } }).catch(report);
    } }, "remove"))));
}

/** Opens a kept variation in the review. */
async function openVariation(v) {
  if (!review) await startReview(v.at);
  await showReview(v.at);
  review.variation = { at: v.at, moves: v.moves.slice(), game: null, hints: null };
  await showVariation();
}

/**
 * The graph that follows the game (when asked): the review's rows of the
 * moves played, fetched for the new moves only (/api/review's `from`; each
 * position is searched alone, so the rows are the whole review's).
 */
async function updateFollow() {
  const on = $("follow").checked && !!game;
  $("follow-box").hidden = !on;
  if (!on) return;
  if (follow.busy) { follow.again = true; return; }
  const moves = st.moves.join(",");
  // Keep the rows of the moves still played (the same start, the same moves before them).
  const key = JSON.stringify(st.start) + "|" + st.size;
  if (follow.key !== key || follow.level !== reviewLevel()) follow.rows = [];
  follow.key = key;
  follow.level = reviewLevel();
  const old = follow.moves.split(",").filter(Boolean);
  let same = 0;
  while (same < old.length && same < st.moves.length && old[same] === st.moves[same]) same++;
  follow.rows = follow.rows.slice(0, same);
  follow.moves = st.moves.slice(0, same).join(",");
  drawFollow();
  if (same === st.moves.length) return;
  follow.busy = true;
  try {
    const d = await api(`/api/review?${gameQuery()}&level=${follow.level}&from=${same}`);
    if (st.moves.join(",") === moves && follow.key === key) {
      follow.rows = follow.rows.concat(d.moves);
      follow.moves = moves;
    }
    $("follow-note").textContent = `Black's value after each move, reviewed at level ${d.level} (the coach's level, at most 10).`;
  } catch (e) {
    $("follow-note").textContent = "Graph: " + e.message;
    // All the server's search slots busy: try again in a moment.
    if (/searches are running/.test(e.message)) { await pause(500); follow.again = true; }
  } finally {
    follow.busy = false;
  }
  drawFollow();
  if (follow.again) { follow.again = false; updateFollow().catch(report); }
}

function drawFollow() {
  if (!$("follow").checked) return;
  drawGraph($("follow-graph"), follow.rows, follow.rows.length);
  $("follow-graph").dataset.moves = follow.rows.length;
}

/** Opens the board editor on the position shown. */
function openEditor() {
  const g = review ? review.game : game;
  if (!g) return;
  // The game stops while a position is set up (Cancel resumes it).
  gen++;
  if (controller) controller.abort();
  busy = false;
  editor = { digits: g.board.split(""), player: g.player === 2 ? 2 : 1 };
  $("edit-player").value = String(editor.player);
  $("editor").hidden = false;
  drawEditor();
}

/** The editor's board: every square takes the chosen disc (or none). */
function drawEditor() {
  for (const id of ["undo", "redo", "hint", "review"]) $(id).disabled = true;
  drawBoard($("board"), editor.digits.join(""), { label: "board editor: click a square to set it", coords: true,
    onEdit: (name) => {
      const n = Number(st.size);
      const i = (Number(name.slice(1)) - 1) * n + (name.charCodeAt(0) - 97);
      const tool = document.querySelector("input[name=tool]:checked").value;
      editor.digits[i] = tool;
      drawEditor();
    } });
  const count = (d) => editor.digits.filter((x) => x === d).length;
  $("black").textContent = count("1");
  $("white").textContent = count("2");
  $("edit-status").textContent = `Black ${count("1")}, white ${count("2")}, empty ${count("0")}; ${editor.player === 1 ? "black" : "white"} to move.`;
  setStatus("Setting up a position: click the squares, then Play from here.");
}

/** The editor's position, checked by the server, becomes the game's start. */
async function playFromEditor() {
  const start = { board: editor.digits.join(""), player: editor.player };
  let standard = false;
  try {
    const p = new URLSearchParams({ size: st.size, moves: "", start: start.board, start_player: start.player });
    const g = await api("/api/game?" + p);
    if (g.over) {
      $("edit-status").textContent = "Neither side has a legal move in this position: add or remove discs.";
      return;
    }
    standard = !g.start;
  } catch (e) {
    $("edit-status").textContent = "This position cannot be played: " + e.message;
    return;
  }
  editor = null;
  $("editor").hidden = true;
  notice = null;
  st.moves = [];
  st.variations = [];
  // The standard start is no start of its own (the address stays short).
  st.start = standard ? null : start;
  engineLog = [];
  redo = [];
  closeReview();
  restart(true);
}

function closeEditor() {
  if (!editor) return;
  editor = null;
  $("editor").hidden = true;
  $("review").disabled = false;
  restart(false);
}

/** The standard start of the board now, as the editor's digits. */
function startDigits() {
  const n = Number(st.size), d = Array(n * n).fill("0"), c = n / 2 - 1;
  d[c * n + c] = d[(c + 1) * n + c + 1] = "2";
  d[c * n + c + 1] = d[(c + 1) * n + c] = "1";
  return d;
}

/** Saves the record in the chosen form as a file (the browser's download). */
function saveFile() {
  const form = $("export-form").value;
  const text = game && game.export[form];
  if (text === null || text === undefined) { setStatus(`Save: ${form.toUpperCase()} cannot hold this game.`, true); return; }
  const a = el("a", { href: URL.createObjectURL(new Blob([text.endsWith("\n") ? text : text + "\n"], { type: "text/plain" })), download: FILE_NAMES[form] });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** Opens a record file (transcript, GGF, PGN, .gam line, board string): the server reads it. */
async function openFile() {
  const file = $("open-file").files[0];
  if (!file) return;
  try {
    const r = await fetch(`/api/record?size=${st.size}`, { method: "POST", body: await file.text() });
    const body = await r.json().catch(() => ({ error: "status " + r.status }));
    if (!r.ok) throw new Error(body.error);
    useRecord(body);
    recordStatus(`Opened ${file.name}.`);
  } catch (e) {
    // Said beside the file control (the status line is a screen away on a phone).
    recordStatus(`Open ${file.name}: ` + e.message, true);
  } finally {
    $("open-file").value = "";
  }
}

function closeReview() {
  review = null;
  $("variation").hidden = true;
  save(false);
  $("review-box").hidden = true;
  render();
}

function continueFromReview() {
  if (!review) return;
  const v = review.variation;
  const at = v ? v.at : review.at;
  redo = st.moves.length > at ? [st.moves.slice(at)] : [];
  // From a variation: the game goes on along it.
  st.moves = st.moves.slice(0, at).concat(v ? v.moves : []);
  if (v) redo = [];
  review = null;
  $("review-box").hidden = true;
  $("variation").hidden = true;
  restart(true);
}

async function loadRecord() {
  try {
    useRecord(await api(`/api/record?size=${st.size}&text=${encodeURIComponent($("record-in").value)}`));
    recordStatus("Loaded.");
  } catch (e) {
    recordStatus("Load: " + e.message, true);
  }
}

/** A record read by the server (/api/record) becomes the game. */
function useRecord(r) {
  editor = null;
  $("editor").hidden = true;
  st.size = String(r.size);
  st.moves = r.moves;
  st.start = r.start;
  st.variations = (r.variations || []).map((v) => ({ at: v.at, moves: v.moves }));
  engineLog = [];
  redo = [];
  review = null;
  $("review-box").hidden = true;
  writeForm();
  restart(true);
}

function report(e) { setStatus(e.message, true); }

function newGame() {
  notice = null;
  st.moves = [];
  st.start = null;
  st.variations = [];
  engineLog = [];
  redo = [];
  editor = null;
  $("editor").hidden = true;
  closeReview();
  restart(true);
}

$("new").addEventListener("click", newGame);
$("edit").addEventListener("click", openEditor);
$("edit-play").addEventListener("click", () => playFromEditor().catch(report));
$("edit-cancel").addEventListener("click", closeEditor);
$("edit-clear").addEventListener("click", () => { editor.digits.fill("0"); drawEditor(); });
$("edit-start").addEventListener("click", () => { editor.digits = startDigits(); editor.player = 1; $("edit-player").value = "1"; drawEditor(); });
$("edit-player").addEventListener("change", () => { editor.player = Number($("edit-player").value); drawEditor(); });
$("follow").addEventListener("change", () => updateFollow().catch(report));
$("save-file").addEventListener("click", saveFile);
$("open-file").addEventListener("change", () => openFile().catch(report));
// A rematch: the same players with the colours swapped.
$("rematch").addEventListener("click", () => {
  [st.black, st.white] = [st.white, st.black];
  writeForm();
  newGame();
});
$("retry").addEventListener("click", () => { readForm(); restart(false); });
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redoMove);
$("hint").addEventListener("click", hint);
$("hint-board").addEventListener("change", () => game && render());
$("review").addEventListener("click", () => startReview().catch(report));
$("review-end").addEventListener("click", () => startReview().catch(report));
$("rv-first").addEventListener("click", () => showReview(0).catch(report));
$("rv-prev").addEventListener("click", () => review && showReview(review.at - 1).catch(report));
$("rv-next").addEventListener("click", () => review && showReview(review.at + 1).catch(report));
$("rv-last").addEventListener("click", () => showReview(st.moves.length).catch(report));
$("rv-continue").addEventListener("click", continueFromReview);
$("rv-close").addEventListener("click", closeReview);
$("var-back").addEventListener("click", leaveVariation);
$("var-undo").addEventListener("click", takeBack);
$("var-keep").addEventListener("click", keepVariation);
$("analysis").addEventListener("change", () => game && render());
$("analysis-level").addEventListener("change", () => game && render());
$("load").addEventListener("click", loadRecord);
$("export-form").addEventListener("change", () => game && render());
$("size").addEventListener("change", () => { syncLevel(); readForm(); newGame(); });
$("level").addEventListener("change", () => { syncLevel(); readForm(); save(false); });
for (const id of ["black-player", "white-player"]) $(id).addEventListener("change", () => { readForm(); restart(false); });
// A corrected setting resumes a game the engine's error stopped.
for (const id of Object.keys(DEFAULTS)) $(id).addEventListener("change", () => { readForm(); if (stalled) restart(false); else { save(false); if (game && !editor) render(); } });
$("copy").addEventListener("click", () => {
  $("transcript").select();
  navigator.clipboard && navigator.clipboard.writeText($("transcript").value).catch(() => {});
});
window.addEventListener("popstate", () => {
  const s = load();
  if (!s) return;
  st = s;
  editor = null;
  $("editor").hidden = true;
  review = null;
  $("review-box").hidden = true;
  writeForm();
  advance().catch(report);
});

for (let n = 1; n <= 30; n++) $("level").append(el("option", { value: String(n) }, `${n} — ${levelName(n)}`));
for (let n = 1; n <= 30; n++) $("coach").append(el("option", { value: String(n) }, String(n)));
for (let n = 1; n <= 30; n++) $("analysis-level").append(el("option", { value: String(n), selected: n === 4 }, String(n)));
st = load() || st;
for (const k of Object.keys(DEFAULTS)) st[k] = st[k] || DEFAULTS[k];
writeForm();
// A reload of the same game keeps its engine moves, redo stack and open review.
let reopen = null;
try {
  const extra = JSON.parse(localStorage.getItem(STORE + ".extra"));
  if (extra && extra.address === address()) {
    engineLog = Array.isArray(extra.engineLog) ? extra.engineLog : [];
    redo = Array.isArray(extra.redo) ? extra.redo : [];
    reopen = extra.review;
  }
} catch (e) { /* nothing kept */ }
save(false);
advance().then(() => reopen !== null && reopen !== undefined && game && startReview(reopen)).catch(report);
