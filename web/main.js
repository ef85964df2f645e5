// The page: an SVG board, the game against the engine (which runs in a
// Web Worker, worker.js), the end of the game scored by the engine
// (final_score, final_status_list dead), and the analysis overlay (best
// moves with win rates, ownership, a win-rate graph over the game).
//
// The page keeps its own record of the game (go.js) and checks every move
// the engine makes against it, and the engine's stones against its own
// after every move: a disagreement is listed under the board and in
// `window.kosumiPage.state.errors` (the browser test fails on any).

import { Board, COLUMNS, parseVertex, vertex } from "./go.js";
import { readRecord } from "./record.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;

/** The engine in its worker, as promises. */
class Engine {
  constructor() {
    this.worker = new Worker("worker.js");
    this.next = 1;
    this.pending = new Map();
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        const m = e.data;
        if (m.ready) return resolve(m.ms);
        if (m.error && m.id === undefined) return reject(new Error(m.error));
        const p = this.pending.get(m.id);
        if (!p) return;
        if (m.analysis) return p.onAnalysis?.(m.analysis, m);
        this.pending.delete(m.id);
        p.resolve(m);
      };
      this.worker.onerror = (e) => reject(new Error(e.message));
    });
  }

  send(msg, onAnalysis) {
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onAnalysis });
      this.worker.postMessage({ ...msg, id });
    });
  }

  /** Answer a GTP line: {ok, text, ms}. */
  async gtp(line) {
    const m = await this.send({ gtp: line });
    const ok = m.answer.startsWith("=");
    return { ok, text: m.answer.replace(/^[=?]\s*/, "").trim(), ms: m.ms };
  }
}

const $ = (id) => document.getElementById(id);

const state = {
  size: 9,
  komi: 7.5,
  human: "B",
  /** The engine's budget a move: playouts ("1000") or seconds ("3s"). */
  budget: "1000",
  /** Black's handicap stones (vertices), placed before the first move. */
  handicap: [],
  /** The colour of the first move ("W" after a handicap). */
  first: "B",
  board: new Board(9),
  /** [{colour, vertex}] in order; vertex "pass" for a pass. */
  moves: [],
  over: false,
  result: "",
  dead: [],
  busy: false,
  errors: [],
  analysis: null,
  /** Black's win rate by move number. */
  graph: [],
  timings: { load: 0, firstMove: null, engineMoves: [] },
  /** Records the Load button has finished with (loaded, cut or refused). */
  records: 0,
};

const engine = new Engine();

function other(c) {
  return c === "B" ? "W" : "B";
}

function toPlay() {
  return state.moves.length % 2 === 0 ? state.first : other(state.first);
}

/**
 * Return the GTP lines that give the engine `budget` a move: a playout
 * count ("1000"; no clock), or seconds ("3s": byo-yomi of that many
 * seconds for each move, which the engine's clock turns into its search
 * time).
 */
function budgetLines(budget) {
  return budget.endsWith("s")
    ? ["kosumi-playouts 100000000", `time_settings 0 ${parseFloat(budget)} 1`]
    : [`kosumi-playouts ${budget}`, "time_settings 0 1 0"];
}

/** Return the playouts of the short look after each engine move. */
function lookPlayouts() {
  return state.budget.endsWith("s") ? 300 : Math.min(Number(state.budget), 300);
}

/** Mark the page busy (the engine is working) or idle, for the eye and for the test. */
function setBusy(busy) {
  state.busy = busy;
  document.body.dataset.busy = String(busy);
}

function status(text) {
  $("status").textContent = text;
}

function fail(text) {
  state.errors.push(text);
  $("errors").textContent = state.errors.join("\n");
}

/** Compare the engine's stones with the page's own record. */
async function checkStones() {
  for (const c of ["B", "W"]) {
    const r = await engine.gtp(`list_stones ${c === "B" ? "black" : "white"}`);
    const theirs = r.text.split(/\s+/).filter(Boolean).sort().join(" ");
    const ours = state.board.stones(c).join(" ");
    if (theirs !== ours) fail(`move ${state.moves.length}: the engine's ${c} stones differ from the page's`);
  }
}

/** Replay the moves on a fresh board (after an undo). */
function replay() {
  state.board = new Board(state.size);
  for (const v of state.handicap) state.board.play("B", parseVertex(v, state.size));
  for (const m of state.moves) state.board.play(m.colour, parseVertex(m.vertex, state.size));
}

/**
 * Start a game on the page and in the engine: `size`, `komi`, and black's
 * handicap: a number of stones the engine places on GTP's fixed points, or
 * the stones' vertices (`set_free_handicap`). The seed and the budget come
 * from the form.
 */
