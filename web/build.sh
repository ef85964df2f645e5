#!/usr/bin/env bash
# Build the page's two built files:
#   bash web/build.sh        then   python3 -m http.server -d web   and open http://localhost:8000
# - web/kosumi.wasm, the engine: cargo in wasm/ (its .cargo/config.toml
#   picks wasm32-unknown-unknown);
# - web/sgf.js, the SGF reader the page loads records with: Sabaki's
#   parser (npm @sabaki/sgf) bundled by esbuild, both from web/package.json
#   (`npm ci` on the first build; Debian package npm).
# Both are gitignored.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/wasm"
"${CARGO:-cargo}" build --release --target wasm32-unknown-unknown
target_dir="${CARGO_TARGET_DIR:-$root/wasm/target}"
cp "$target_dir/wasm32-unknown-unknown/release/kosumi_wasm.wasm" "$root/web/kosumi.wasm"
echo "web/kosumi.wasm: $(wc -c < "$root/web/kosumi.wasm") bytes, $(gzip -9c "$root/web/kosumi.wasm" | wc -c) gzipped"

cd "$root/web"
if [ ! -d node_modules/@sabaki/sgf ] || [ ! -x node_modules/.bin/esbuild ]; then
  command -v npm >/dev/null 2>&1 || { echo "web/build.sh: npm is missing (Debian package npm)" >&2; exit 1; }
  npm ci --no-audit --no-fund --ignore-scripts
fi
# Node's fs (the parser's parseFile) is left out: the page reads files
# through the browser. The optional encoding detectors are left out too:
# the parser falls back to text the browser has already decoded.
node_modules/.bin/esbuild sgf-entry.js --bundle --format=esm --minify --log-level=warning \
  --alias:fs=./sgf-no-fs.js --external:iconv-lite --external:jschardet --outfile=sgf.js
echo "web/sgf.js: $(wc -c < sgf.js) bytes"
