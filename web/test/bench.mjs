// The browser benchmark (not a test): the module's size raw and gzipped,
// its fixed linear memory, the time to load it and to the first move, and
// playouts a second of a search from the empty board in Chromium; with
// `--native PATH` (the host binary), the same search natively with the
// same knowledge (`kosumi bench search --patterns models/kgs-6d-2k.kpm`:
// heavy playouts, tactical reader, best-move table, the module's
// move-pattern model, last good replies).
//
//   bash web/build.sh && cargo build --release -p kosumi
//   node web/test/bench.mjs [--playouts 20000] [--native target/release/kosumi]

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { CHROMIUM, serve, WEB } from "./serve.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const PLAYOUTS = Number(arg("--playouts", "20000"));
const NATIVE = arg("--native", null);
const RUNS = 3;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const wasm = readFileSync(join(WEB, "kosumi.wasm"));
  const out = {
    date: new Date().toISOString(),
    wasmBytes: wasm.length,
    wasmGzipBytes: gzipSync(wasm, { level: 9 }).length,
  };
  const server = await serve();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    out.chromium = browser.version();
    const page = await browser.newPage();
    const start = Date.now();
    await page.goto(server.url);
    await page.waitForFunction(() => window.kosumiPage?.state.timings.load > 0, null, { timeout: 30_000 });
    await page.evaluate(() => window.kosumiPage.ready);
    out.loadMs = await page.evaluate(() => window.kosumiPage.state.timings.load);
    // The first move of a 9x9 game at the page's default 1,000 playouts.
    const first = await page.evaluate(async () => {
      const e = window.kosumiPage.engine;
      for (const l of ["boardsize 9", "clear_board", "komi 7", "kosumi-playouts 1000"]) await e.gtp(l);
      return (await e.gtp("genmove b")).ms;
    });
    out.firstMoveMs = first;
    out.pageToFirstMoveMs = Date.now() - start;
    out.memoryBytes = (await page.evaluate(() => window.kosumiPage.engine.send({ info: true }))).info.memoryBytes;
    // Playouts a second: a search from the empty board (reg_genmove: the
    // search alone, nothing played), each run on a fresh tree and seed.
    for (const size of [9, 19]) {
      const n = size === 9 ? PLAYOUTS : Math.floor(PLAYOUTS / 2);
      const times = [];
      for (let run = 0; run < RUNS; run++) {
        times.push(await page.evaluate(async ([size, n, run]) => {
          const e = window.kosumiPage.engine;
          await e.send({ seed: [0, run + 1] });
          for (const l of [`boardsize ${size}`, "clear_board", "komi 7", `kosumi-playouts ${n}`]) await e.gtp(l);
          return (await e.gtp("reg_genmove b")).ms;
        }, [size, n, run]));
      }
      out[`wasm${size}`] = { playouts: n, ms: median(times), playoutsPerSec: Math.round((n / median(times)) * 1000) };
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (NATIVE) {
    for (const size of [9, 19]) {
      const n = size === 9 ? PLAYOUTS : Math.floor(PLAYOUTS / 2);
      const rates = [];
      for (let run = 0; run < RUNS; run++) {
        const json = execFileSync(NATIVE, ["bench", "search", "--size", String(size), "--playouts", String(n), "--seed", String(run + 1),
          "--patterns", join(WEB, "..", "models", "kgs-6d-2k.kpm"), "--json"], { encoding: "utf8" });
        rates.push(JSON.parse(json.trim().split("\n").at(-1)).playouts_per_sec);
      }
      out[`native${size}`] = { playouts: n, playoutsPerSec: Math.round(median(rates)) };
    }
  }
  console.log(JSON.stringify(out, null, 1));
  const kib = (b) => `${(b / 1024).toFixed(0)} KiB`;
  console.log(`kosumi.wasm ${kib(out.wasmBytes)} (${kib(out.wasmGzipBytes)} gzipped), memory ${(out.memoryBytes / 2 ** 20).toFixed(1)} MiB fixed; ` +
    `load ${out.loadMs.toFixed(0)} ms, first 9x9 move (1,000 playouts) ${out.firstMoveMs.toFixed(0)} ms, page to first move ${out.pageToFirstMoveMs} ms`);
  for (const size of [9, 19]) {
    const w = out[`wasm${size}`];
    const nat = out[`native${size}`];
    console.log(`${size}x${size}, ${w.playouts} playouts: Chromium ${w.playoutsPerSec}/s` +
      (nat ? `, native ${nat.playoutsPerSec}/s (${(w.playoutsPerSec / nat.playoutsPerSec).toFixed(2)} of native)` : ""));
  }
}

main().catch((e) => {
  console.error(`web bench failed: ${e.message}`);
  process.exit(1);
});