async function setUp(size, komi, handicap) {
  state.size = size;
  state.komi = komi;
  state.budget = $("playouts").value;
  state.board = new Board(size);
  Object.assign(state, { moves: [], handicap: [], first: "B", over: false, result: "", dead: [], analysis: null, graph: [] });
  $("result").textContent = "";
  const seed = Number($("seed").value) || Math.floor(Math.random() * 2 ** 32);
  await engine.send({ seed: [0, seed] });
  for (const line of [`boardsize ${size}`, "clear_board", `komi ${komi}`, ...budgetLines(state.budget)]) {
    const r = await engine.gtp(line);
    if (!r.ok) fail(`${line}: ${r.text}`);
  }
  let line = null;
  if (typeof handicap === "number" && handicap >= 2) line = `fixed_handicap ${handicap}`;
  else if (Array.isArray(handicap) && handicap.length > 0) line = `set_free_handicap ${handicap.join(" ")}`;
  if (line) {
    // Black's stones on the page's board too, and white moves first.
    const r = await engine.gtp(line);
    if (!r.ok) throw new Error(`${line}: ${r.text}`);
    state.handicap = Array.isArray(handicap) ? handicap : r.text.split(/\s+/).filter(Boolean).map((v) => v.toUpperCase());
    state.first = "W";
    replay();
    await checkStones();
  }
}

async function newGame() {
  if (state.busy) return;
  setBusy(true);
  state.human = $("colour").value;
  try {
    await setUp(Number($("size").value), Number($("komi").value), Number($("handicap").value));
  } catch (e) {
    fail(e.message);
  }
  setBusy(false);
  render();
  if (toPlay() !== state.human) await engineMove();
  else status(`Your move (${state.human === "B" ? "black" : "white"}).`);
}

/**
 * Load an SGF record (its text): a new game set up as the record's root
 * says, its main line played through both the page and the engine, and
 * the move then the user's (two passes at the end score the game).
 * Return whether the whole record was loaded; what stopped it is shown.
 */
async function loadRecord(text, name = "the record") {
  try {
    return await readAndPlay(text, name);
  } finally {
    state.records += 1;
  }
}

/** The work of `loadRecord`. */
async function readAndPlay(text, name) {
  if (state.busy) return false;
  let record;
  try {
    record = readRecord(text);
  } catch (e) {
    status(`Cannot load ${name}: ${e.message}.`);
    return false;
  }
  setBusy(true);
  let loaded = true;
  try {
    const komi = record.komi ?? Number($("komi").value);
    await setUp(record.size, komi, record.handicap);
    state.first = record.first;
    // The form shows the loaded game's settings where it offers them.
    for (const [id, value] of [["size", record.size], ["handicap", record.handicap.length]]) {
      if ([...$(id).options].some((o) => Number(o.value) === value)) $(id).value = String(value);
    }
    $("komi").value = String(komi);
    await playRecorded(record.moves);
  } catch (e) {
    loaded = false;
    status(`Loaded ${name} up to move ${state.moves.length}: ${e.message}.`);
  }
  state.human = toPlay();
  $("colour").value = state.human;
  setBusy(false);
  render();
  if (state.over) await endGame();
  if (!loaded) return false;
  const i = record.info;
  const players = i.PB || i.PW ? `${i.PB || "?"} (black) against ${i.PW || "?"} (white), ` : "";
  const result = i.RE ? `, result ${i.RE}` : "";
  if (!state.over) status(`Loaded ${name}: ${players}${state.moves.length} moves${result}. Your move (${state.human === "B" ? "black" : "white"}).`);
  return true;
}

/** Record a move both sides agree on. */
function record(colour, v) {
  state.moves.push({ colour, vertex: v });
  state.analysis = null;
  const n = state.moves.length;
  if (n >= 2 && state.moves[n - 1].vertex === "pass" && state.moves[n - 2].vertex === "pass") state.over = true;
}

async function humanMove(x, y) {
  if (state.busy || state.over || toPlay() !== state.human) return;
  const v = vertex(x, y);
  const check = state.board.tryPlay(state.human, x, y);
  if (check.error) return status(`${v}: ${check.error}`);
  setBusy(true);
  const r = await engine.gtp(`play ${state.human} ${v}`);
  if (!r.ok) {
    setBusy(false);
    return status(`${v}: ${r.text}`);
  }
  state.board.play(state.human, [x, y]);
  record(state.human, v);
  render();
  await checkStones();
  setBusy(false);
  await engineMove();
}

