#!/usr/bin/env bash
# Builds the wallet frame's wasm: cargo (wasm-release profile) → wasm-bindgen --target web →
# wasm-opt -Oz --strip-debug (npm `binaryen`), then prints raw and gzip sizes.
# Output: crates/wallet-core/pkg/ (symbolon_wallet_core.js + symbolon_wallet_core_bg.wasm).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
out="$here/pkg"

cd "$root"
cargo build -p symbolon-wallet-core --target wasm32-unknown-unknown --profile wasm-release
wasm-bindgen --target web --out-dir "$out" \
  "$target/wasm32-unknown-unknown/wasm-release/symbolon_wallet_core.wasm"
npx wasm-opt -Oz --converge --strip-debug --strip-producers --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals \
  -o "$out/symbolon_wallet_core_bg.wasm" "$out/symbolon_wallet_core_bg.wasm"

size() { printf '%-28s raw %7d B  gzip %6d B\n' "$(basename "$1")" "$(wc -c <"$1")" "$(gzip -9 -c "$1" | wc -c)"; }
gz() { gzip -9 -c "$1" | wc -c; }
size "$out/symbolon_wallet_core_bg.wasm"
size "$out/symbolon_wallet_core.js"
# The frame's bundler minifies the glue; measure that form too (esbuild is a root devDependency).
min="$(mktemp --suffix=.js)"
npx esbuild --minify --format=esm --log-level=warning "$out/symbolon_wallet_core.js" --outfile="$min"
size "$min"
total=$(( $(gz "$out/symbolon_wallet_core_bg.wasm") + $(gz "$out/symbolon_wallet_core.js") ))
shipped=$(( $(gz "$out/symbolon_wallet_core_bg.wasm") + $(gz "$min") ))
rm -f "$min"
echo "wasm + glue gzip: $total B; with minified glue: $shipped B (budget 81920 B = 80 KiB)"
