// A game record read from SGF for the page: the main line of the first
// game, as the page and the engine can play it (a square board of 2 to 19
// lines, komi, black's handicap stones, then moves). The SGF itself is
// read by Sabaki's parser (npm @sabaki/sgf, bundled into sgf.js by
// build.sh); this module only says what the record means, and refuses what
// GTP cannot set up, naming it.

import { parse, parseCompressedVertices, parseVertex as sgfPoint } from "./sgf.js";
import { vertex } from "./go.js";

/** The largest board the engine plays. */
export const MAX_SIZE = 19;

/**
 * Return the record in SGF `text`:
 * {size, komi (null if the record has none), handicap: [vertex], first:
 * "B" | "W", moves: [[colour, vertex | "pass"]], info: {PB, PW, RE, ...}}.
 * Throws an Error saying what is wrong or cannot be played.
 */
export function readRecord(text) {
  // Sabaki's parser reads any text, so ask for a game tree's start first.
  if (!/\(\s*;/.test(text)) throw new Error("no game in the file");
  let trees;
  try {
    trees = parse(text);
  } catch (e) {
    throw new Error(`not SGF (${e.message})`);
  }
  if (trees.length === 0) throw new Error("no game in the file");
  const root = trees[0];
  const one = (key) => root.data[key]?.[0];
  const gm = one("GM");
  if (gm !== undefined && gm.trim() !== "1") throw new Error(`GM[${gm}] is not a game of Go`);
  const sz = (one("SZ") ?? "19").trim();
  if (!/^\d+$/.test(sz)) throw new Error(`SZ[${sz}]: only square boards`);
  const size = Number(sz);
  if (size < 2 || size > MAX_SIZE) throw new Error(`SZ[${sz}]: boards of 2 to ${MAX_SIZE} lines`);
  const km = one("KM");
  const komi = km === undefined || km.trim() === "" ? null : Number(km);
  if (komi !== null && !Number.isFinite(komi)) throw new Error(`KM[${km}] is not a number`);

  // SGF's [x, y] (y from the top, -1 for what is not a point) as a vertex.
  const onBoard = ([x, y], what, value) => {
    if (x < 0 || x >= size || y < 0 || y >= size) throw new Error(`${what}[${value}] is off the board`);
    return vertex(x, size - 1 - y);
  };
  const point = (value, what) => {
    const v = value.trim();
    return v === "" || (v === "tt" && size <= 19) ? "pass" : onBoard(sgfPoint(v), what, v);
  };

  // Black's setup stones at the root are the handicap (GTP's
  // set_free_handicap); other setup stones have no GTP command.
  const handicap = [];
  for (const value of root.data.AB ?? []) {
    const text = value.trim();
    if (text === "") throw new Error("AB[] without a point");
    for (const xy of parseCompressedVertices(text)) {
      const v = onBoard(xy, "AB", text);
      if (!handicap.includes(v)) handicap.push(v);
    }
  }
  if (handicap.length === 1) throw new Error("one black setup stone is not a handicap GTP can set (two to nine)");
  if (handicap.length > 9) throw new Error(`${handicap.length} black setup stones: GTP sets at most nine`);

  const moves = [];
  for (let node = root, depth = 0; node; node = node.children[0], depth++) {
    for (const key of ["AW", "AE", ...(depth > 0 ? ["AB"] : [])]) {
      if (node.data[key]) throw new Error(`setup stones (${key}) ${depth > 0 ? `at move ${moves.length + 1}` : "at the start"}: the page plays games, not set-ups`);
    }
    const b = node.data.B;
    const w = node.data.W;
    if (b && w) throw new Error(`a node with both B and W after move ${moves.length}`);
    if (b || w) moves.push([b ? "B" : "W", point((b ?? w)[0], b ? "B" : "W")]);
  }
  const pl = one("PL")?.trim().toUpperCase();
  const first = moves[0]?.[0] ?? (pl === "B" || pl === "W" ? pl : handicap.length > 0 ? "W" : "B");
  for (let i = 1; i < moves.length; i++) {
    if (moves[i][0] === moves[i - 1][0]) throw new Error(`move ${i + 1}: ${moves[i][0]} plays twice in a row`);
  }
  const info = {};
  for (const key of ["PB", "PW", "BR", "WR", "RE", "DT", "EV", "GN"]) {
    if (one(key)) info[key] = one(key).trim();
  }
  return { size, komi, handicap, first, moves, info };
}