async function humanPass() {
  if (state.busy || state.over || toPlay() !== state.human) return;
  setBusy(true);
  const r = await engine.gtp(`play ${state.human} pass`);
  setBusy(false);
  if (!r.ok) return status(`pass: ${r.text}`);
  record(state.human, "pass");
  if (state.over) return endGame();
  await engineMove();
}

async function engineMove() {
  const c = other(state.human);
  setBusy(true);
  status("kosumi is thinking...");
  render();
  const r = await engine.gtp(`genmove ${c}`);
  state.timings.engineMoves.push({ ms: r.ms, budget: state.budget });
  if (state.timings.firstMove === null) state.timings.firstMove = r.ms;
  if (!r.ok) {
    fail(`genmove: ${r.text}`);
    setBusy(false);
    return;
  }
  if (r.text.toLowerCase() === "resign") {
    state.over = true;
    state.result = `${state.human}+R`;
    $("result").textContent = `kosumi resigns: ${state.result}`;
    setBusy(false);
    return render();
  }
  const p = parseVertex(r.text, state.size);
  if (p === undefined) fail(`genmove answered ${r.text}`);
  else {
    const illegal = state.board.play(c, p);
    if (illegal) fail(`the engine played ${r.text}: ${illegal} on the page's board`);
    record(c, p === null ? "pass" : r.text.toUpperCase());
  }
  await checkStones();
  if (state.over) return endGame();
  // A short look at the new position: the win-rate graph's point.
  await runAnalysis(lookPlayouts(), 1);
  setBusy(false);
  status(p === null ? "kosumi passes. Your move." : `kosumi played ${r.text}. Your move.`);
  render();
}

/** Search the position `rounds` times `playouts` more, drawing each round. */
async function runAnalysis(playouts, rounds) {
  const n = state.moves.length;
  await engine.send({ analyze: playouts, rounds }, (a) => {
    if (a.error) return fail(`analysis: ${a.error}`);
    if (state.moves.length !== n) return;
    state.analysis = a;
    state.graph[n] = a.blackWinrate;
    render();
  });
}

async function analyseButton() {
  if (state.busy || state.over) return;
  setBusy(true);
  status("Analysing...");
  await runAnalysis(Number($("analysis-playouts").value), 5);
  setBusy(false);
  const a = state.analysis;
  if (a) status(`Analysis: ${a.visits} playouts, ${(100 * a.winrate).toFixed(1)}% for ${a.toPlay === "B" ? "black" : "white"}.`);
}

async function undo() {
  if (state.busy || state.moves.length === 0) return;
  setBusy(true);
  // Back to the human's turn: the engine's reply and the human's move.
  let k = state.moves.at(-1).colour === state.human ? 1 : 2;
  k = Math.min(k, state.moves.length);
  for (let i = 0; i < k; i++) {
    const r = await engine.gtp("undo");
    if (!r.ok) {
      fail(`undo: ${r.text}`);
      break;
    }
    state.moves.pop();
  }
  Object.assign(state, { over: false, result: "", dead: [], analysis: null });
  state.graph.length = state.moves.length + 1;
  $("result").textContent = "";
  replay();
  await checkStones();
  setBusy(false);
  if (toPlay() !== state.human) return engineMove();
  status("Your move.");
  render();
}

/**
 * Play `moves` ([colour, vertex] pairs, "pass" for a pass) on the current
 * game, as if both sides had played them (for a shared position and for
 * the test); two passes end the game and score it.
 */
async function loadMoves(moves) {
  if (state.busy) throw new Error("busy");
  setBusy(true);
  try {
    await playRecorded(moves);
  } finally {
    setBusy(false);
  }
  render();
  if (state.over) return endGame();
  if (toPlay() !== state.human) return engineMove();
  status("Your move.");
}

/** Play `moves` ([colour, vertex] pairs) through the engine and the page's board. */
async function playRecorded(moves) {
  try {
    for (const [colour, v] of moves) {
      const c = colour.toUpperCase();
      check(c === toPlay(), `${c} ${v}: not ${c}'s turn`);
      const p = parseVertex(v, state.size);
      check(p !== undefined, `${v}: not a vertex`);
      const r = await engine.gtp(`play ${c} ${v}`);
      check(r.ok, `${c} ${v}: ${r.text}`);
      check(!state.board.play(c, p), `${c} ${v}: illegal on the page's board`);
      record(c, p === null ? "pass" : v.toUpperCase());
    }
  } finally {
    await checkStones();
  }
}

