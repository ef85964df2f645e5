// The browser test of `kosumi db serve`'s page: in Debian's Chromium
// (playwright-core, no browser download), place black Q16 and white D4 by
// clicking the board, search the whole board, and check that the summary,
// the continuation table, the labels on the board and the game links
// appear and that a game's SGF link answers; then pick a region (two
// corners) and search it as a pattern.
// Usage: node db.mjs URL [SCREENSHOT_DIR]. Exit 0 on success; on failure a
// message on stderr and status 1.

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, WEB } from "./serve.mjs";

const [url, shots = join(WEB, "test", "screenshots")] = process.argv.slice(2);

function check(ok, what) {
  if (!ok) throw new Error(what);
}

/** Click the board point `vertex` (e.g. "Q16"). */
async function click(page, vertex) {
  const x = "ABCDEFGHJKLMNOPQRST".indexOf(vertex[0]);
  const y = 19 - Number(vertex.slice(1));
  const box = await page.locator("#board").boundingBox();
  // viewBox 0..20: point (x, y) is at (x + 1, y + 1).
  await page.mouse.click(box.x + ((x + 1) * box.width) / 20, box.y + ((y + 1) * box.height) / 20);
}

async function main() {
  check(url, "usage: node db.mjs URL [SCREENSHOT_DIR]");
  await mkdir(shots, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => /\d+ games/.test(document.getElementById("dbinfo").textContent));

    await page.check("input[name=tool][value='1']");
    await click(page, "Q16");
    await page.check("input[name=tool][value='2']");
    await click(page, "D4");
    check((await page.locator("circle.stone.black").count()) === 1, "black Q16 placed");
    check((await page.locator("circle.stone.white").count()) === 1, "white D4 placed");
    await page.click("#search");
    await page.waitForFunction(() => document.getElementById("summary").textContent.startsWith("position search:"));
    const summary = await page.textContent("#summary");
    const games = Number(/(\d+) games/.exec(summary)[1]);
    check(games > 0, `games found: ${summary}`);
    const rows = await page.locator("#next tbody tr").count();
    const labels = await page.locator("g.continuation").count();
    check(rows > 0 && labels > 0, `continuations shown: ${rows} rows, ${labels} labels`);
    const links = page.locator("#games a");
    check((await links.count()) === Math.min(games, 100), "one link per listed game");
    const href = await links.first().getAttribute("href");
    const record = await page.evaluate(async (h) => (await fetch(h)).text(), href);
    check(record.includes("SZ[19]"), `the game's record at ${href}`);
    await page.screenshot({ path: join(shots, "db-position.png") });

    // A region: the upper right quarter, K19 to T11, as a pattern.
    await page.check("input[name=tool][value='region']");
    await click(page, "K19");
    await click(page, "T11");
    check((await page.locator("#region").count()) === 1, "the region is drawn");
    await page.click("#search");
    await page.waitForFunction(() => document.getElementById("summary").textContent.startsWith("pattern search:"));
    const pattern = await page.textContent("#summary");
    const found = Number(/(\d+) games/.exec(pattern)[1]);
    check(found >= games, `the corner alone is in at least as many games: ${pattern}`);
    await page.screenshot({ path: join(shots, "db-region.png") });
    check(errors.length === 0, `page errors: ${errors.join("; ")}`);
    console.log(`db page: ${summary}; ${pattern}`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(`db page test failed: ${e.message}`);
  process.exit(1);
});
