#!/usr/bin/env bash
# `make setup`: installs what dev, test and bench need (the fuzzer only with SYMBOLON_SETUP_FUZZ=1, as
# `make test` and `make fuzz` run it). Idempotent, and fast when everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\033[1m==> [%3ds] %s\033[0m\n' "$SECONDS" "$*"; } # seconds since the set-up began

# npm: `npm ci` only when node_modules is missing or older than the lock file (npm writes
# node_modules/.package-lock.json on every install, so its mtime says when the tree was last synced).
# The lock file lists every platform's optional packages (e.g. @biomejs/cli-darwin-x64), so `npm ci`
# accepts it on any machine; after changing dependencies, check with `rm -rf node_modules && npm ci`.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  step "npm ci"
  flock /tmp/symbolon-npm.lock npm ci --no-audit --no-fund
else
  step "npm dependencies up to date"
fi

# Chromium for the e2e suite (Debian's build; playwright-core drives it, never `playwright install`).
if [[ ! -x /usr/bin/chromium ]]; then
  if [[ $(id -u) -eq 0 ]]; then
    step "installing chromium (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing. Install it with:  sudo apt-get update && sudo apt-get install -y chromium" >&2
    exit 1
  fi
else
  step "chromium present"
fi

# True when output $1 exists and nothing under the other arguments (files or directory trees, not counting
# node_modules/ and dist/ in them) is newer: a second `make setup` skips builds whose sources did not change.
up_to_date() {
  local out=$1
  shift
  [[ -e $out ]] || return 1
  [[ -z $(find "$@" \( -name node_modules -o -name dist \) -prune -o -newer "$out" -print -quit 2>/dev/null) ]]
}

# The wallet: wallet-core compiled to wasm32, bound with wasm-bindgen, inside the wallet frame page.
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "wasm32-unknown-unknown target present"
else
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen-cli must be exactly the `wasm-bindgen` crate version in Cargo.lock (wallet-core pins it).
bindgen_version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
if [[ -z $bindgen_version ]]; then
  echo "Cargo.lock has no wasm-bindgen package; cannot pick the wasm-bindgen-cli version" >&2
  exit 1
fi
if [[ $(wasm-bindgen --version 2>/dev/null) == "wasm-bindgen $bindgen_version" ]]; then
  step "wasm-bindgen-cli $bindgen_version present"
else
  step "cargo install wasm-bindgen-cli --version $bindgen_version (compiles from source: about 6 minutes on 2 cores)"
  # No --locked: one of the CLI's locked dependency versions is missing from the registry.
  cargo install wasm-bindgen-cli --version "$bindgen_version" --force
fi

wasm_out=crates/wallet-core/pkg/symbolon_wallet_core_bg.wasm
if up_to_date "$wasm_out" crates/wallet-core/src crates/wallet-core/Cargo.toml crates/wallet-core/scripts \
  Cargo.toml Cargo.lock; then
  step "wallet-core wasm up to date ($wasm_out)"
else
  step "building the wallet-core wasm (crates/wallet-core/scripts/build-wasm.sh)"
  # A failed build may leave a fresh but unfinished module behind: remove it so the next run retries.
  crates/wallet-core/scripts/build-wasm.sh || { rm -f "$wasm_out"; exit 1; }
fi

# The frame's whole package (sources, index.html, Vite config) and the wasm are its inputs.
frame_out=packages/wallet-frame/dist/index.html
if [[ ! -f packages/wallet-frame/package.json ]]; then
  step "packages/wallet-frame is missing: skipping the wallet frame build"
elif up_to_date "$frame_out" packages/wallet-frame crates/wallet-core/pkg; then
  step "wallet frame up to date ($frame_out)"
else
  step "building the wallet frame (npm run build -w @symbolon/wallet-frame)"
  npm run build -w @symbolon/wallet-frame || { rm -f "$frame_out"; exit 1; }
fi

# The cross-app consent and signing pages (served at /apps/{appId}/oauth/authorize and /oauth/transact).
xapp_out=packages/cross-app-page/dist/index.html
if up_to_date "$xapp_out" packages/cross-app-page packages/core/src; then
  step "cross-app page up to date ($xapp_out)"
else
  step "building the cross-app page (npm run build -w @symbolon/cross-app-page)"
  npm run build -w @symbolon/cross-app-page || { rm -f "$xapp_out"; exit 1; }
fi

# schemathesis for the `fuzz` test phase (tools/fuzz/run.mjs), in a local venv; PyPI, about 15 s. Only
# for the commands that fuzz (`make test`, `make fuzz` set SYMBOLON_SETUP_FUZZ=1): `make dev` never uses it.
fuzz_venv=.dev/fuzz-venv
if [[ ${SYMBOLON_SETUP_FUZZ:-} != 1 ]]; then
  :
elif [[ -x $fuzz_venv/bin/schemathesis ]]; then
  step "schemathesis present ($fuzz_venv)"
else
  step "installing schemathesis 4 into $fuzz_venv (pip)"
  rm -rf "$fuzz_venv"
  python3 -m venv "$fuzz_venv"
  "$fuzz_venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis==4.*' || { rm -rf "$fuzz_venv"; exit 1; }
fi

# A first (cold) build takes minutes: say so, with the last cold build's time on this machine when known,
# and keep it for next time. Cargo draws its own crate count (n/N) on a terminal.
build_record=.dev/cold-build-seconds
cold_build=0
if [[ ! -x target/debug/symbolon ]]; then
  cold_build=1
  if [[ -f $build_record ]]; then
    step "first build of the server: the last one here took $(( $(cat "$build_record") / 60 )) min $(( $(cat "$build_record") % 60 )) s"
  else
    step "first build of the server: about 6-10 min on 2 cores (later builds take seconds)"
  fi
fi
build_started=$SECONDS
if [[ ${SYMBOLON_SETUP_TESTS:-} == 1 ]]; then
  # `make test`: the test binaries too, with the features the tests unify (dev-dependencies change some
  # shared crates' features): the server binary the later phases run and every test binary are built here,
  # once, instead of a second time by `cargo test`.
  step "cargo test --workspace --no-run"
  cargo test --workspace --no-run
else
  step "cargo build -p symbolon-server"
  cargo build -p symbolon-server
fi
if [[ $cold_build == 1 ]]; then
  mkdir -p .dev
  echo $((SECONDS - build_started)) > "$build_record"
fi