function check(ok, what) {
  if (!ok) throw new Error(what);
}

async function resign() {
  if (state.busy || state.over) return;
  state.over = true;
  state.result = `${other(state.human)}+R`;
  $("result").textContent = `You resign: ${state.result}`;
  render();
}

async function endGame() {
  setBusy(true);
  status("Scoring...");
  const score = await engine.gtp("final_score");
  const dead = await engine.gtp("final_status_list dead");
  if (!score.ok) fail(`final_score: ${score.text}`);
  state.result = score.text;
  state.dead = dead.ok ? dead.text.split(/\s+/).filter(Boolean).map((v) => v.toUpperCase()) : [];
  const who = state.result.startsWith("B") ? "Black wins" : state.result.startsWith("W") ? "White wins" : "Jigo";
  $("result").textContent = `Game over: ${state.result} (${who}); ${state.dead.length} dead stones marked.`;
  setBusy(false);
  status("Game over.");
  render();
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent?.appendChild(e);
  return e;
}

/** Return the SVG centre of (x, y). */
function at(x, y) {
  return [CELL * (x + 1), CELL * (state.size - y)];
}

function render() {
  const n = state.size;
  const svg = $("board");
  svg.setAttribute("viewBox", `0 0 ${CELL * (n + 1)} ${CELL * (n + 1)}`);
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: CELL * (n + 1), height: CELL * (n + 1), class: "wood" }, svg);
  const a = state.analysis;
  if (a && $("show-ownership").checked && a.ownership.length === n * n) {
    a.ownership.forEach((v, i) => {
      const x = i % n;
      const y = n - 1 - Math.floor(i / n);
      const [cx, cy] = at(x, y);
      el("rect", {
        x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL,
        class: `own ${v > 0 ? "own-b" : "own-w"}`, "fill-opacity": (Math.abs(v) * 0.6).toFixed(2),
      }, svg);
    });
  }
  for (let i = 0; i < n; i++) {
    const [x0, y0] = at(0, i);
    const [x1] = at(n - 1, i);
    el("line", { x1: x0, y1: y0, x2: x1, y2: y0, class: "grid" }, svg);
    const [cx, cyTop] = at(i, n - 1);
    const [, cyBottom] = at(i, 0);
    el("line", { x1: cx, y1: cyTop, x2: cx, y2: cyBottom, class: "grid" }, svg);
    el("text", { x: cx, y: CELL * (n + 0.8), class: "coord" }, svg).textContent = COLUMNS[i];
    el("text", { x: CELL * 0.4, y: at(0, i)[1] + 5, class: "coord" }, svg).textContent = String(i + 1);
  }
  const star = n === 19 ? [3, 9, 15] : n === 13 ? [3, 6, 9] : n === 9 ? [2, 4, 6] : [];
  for (const x of star) for (const y of star) {
    if (n === 9 && (x === 4) !== (y === 4)) continue;
    const [cx, cy] = at(x, y);
    el("circle", { cx, cy, r: 3.5, class: "star" }, svg);
  }
  const last = state.moves.at(-1);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const c = state.board.at(x, y);
      const [cx, cy] = at(x, y);
      const v = vertex(x, y);
      if (c) {
        const dead = state.dead.includes(v);
        el("circle", { cx, cy, r: CELL * 0.47, class: `stone ${c === "B" ? "black" : "white"}${dead ? " dead" : ""}`, "data-stone": v }, svg);
        if (dead) el("text", { x: cx, y: cy + 6, class: `dead-mark ${c === "B" ? "on-black" : "on-white"}` }, svg).textContent = "×";
        else if (last && last.vertex === v) el("circle", { cx, cy, r: CELL * 0.15, class: `last ${c === "B" ? "on-black" : "on-white"}` }, svg);
      }
    }
  }
  if (a) {
    const best = a.moves.filter((m) => m.move !== "pass").slice(0, 6);
    const top = best[0]?.visits || 1;
    best.forEach((m, i) => {
      const p = parseVertex(m.move, n);
      if (!p || state.board.at(p[0], p[1])) return;
      const [cx, cy] = at(p[0], p[1]);
      const g = el("g", { class: `hint${i === 0 ? " best" : ""}`, "data-hint": m.move }, svg);
      el("circle", { cx, cy, r: CELL * 0.45, "fill-opacity": (0.35 + 0.6 * m.visits / top).toFixed(2) }, g);
      el("text", { x: cx, y: cy - 1, class: "wr" }, g).textContent = (100 * m.winrate).toFixed(0);
      el("text", { x: cx, y: cy + 11, class: "visits" }, g).textContent = m.visits >= 1000 ? `${(m.visits / 1000).toFixed(1)}k` : String(m.visits);
    });
    const hinted = new Set(best.map((m) => m.move));
    const pv = best[0]?.pv || [];
    pv.slice(1, 6).forEach((mv, i) => {
      const p = parseVertex(mv, n);
      if (!p || state.board.at(p[0], p[1]) || hinted.has(mv)) return;
      const [cx, cy] = at(p[0], p[1]);
      el("text", { x: cx, y: cy + 5, class: `pv ${(i % 2 === 0) === (a.toPlay === "B") ? "pv-w" : "pv-b"}` }, svg).textContent = String(i + 2);
    });
  }
  // Click targets on top of everything.
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const [cx, cy] = at(x, y);
      const r = el("rect", { x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL, class: "target", "data-vertex": vertex(x, y) }, svg);
      r.addEventListener("click", () => humanMove(x, y));
    }
  }
  renderGraph();
  $("captures").textContent = `Captures: black ${state.board.captures.B}, white ${state.board.captures.W}. Moves: ${state.moves.length}.`;
  document.body.dataset.over = String(state.over);
}

