// The engine's thread: loads kosumi.wasm (the core built by wasm/, a fixed
// linear memory, one import: the clock a timed move reads) and answers the page's messages, so a
// search never freezes the page.
//
// In:  {id, gtp: "line"}            -> {id, answer: "= ..." | "? ...", ms}
//      {id, analyze: playouts, rounds}
//                                   -> {id, analysis: {...}, round} per round, then {id, done: true}
//                                      (a round is a search of `playouts` more playouts on the
//                                      same tree; any new message stops the rounds)
//      {id, seed: [hi, lo]}         -> {id, seeded: true} (games from one seed are the same)
//      {id, info: true}             -> {id, info: {memoryBytes, wasmBytes}}
// Out at start: {ready: true, ms} (instantiation time), or {error: "..."}.

let kosumi = null;
let wasmBytes = 0;
const queue = [];
let running = false;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Return the output buffer's first n bytes as text. */
function output(n) {
  return decoder.decode(new Uint8Array(kosumi.memory.buffer, kosumi.kosumi_output(), n));
}

/** Answer one GTP line. */
function gtp(line) {
  const bytes = encoder.encode(line);
  const cap = kosumi.kosumi_input_capacity();
  if (bytes.length > cap) return "? line too long\n\n";
  new Uint8Array(kosumi.memory.buffer, kosumi.kosumi_input(), cap).set(bytes);
  const n = kosumi.kosumi_gtp(bytes.length);
  return n < 0 ? `? kosumi error ${n}\n\n` : output(n);
}

/** Search further and return the analysis, or an error text. */
function analyse(playouts) {
  const n = kosumi.kosumi_analyze(playouts);
  if (n < 0) return { error: `kosumi error ${n}` };
  return JSON.parse(output(n));
}

/** Run the queued messages one at a time; analysis rounds yield between them. */
async function pump() {
  if (running) return;
  running = true;
  while (queue.length > 0) {
    const msg = queue.shift();
    if (msg.gtp !== undefined) {
      const t = performance.now();
      const answer = gtp(msg.gtp);
      postMessage({ id: msg.id, answer, ms: performance.now() - t });
    } else if (msg.analyze !== undefined) {
      for (let round = 0; round < (msg.rounds || 1); round++) {
        const t = performance.now();
        const analysis = analyse(msg.analyze);
        postMessage({ id: msg.id, analysis, round, ms: performance.now() - t });
        if (analysis.error) break;
        // Let a new message in; it ends the rounds.
        await new Promise((r) => setTimeout(r, 0));
        if (queue.length > 0) break;
      }
      postMessage({ id: msg.id, done: true });
    } else if (msg.seed !== undefined) {
      kosumi.kosumi_init(msg.seed[0] >>> 0, msg.seed[1] >>> 0);
      postMessage({ id: msg.id, seeded: true });
    } else if (msg.info) {
      postMessage({
        id: msg.id,
        info: { memoryBytes: kosumi.kosumi_memory_bytes(), wasmBytes },
      });
    }
  }
  running = false;
}

onmessage = (e) => {
  queue.push(e.data);
  if (kosumi) pump();
};

(async () => {
  try {
    const t = performance.now();
    const bytes = await (await fetch("kosumi.wasm")).arrayBuffer();
    wasmBytes = bytes.byteLength;
    const { instance } = await WebAssembly.instantiate(bytes, {
      env: { kosumi_now_ms: () => performance.now() },
    });
    kosumi = instance.exports;
    // The page passes its seed in its first message; start from a fixed one.
    kosumi.kosumi_init(0, 1);
    postMessage({ ready: true, ms: performance.now() - t });
    pump();
  } catch (err) {
    postMessage({ error: String(err) });
  }
})();
