#!/usr/bin/env bash
# Build the engine for the browser and put it beside the page:
#   bash web/build.sh        then   python3 -m http.server -d web   and open http://localhost:8000
# Runs cargo in wasm/ (its .cargo/config.toml picks wasm32-unknown-unknown)
# and copies the module to web/kosumi.wasm (gitignored).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/wasm"
"${CARGO:-cargo}" build --release --target wasm32-unknown-unknown
target_dir="${CARGO_TARGET_DIR:-$root/wasm/target}"
cp "$target_dir/wasm32-unknown-unknown/release/kosumi_wasm.wasm" "$root/web/kosumi.wasm"
echo "web/kosumi.wasm: $(wc -c < "$root/web/kosumi.wasm") bytes, $(gzip -9c "$root/web/kosumi.wasm" | wc -c) gzipped"
