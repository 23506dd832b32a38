#!/usr/bin/env bash
# `make setup`: installs what dev, test and bench need. Idempotent, and fast when everything is in place.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# npm: `npm ci` only when node_modules is missing or older than the lock file (npm writes
# node_modules/.package-lock.json on every install, so its mtime says when the tree was last synced).
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  step "npm ci"
  # npm 11 against this machine's registry writes lock files without other platforms' optional packages
  # (e.g. @biomejs/cli-darwin-x64), and then its own `npm ci` refuses them as "out of sync". `npm install`
  # installs the same locked versions, so fall back to it rather than fail the set-up.
  if ! flock /tmp/symbolon-npm.lock npm ci --no-audit --no-fund; then
    step "npm ci refused the lock file; running npm install instead"
    flock /tmp/symbolon-npm.lock npm install --no-audit --no-fund
  fi
  # npm install may rewrite package-lock.json after node_modules: mark the tree as synced with it now.
  touch node_modules/.package-lock.json
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

# --- wasm toolchain (next issue) -------------------------------------------------------------------
# The wallet-core wasm build will need, here:
#   rustup target add wasm32-unknown-unknown
#   wasm-bindgen-cli pinned to the `wasm-bindgen` version in Cargo.lock (skip when `wasm-bindgen --version`
#   already matches; `cargo install wasm-bindgen-cli --version X`, without --locked)
# ----------------------------------------------------------------------------------------------------

step "cargo build -p symbolon-server"
cargo build -p symbolon-server
