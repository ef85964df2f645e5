// The page's own record of the game: the rules of Go in a few lines of
// JavaScript (captures, suicide, positional superko), independent of the
// engine. The page draws from it and checks every move the engine makes
// against it; the browser test replays a finished game through it.

/** GTP's column letters (no I). */
export const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/** Return the GTP vertex of (x, y), y counted from the bottom. */
export function vertex(x, y) {
  return COLUMNS[x] + String(y + 1);
}

/** Return [x, y] of a GTP vertex, null for "pass", undefined if it is neither. */
export function parseVertex(v, size) {
  const s = v.trim().toUpperCase();
  if (s === "PASS") return null;
  const x = COLUMNS.indexOf(s[0]);
  const y = Number(s.slice(1)) - 1;
  if (x < 0 || x >= size || !Number.isInteger(y) || y < 0 || y >= size) return undefined;
  return [x, y];
}

/** A board with the game's history: stones are "B", "W" or "". */
export class Board {
  constructor(size) {
    this.size = size;
    this.cells = new Array(size * size).fill("");
    this.seen = new Set([this.key()]);
    this.captures = { B: 0, W: 0 };
  }

  at(x, y) {
    return this.cells[y * this.size + x];
  }

  key() {
    return this.cells.map((c) => c || ".").join("");
  }

  neighbours(i) {
    const n = this.size;
    const x = i % n;
    const out = [];
    if (x > 0) out.push(i - 1);
    if (x < n - 1) out.push(i + 1);
    if (i >= n) out.push(i - n);
    if (i < n * (n - 1)) out.push(i + n);
    return out;
  }

  /** Return the chain through point i and whether it has a liberty, on cells. */
  chain(cells, i) {
    const colour = cells[i];
    const stones = [i];
    const seen = new Set(stones);
    let free = false;
    for (let k = 0; k < stones.length; k++) {
      for (const j of this.neighbours(stones[k])) {
        if (cells[j] === "") free = true;
        else if (cells[j] === colour && !seen.has(j)) {
          seen.add(j);
          stones.push(j);
        }
      }
    }
    return { stones, free };
  }

  /**
   * Return the cells after `colour` plays at (x, y) and the stones it
   * takes, or a reason it is illegal: "occupied", "suicide", "superko".
   */
  tryPlay(colour, x, y) {
    const i = y * this.size + x;
    if (this.cells[i] !== "") return { error: "occupied" };
    const cells = this.cells.slice();
    cells[i] = colour;
    const other = colour === "B" ? "W" : "B";
    let taken = 0;
    for (const j of this.neighbours(i)) {
      if (cells[j] !== other) continue;
      const c = this.chain(cells, j);
      if (!c.free) {
        for (const s of c.stones) cells[s] = "";
        taken += c.stones.length;
      }
    }
    if (!this.chain(cells, i).free) return { error: "suicide" };
    const key = cells.map((c) => c || ".").join("");
    if (this.seen.has(key)) return { error: "superko" };
    return { cells, taken, key };
  }

  /** Play `colour` at `point` ([x, y], or null to pass); return null or the reason it is illegal. */
  play(colour, point) {
    if (point === null) return null;
    const r = this.tryPlay(colour, point[0], point[1]);
    if (r.error) return r.error;
    this.cells = r.cells;
    this.captures[colour] += r.taken;
    this.seen.add(r.key);
    return null;
  }

  /** Query whether (x, y) is an empty point all of whose neighbours are `colour`'s. */
  isEye(colour, x, y) {
    const i = y * this.size + x;
    return this.cells[i] === "" && this.neighbours(i).every((j) => this.cells[j] === colour);
  }

  /** Return the points where `colour` may play, own eyes left out. */
  sensibleMoves(colour) {
    const out = [];
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        if (!this.isEye(colour, x, y) && !this.tryPlay(colour, x, y).error) out.push([x, y]);
      }
    }
    return out;
  }

  /** Return the vertices of `colour`'s stones, sorted. */
  stones(colour) {
    const out = [];
    this.cells.forEach((c, i) => {
      if (c === colour) out.push(vertex(i % this.size, Math.floor(i / this.size)));
    });
    return out.sort();
  }
}
