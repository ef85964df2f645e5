// The browser test: serve web/, open the page in Debian's Chromium (driven
// by playwright-core, no browser download), play a 9x9 game to its end
// against the engine by clicking legal points, and check that
//  - every move of the engine was legal: the page checks each one against
//    its own record (go.js) and the engine's stones against its own after
//    every move, and this script replays the whole record once more,
//    positional superko included;
//  - the game ends with the engine's final score shown;
//  - an analysis draws its overlay: best moves with win rates, the
//    ownership map and the win-rate graph;
//  - a position counted by hand is scored so, its dead stones marked;
//  - on 19x19 the engine answers a move and the analysis covers the board.
// Screenshots go to web/test/screenshots/ (or $KOSUMI_SCREENSHOTS).
// Exit status 0 on success; on failure a message on stderr and status 1.

import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { Board, parseVertex } from "../go.js";
import { CHROMIUM, serve, WEB } from "./serve.mjs";

const PLAYOUTS = 200;
const MAX_MOVES = 300;
const SHOTS = process.env.KOSUMI_SCREENSHOTS || join(WEB, "test", "screenshots");

function check(ok, what) {
  if (!ok) throw new Error(what);
}

/** Return a deterministic stream of numbers in [0, 1) from `seed` (xorshift). */
function random(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

async function main() {
  await mkdir(SHOTS, { recursive: true });
  const server = await serve();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 820 } });
    const logs = [];
    page.on("console", (m) => logs.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => logs.push(`page error: ${e.message}`));
    await page.goto(server.url);
    await page.waitForFunction(() => window.kosumiPage?.state.timings.load > 0, null, { timeout: 30_000 });
    await page.evaluate(() => window.kosumiPage.ready);

    // A 9x9 game, the engine at a small budget, a fixed seed.
    await page.selectOption("#size", "9");
    await page.fill("#seed", "20");
    await page.evaluate((n) => {
      const s = document.getElementById("playouts");
      s.add(new Option(`${n} playouts a move`, String(n)));
      s.value = String(n);
    }, PLAYOUTS);
    await page.click("#new");
    const idle = () => page.waitForFunction(() => document.body.dataset.busy === "false" && !window.kosumiPage.state.busy, null, { timeout: 60_000 });
    // Load `text` as the file `name` with the Load button; wait until the
    // page has finished with it (loaded, cut or refused) and is idle.
    const loadFile = async (name, text) => {
      const before = await page.evaluate(() => window.kosumiPage.state.records);
      await page.setInputFiles("#load-file", { name, mimeType: "application/x-go-sgf", buffer: Buffer.from(text) });
      await page.waitForFunction((n) => window.kosumiPage.state.records > n, before, { timeout: 60_000 });
      await idle();
    };
    await idle();

    const rand = random(7);
    let clicks = 0;
    for (;;) {
      const s = await page.evaluate(() => {
        const st = window.kosumiPage.state;
        return { over: st.over, n: st.moves.length, errors: st.errors, cells: st.board.cells, size: st.size };
      });
      check(s.errors.length === 0, `the page found errors: ${s.errors.join("; ")}`);
      if (s.over) break;
      check(s.n < MAX_MOVES, `no end after ${MAX_MOVES} moves`);
      // Our own view of the position: the points black may play, own eyes
      // left out; after 40 moves of ours, pass (the engine then finishes).
      const board = new Board(s.size);
      board.cells = s.cells;
      const moves = board.sensibleMoves("B");
      if (moves.length === 0 || clicks >= 40) {
        await page.click("#pass");
      } else {
        const [x, y] = moves[Math.floor(rand() * moves.length)];
        const v = "ABCDEFGHJ"[x] + String(y + 1);
        await page.click(`[data-vertex="${v}"]`);
        clicks++;
      }
      await idle();
    }
    const end = await page.evaluate(() => {
      const st = window.kosumiPage.state;
      return { moves: st.moves, result: st.result, dead: st.dead, errors: st.errors, text: document.getElementById("result").textContent, timings: st.timings };
    });
    check(end.errors.length === 0, `the page found errors: ${end.errors.join("; ")}`);

    // Replay the record on a board of our own: every move legal, colours
    // alternating, the game ended by two passes (or a resignation).
    const replay = new Board(9);
    end.moves.forEach((m, i) => {
      check(m.colour === (i % 2 === 0 ? "B" : "W"), `move ${i + 1} by the wrong colour`);
      const p = parseVertex(m.vertex, 9);
      check(p !== undefined, `move ${i + 1}: no vertex: ${m.vertex}`);
      const illegal = replay.play(m.colour, p);
      check(!illegal, `move ${i + 1} (${m.colour} ${m.vertex}) is illegal: ${illegal}`);
    });
    const white = end.moves.filter((m) => m.colour === "W");
    check(white.length > 0, "the engine made no move");
    const resigned = end.result.endsWith("+R");
    const last2 = end.moves.slice(-2).map((m) => m.vertex);
    check(resigned || (last2[0] === "pass" && last2[1] === "pass"), `the game did not end by two passes: ${last2}`);
    check(/^(B\+|W\+)\d+(\.\d)?$|^0$|\+R$/.test(end.result), `no final score: "${end.result}"`);
    check(end.text.includes(end.result), `the final score is not shown: "${end.text}"`);
    for (const v of end.dead) {
      const p = parseVertex(v, 9);
      check(p && replay.at(p[0], p[1]) !== "", `dead stone ${v} on an empty point`);
    }
    const shownDead = await page.locator(".dead-mark").count();
    check(shownDead === end.dead.length, `${end.dead.length} dead stones, ${shownDead} marked`);
    await page.screenshot({ path: join(SHOTS, "game-over.png") });
    console.log(`game over: ${end.result} after ${end.moves.length} moves (${white.length} by the engine, all legal), ${end.dead.length} dead stones marked`);
    console.log(`first engine move ${end.timings.firstMove.toFixed(0)} ms; engine moves at ${PLAYOUTS} playouts: median ${median(end.timings.engineMoves.map((m) => m.ms)).toFixed(0)} ms`);

    // The record as SGF: the download has the page's moves in order, the
    // board's size and the result shown.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save")]);
    const sgf = await readFile(await download.path(), "utf8");
    const sgfMoves = [...sgf.matchAll(/;([BW])\[([a-s]{2})?\]/g)].map(([, c, xy]) =>
      xy ? `${c} ${"ABCDEFGHJ"[xy.charCodeAt(0) - 97]}${9 - (xy.charCodeAt(1) - 97)}` : `${c} pass`);
    check(sgf.startsWith("(;PB[You]PW[kosumi]") && sgf.includes("SZ[9]") && sgf.includes(`RE[${end.result}]`),
      `the SGF's root: ${sgf.slice(0, 120)}`);
    check(sgfMoves.join(",") === end.moves.map((m) => `${m.colour} ${m.vertex}`).join(","), "the SGF's moves are not the game's");
    console.log(`SGF saved: ${download.suggestedFilename()}, ${sgf.length} bytes, ${sgfMoves.length} moves, RE[${end.result}]`);

    // Analysis: undo back into the game and analyse the position.
    await page.click("#undo");
    await idle();
    const n = await page.evaluate(() => window.kosumiPage.state.moves.length);
    check(n < end.moves.length, "undo took no move back");
    await page.selectOption("#analysis-playouts", "500");
    await page.click("#analyse");
    await idle();
    const overlay = await page.evaluate(() => ({
      hints: [...document.querySelectorAll("[data-hint]")].map((e) => e.dataset.hint),
      ownership: document.querySelectorAll("rect.own").length,
      graph: document.querySelector(".graph-line")?.getAttribute("points")?.split(" ").length || 0,
      analysis: window.kosumiPage.state.analysis,
    }));
    check(overlay.analysis && overlay.analysis.visits >= 500, "no analysis");
    check(overlay.hints.length > 0, "no best moves on the board");
    check(overlay.ownership === 81, `ownership map of ${overlay.ownership} points`);
    check(overlay.graph >= 2, "no win-rate graph");
    const empty = await page.evaluate(() => window.kosumiPage.state.board.cells.filter((c) => c === "").length);
    check(overlay.analysis.moves.every((m) => m.move === "pass" || parseVertex(m.move, 9)), "analysis moves that are not vertices");
    check(empty > 0, "a full board");
    await page.screenshot({ path: join(SHOTS, "analysis.png") });
    console.log(`analysis: ${overlay.analysis.visits} playouts, best ${overlay.hints.slice(0, 3).join(" ")}, ownership of 81 points, graph of ${overlay.graph} points`);
    // The saved record loaded back with the Load button: the same moves and
    // stones (the page checks the engine's against its own), and a game
    // that ended in two passes scored again.
    await loadFile("saved.sgf", sgf);
    const back = await page.evaluate(() => {
      const st = window.kosumiPage.state;
      return { moves: st.moves, errors: st.errors, result: st.result, over: st.over, cells: st.board.cells.join(","),
        status: document.getElementById("status").textContent };
    });
    check(back.errors.length === 0, `the page found errors: ${back.errors.join("; ")}`);
    check(back.moves.map((m) => `${m.colour} ${m.vertex}`).join(",") === end.moves.map((m) => `${m.colour} ${m.vertex}`).join(","),
      "the loaded record's moves are not the saved game's");
    check(back.cells === replay.cells.join(","), "the loaded position is not the game's");
    check(resigned ? !back.over && back.status.startsWith("Loaded saved.sgf") : back.over && back.result === end.result,
      `loaded back: ${JSON.stringify({ over: back.over, result: back.result, status: back.status })}`);
    console.log(`SGF loaded back: ${back.moves.length} moves, ${resigned ? "the user to move" : `scored ${back.result} again`}`);

    // Dead stones: a position counted by hand, black's wall on E and
    // white's on F with a lone stone of each in the other's area; two
    // passes end it: both lone stones are dead and marked, and the score
    // is black's 45 points (A to E) against white's 36 (F to J), komi 7.5.
    await page.click("#new");
    await idle();
    const setup = [];
    for (let y = 1; y <= 9; y++) setup.push(["B", `E${y}`], ["W", `F${y}`]);
    setup.push(["B", "H8"], ["W", "B2"], ["B", "pass"], ["W", "pass"]);
    await page.evaluate((moves) => window.kosumiPage.loadMoves(moves), setup);
    await idle();
    const scored = await page.evaluate(() => {
      const st = window.kosumiPage.state;
      return { over: st.over, result: st.result, dead: st.dead, errors: st.errors, text: document.getElementById("result").textContent,
        marked: [...document.querySelectorAll(".dead[data-stone]")].map((e) => e.dataset.stone).sort() };
    });
    check(scored.errors.length === 0, `the page found errors: ${scored.errors.join("; ")}`);
    check(scored.over, "two passes did not end the game");
    check(scored.result === "B+1.5", `scored ${scored.result}, counted by hand B+1.5`);
    check(scored.text.includes("B+1.5"), `the score is not shown: "${scored.text}"`);
    check([...scored.dead].sort().join(" ") === "B2 H8", `dead stones ${scored.dead.join(" ")}, not B2 H8`);
    check(scored.marked.join(" ") === "B2 H8", `marked as dead: ${scored.marked.join(" ")}`);
    await page.screenshot({ path: join(SHOTS, "dead-stones.png") });
    console.log(`dead stones: ${scored.dead.join(" ")} marked, score ${scored.result} as counted by hand`);

    // Handicap and a time budget: three stones for black (the engine
    // places them), the engine white at one second a move, so it moves
    // first; its move takes its byo-yomi budget (0.85 s less a margin: a
    // period of one stone never stops early), never less than half a
    // second however loaded the machine.
    await page.selectOption("#handicap", "3");
    await page.selectOption("#playouts", "1s");
    await page.click("#new");
    await idle();
    const hc = await page.evaluate(() => {
      const st = window.kosumiPage.state;
      return { handicap: st.handicap, moves: st.moves, errors: st.errors, black: st.board.stones("B"), white: st.board.stones("W"),
        timings: st.timings.engineMoves.at(-1) };
    });
    check(hc.errors.length === 0, `the page found errors: ${hc.errors.join("; ")}`);
    check(hc.handicap.join(" ") === "C3 G7 C7", `handicap stones ${hc.handicap.join(" ")}, not C3 G7 C7`);
    check(hc.black.length === 3 && hc.white.length === 1, `after the handicap: ${hc.black.length} black, ${hc.white.length} white stones`);
    check(hc.moves.length === 1 && hc.moves[0].colour === "W", `the first move: ${JSON.stringify(hc.moves)}`);
    check(hc.timings.budget === "1s" && hc.timings.ms >= 500 && hc.timings.ms < 30_000, `a 1 s move took ${hc.timings.ms} ms`);
    // Black answers on the first of these points left empty (white's
    // timed move depends on the machine's speed).
    const taken = [...hc.black, ...hc.white].map((v) => v.toUpperCase());
    const reply = ["E5", "D5", "F4", "E3"].find((v) => !taken.includes(v));
    await page.click(`[data-vertex="${reply}"]`);
    await idle();
    const hc2 = await page.evaluate(() => ({ moves: window.kosumiPage.state.moves, errors: window.kosumiPage.state.errors }));
    check(hc2.errors.length === 0 && hc2.moves.length === 3, `after black's move: ${JSON.stringify(hc2)}`);
    await page.screenshot({ path: join(SHOTS, "handicap.png") });
    console.log(`handicap: ${hc.handicap.join(" ")}, white's first move ${hc.moves[0].vertex} in ${hc.timings.ms.toFixed(0)} ms at 1 s a move`);
    await page.selectOption("#handicap", "0");
    await page.selectOption("#playouts", String(PLAYOUTS));

    // 19x19: a move each, then an analysis over the whole board.
    await page.selectOption("#size", "19");
    await page.click("#new");
    await idle();
    await page.click('[data-vertex="Q16"]');
    await idle();
    await page.click("#analyse");
    await idle();
    const big = await page.evaluate(() => {
      const st = window.kosumiPage.state;
      return { moves: st.moves, errors: st.errors, own: document.querySelectorAll("rect.own").length, hints: document.querySelectorAll("[data-hint]").length };
    });
    check(big.errors.length === 0, `the page found errors: ${big.errors.join("; ")}`);
    check(big.moves.length === 2 && big.moves[0].vertex === "Q16", `19x19 moves: ${JSON.stringify(big.moves)}`);
    check(big.own === 361 && big.hints > 0, `19x19 analysis: ${big.own} ownership points, ${big.hints} best moves`);
    await page.screenshot({ path: join(SHOTS, "analysis-19x19.png") });
    console.log(`19x19: the engine answered Q16 with ${big.moves[1].vertex}; analysis over 361 points`);

    // A handicap record (black's stones in AB at the root, one of them a
    // compressed list, white first), then records the page refuses, each
    // with its reason shown and the game left as it was; a record with an
    // illegal move loads up to it.
    const load = async (name, text) => {
      await loadFile(name, text);
      return page.evaluate(() => {
        const st = window.kosumiPage.state;
        return { moves: st.moves.map((m) => `${m.colour} ${m.vertex}`), handicap: st.handicap, human: st.human, size: st.size, komi: st.komi,
          errors: st.errors, black: st.board.stones("B"), status: document.getElementById("status").textContent,
          form: ["size", "komi", "handicap", "colour"].map((id) => document.getElementById(id).value).join(" ") };
      });
    };
    const hr = await load("handicap.sgf", "(;GM[1]FF[4]SZ[13]KM[0.5]HA[4]AB[dd][jd:jd][dj][jj]PB[Honinbo]PW[Guest];W[gg];B[gd];W[])");
    check(hr.errors.length === 0, `the page found errors: ${hr.errors.join("; ")}`);
    check(hr.size === 13 && hr.komi === 0.5 && hr.handicap.join(" ") === "D10 K10 D4 K4", `handicap record: ${JSON.stringify(hr)}`);
    check(hr.moves.join(",") === "W G7,B G10,W pass" && hr.human === "B", `handicap record's moves: ${JSON.stringify(hr)}`);
    check(hr.black.join(" ") === "D10 D4 G10 K10 K4", `black stones ${hr.black.join(" ")}`);
    check(hr.form === "13 0.5 4 B", `the form shows ${hr.form}`);
    check(hr.status === "Loaded handicap.sgf: Honinbo (black) against Guest (white), 3 moves. Your move (black).", `status: ${hr.status}`);
    await page.screenshot({ path: join(SHOTS, "loaded-handicap.png") });
    for (const [name, text, reason] of [
      ["setup.sgf", "(;SZ[9]AW[ee];B[cc])", "Cannot load setup.sgf: setup stones (AW) at the start: the page plays games, not set-ups."],
      ["big.sgf", "(;SZ[25];B[aa])", "Cannot load big.sgf: SZ[25]: boards of 2 to 19 lines."],
      ["off.sgf", "(;SZ[9];B[ee];W[zz])", "Cannot load off.sgf: W[zz] is off the board."],
      ["empty.sgf", "no record here", "Cannot load empty.sgf: no game in the file."],
    ]) {
      const r = await load(name, text);
      check(r.status === reason, `${name}: "${r.status}", not "${reason}"`);
      check(r.moves.length === 3 && r.size === 13 && r.errors.length === 0, `${name} changed the game: ${JSON.stringify(r)}`);
    }
    const il = await load("illegal.sgf", "(;SZ[9]KM[7];B[ee];W[ee])");
    check(il.size === 9 && il.moves.join(",") === "B E5" && il.human === "W", `illegal.sgf: ${JSON.stringify(il)}`);
    check(il.status.startsWith("Loaded illegal.sgf up to move 1: W E5:"), `illegal.sgf: ${il.status}`);
    check(il.errors.length === 0, `the page found errors: ${il.errors.join("; ")}`);
    console.log(`SGF loaded: a 13x13 record with 4 handicap stones, 5 records refused or cut with their reasons`);

    const bad = logs.filter((l) => l.startsWith("error") || l.startsWith("page error"));
    check(bad.length === 0, `browser errors: ${bad.join("; ")}`);
    console.log(`screenshots in ${SHOTS}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

main().catch((e) => {
  console.error(`web test failed: ${e.message}`);
  process.exit(1);
});
