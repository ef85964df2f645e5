// kosumi db's page: a board to place stones on, a region to search, the
// continuations drawn on the board, and the games with links to their SGF.
"use strict";

const N = 19;
const COLUMNS = "ABCDEFGHJKLMNOPQRST";
const SVG = "http://www.w3.org/2000/svg";
const board = new Array(N * N).fill(0); // 0 empty, 1 black, 2 white
let region = null; // [x0, y0, x1, y1], null: the whole board
let corner = null; // the first corner of a region being picked
let next = []; // the last search's continuations

const svg = document.getElementById("board");

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function draw() {
  svg.replaceChildren();
  for (let i = 0; i < N; i++) {
    svg.append(el("line", { x1: 1, y1: i + 1, x2: N, y2: i + 1, stroke: "#000", "stroke-width": 0.04 }));
    svg.append(el("line", { x1: i + 1, y1: 1, x2: i + 1, y2: N, stroke: "#000", "stroke-width": 0.04 }));
    svg.append(el("text", { x: i + 1, y: 0.55, "font-size": 0.45, "text-anchor": "middle" }, COLUMNS[i]));
    svg.append(el("text", { x: 0.4, y: i + 1.15, "font-size": 0.45, "text-anchor": "middle" }, String(N - i)));
  }
  for (const x of [3, 9, 15]) for (const y of [3, 9, 15]) {
    svg.append(el("circle", { cx: x + 1, cy: y + 1, r: 0.12, fill: "#000" }));
  }
  if (region) {
    const [x0, y0, x1, y1] = region;
    svg.append(el("rect", {
      id: "region", x: x0 + 0.5, y: y0 + 0.5, width: x1 - x0 + 1, height: y1 - y0 + 1,
      fill: "rgba(40,90,200,0.15)", stroke: "#2850c8", "stroke-width": 0.08,
    }));
  }
  if (corner) {
    svg.append(el("circle", { cx: corner[0] + 1, cy: corner[1] + 1, r: 0.3, fill: "none", stroke: "#2850c8", "stroke-width": 0.1 }));
  }
  board.forEach((c, i) => {
    if (!c) return;
    const x = i % N, y = Math.floor(i / N);
    svg.append(el("circle", {
      class: c === 1 ? "stone black" : "stone white", cx: x + 1, cy: y + 1, r: 0.46,
      fill: c === 1 ? "#111" : "#f4f4f4", stroke: "#000", "stroke-width": 0.04,
    }));
  });
  for (const s of next) {
    if (s.x === null) continue;
    const x = s.x + 1, y = s.y + 1;
    const g = el("g", { class: "continuation" });
    g.append(el("circle", { cx: x, cy: y, r: 0.42, fill: s.colour === "B" ? "#333" : "#fff", opacity: 0.85 }));
    g.append(el("text", {
      x, y: y + 0.16, "font-size": 0.5, "text-anchor": "middle", "font-weight": "bold",
      fill: s.colour === "B" ? "#fff" : "#000",
    }, s.label));
    g.append(el("title", {}, `${s.move} ${s.colour}: ${s.played} played, ${s.wins}-${s.losses}`));
    svg.append(g);
  }
}

function point(ev) {
  const p = svg.createSVGPoint();
  p.x = ev.clientX; p.y = ev.clientY;
  const q = p.matrixTransform(svg.getScreenCTM().inverse());
  const x = Math.round(q.x) - 1, y = Math.round(q.y) - 1;
  return x >= 0 && x < N && y >= 0 && y < N ? [x, y] : null;
}

svg.addEventListener("click", (ev) => {
  const at = point(ev);
  if (!at) return;
  const tool = document.querySelector("input[name=tool]:checked").value;
  if (tool === "region") {
    if (!corner) {
      corner = at;
    } else {
      region = [Math.min(corner[0], at[0]), Math.min(corner[1], at[1]),
                Math.max(corner[0], at[0]), Math.max(corner[1], at[1])];
      corner = null;
    }
  } else {
    board[at[1] * N + at[0]] = Number(tool);
  }
  next = [];
  draw();
});

document.getElementById("clear").onclick = () => { board.fill(0); next = []; draw(); };
document.getElementById("whole").onclick = () => { region = null; corner = null; next = []; draw(); };

async function search() {
  const q = board.map((c) => ".XO"[c]).join("");
  const params = new URLSearchParams({ q, swap: document.getElementById("swap").checked ? "1" : "0" });
  if (region) params.set("region", region.join(","));
  const summary = document.getElementById("summary");
  summary.textContent = "searching…";
  summary.className = "";
  const r = await fetch(`/api/search?${params}`);
  if (!r.ok) {
    summary.textContent = await r.text();
    summary.className = "error";
    return;
  }
  const v = await r.json();
  next = v.continuations;
  summary.textContent = `${v.kind} search: ${v.games_matched} games, ${v.positions_matched} positions (${v.ms.toFixed(1)} ms)`;
  const rows = next.map((s) => {
    const rate = s.win_rate === null ? "-" : (100 * s.win_rate).toFixed(1);
    return `<tr><td>${s.label}</td><td>${s.move}</td><td>${s.colour}</td><td>${s.played}</td>` +
      `<td>${s.wins}</td><td>${s.losses}</td><td>${s.draws}</td><td>${rate}</td></tr>`;
  });
  document.querySelector("#next tbody").innerHTML = rows.join("");
  const games = document.getElementById("games");
  games.replaceChildren();
  for (const g of v.games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = g.sgf;
    a.textContent = `${g.black || "?"} (B) – ${g.white || "?"} (W)`;
    const line = g.variation ? ` (variation ${g.variation})` : "";
    li.append(a, `${line} ${g.result || "-"} ${g.date || ""}`);
    games.append(li);
  }
  if (v.truncated) {
    const li = document.createElement("li");
    li.textContent = `… ${v.games_matched - v.games.length} more`;
    games.append(li);
  }
  draw();
}

document.getElementById("search").onclick = () => { search(); };

fetch("/api/info").then((r) => r.json()).then((v) => {
  document.getElementById("dbinfo").textContent = `${v.games} games, ${v.positions} positions`;
});
draw();
