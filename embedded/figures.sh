#!/usr/bin/env bash
# The firmware's figures that README.md and BENCHMARKS.md quote, from one
# command (run from anywhere; needs qemu-system-arm, flip-link and
# defmt-print):
#   - flash and static RAM of the lm3s6965evb build (`size -A`: flash is
#     .vector_table + .text + .rodata + .data, static RAM .data + .bss);
#   - the stack's high-water mark after the on-target tests' searches
#     (`tests/on_target.rs`, a searched genmove and a 1 s move);
#   - search playouts per million guest instructions, from the bench build
#     under QEMU's `-icount shift=0` (exact, whatever the machine's load).
set -euo pipefail
cd "$(dirname "$0")"
for tool in qemu-system-arm flip-link defmt-print; do
  command -v "$tool" >/dev/null 2>&1 || { echo "figures.sh: $tool is missing" >&2; exit 1; }
done
elf=target/thumbv7m-none-eabi/release/kosumi-firmware
qemu=(qemu-system-arm -machine lm3s6965evb -cpu cortex-m3 -display none -monitor none
      -serial stdio -semihosting-config enable=on,target=native)

echo "building the lm3s6965evb firmware" >&2
cargo build --release --quiet
read -r flash ram < <(size -A "$elf" | awk '
  /^\.(vector_table|text|rodata|data) / { flash += $2 }
  /^\.(data|bss|uninit) / { ram += $2 }
  END { print flash, ram }')

echo "running the on-target tests" >&2
test_elf=$(cargo test --release --no-run --message-format=json 2>/dev/null \
  | sed -n 's/.*"executable":"\([^"]*on_target[^"]*\)".*/\1/p' | tail -n 1)
log=$(timeout 300 "${qemu[@]}" -kernel "$test_elf" 2>&1 >/dev/null | defmt-print -e "$test_elf")
stack=$(sed -n 's/.*INFO  stack \([0-9]*\) of \([0-9]*\).*/\1 \2/p' <<<"$log")
[ -n "$stack" ] || { echo "figures.sh: no stack line in the on-target log:" >&2; echo "$log" >&2; exit 1; }
read -r stack region <<<"$stack"

echo "running the bench under QEMU -icount" >&2
cargo build --release --quiet --features bench
bench=$(timeout 900 "${qemu[@]}" -icount shift=0 -kernel "$elf" 2>&1 | tr -d '\0')
# The longest search of the bench: its playouts per million instructions.
ppm=$(sed -n 's/^bench search: .*, \([0-9.]*\) playouts per million instructions.*/\1/p' <<<"$bench" | tail -n 1)
[ -n "$ppm" ] || { echo "figures.sh: no search line in the bench output:" >&2; echo "$bench" >&2; exit 1; }
# Leave the GTP build in place, as `cargo build --release` makes it.
cargo build --release --quiet

kib() { awk -v b="$1" 'BEGIN { printf "%.1f KiB (%d bytes)", b / 1024, b }'; }
echo "lm3s6965evb firmware ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)):"
echo "  flash        $(kib "$flash")"
echo "  static RAM   $(kib "$ram")"
echo "  stack        $stack of $region bytes after the on-target searches"
echo "  search       $ppm playouts per million instructions (QEMU -icount)"