function renderGraph() {
  const svg = $("graph");
  const w = 400;
  const h = 100;
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: w, height: h, class: "graph-bg" }, svg);
  el("line", { x1: 0, y1: h / 2, x2: w, y2: h / 2, class: "graph-mid" }, svg);
  const pts = [];
  const last = Math.max(state.moves.length, 10);
  state.graph.forEach((b, i) => {
    if (b !== undefined) pts.push(`${((w * i) / last).toFixed(1)},${(h * (1 - b)).toFixed(1)}`);
  });
  if (pts.length > 0) el("polyline", { points: pts.join(" "), class: "graph-line" }, svg);
}

async function showInfo() {
  const m = await engine.send({ info: true });
  const i = m.info;
  $("info").textContent = `kosumi.wasm ${(i.wasmBytes / 1024).toFixed(0)} KiB, fixed memory ${(i.memoryBytes / 2 ** 20).toFixed(1)} MiB, loaded in ${state.timings.load.toFixed(0)} ms.`;
  return i;
}

/**
 * Download the game as SGF: the engine's record (`printsgf`: the core's
 * one SGF writer, with the result once two passes ended the game), with
 * the players and a resignation added by the page.
 */
async function saveSgf() {
  if (state.busy) return;
  const r = await engine.gtp("printsgf");
  if (!r.ok) return fail(`printsgf: ${r.text}`);
  const you = state.human === "B" ? ["PB", "PW"] : ["PW", "PB"];
  let props = `${you[0]}[You]${you[1]}[kosumi]DT[${new Date().toISOString().slice(0, 10)}]`;
  if (state.result.endsWith("+R")) props += `RE[${state.result}]`;
  const sgf = r.text.replace(/^\(;/, `(;${props}`);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([sgf + "\n"], { type: "application/x-go-sgf" }));
  a.download = `kosumi-${state.size}x${state.size}-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-")}.sgf`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function wire() {
  $("new").addEventListener("click", newGame);
  $("pass").addEventListener("click", humanPass);
  $("undo").addEventListener("click", undo);
  $("resign").addEventListener("click", resign);
  $("save").addEventListener("click", saveSgf);
  $("load").addEventListener("click", () => $("load-file").click());
  $("load-file").addEventListener("change", async () => {
    const file = $("load-file").files[0];
    $("load-file").value = "";
    if (!file || state.busy) return;
    // Busy from the choice of the file on (reading it is asynchronous),
    // so nothing else starts meanwhile and the test's wait holds.
    setBusy(true);
    let text;
    try {
      text = await file.text();
    } finally {
      setBusy(false);
    }
    await loadRecord(text, file.name);
  });
  $("analyse").addEventListener("click", analyseButton);
  $("show-ownership").addEventListener("change", render);
  $("playouts").addEventListener("change", async () => {
    state.budget = $("playouts").value;
    for (const line of budgetLines(state.budget)) {
      const r = await engine.gtp(line);
      if (!r.ok) fail(`${line}: ${r.text}`);
    }
  });
}

const ready = (async () => {
  wire();
  render();
  status("Loading the engine...");
  state.timings.load = await engine.ready;
  await showInfo();
  await newGame();
})().catch((e) => {
  fail(String(e));
  status(`The engine did not start: ${e.message}`);
});

window.kosumiPage = { state, engine, ready, newGame, loadMoves, loadRecord };
