#!/usr/bin/env bash
# Runs the test phases in order, failing fast. Prints each phase's duration and, as the very last line,
# "N passed, N failed" (CI reads it). Test phases add up the counts their runners report; a check phase
# (formatter, linter, type checker) counts as one; the set-up phase is timed but not counted.
# Usage: scripts/test.sh all|lint|e2e|fuzz   (SYMBOLON_TEST_SKIP="rust-fmt vitest" skips phases locally; they are
# reported as skipped and CI never sets it)
set -uo pipefail
cd "$(dirname "$0")/.."

suite=${1:-all}
case $suite in
  all) phases=(setup rust-fmt rust-clippy rust-test fuzz wasm biome typecheck vitest e2e) ;;
  lint) phases=(setup rust-fmt rust-clippy biome typecheck) ;;
  e2e) phases=(setup e2e) ;;
  fuzz) phases=(setup fuzz) ;;
  *) echo "usage: $0 all|lint|e2e|fuzz" >&2; exit 2 ;;
esac

logdir=$(mktemp -d -t symbolon-test-XXXXXX)
trap 'rm -rf "$logdir"' EXIT
passed=0
failed=0
summary=()

command_for() {
  case $1 in
    setup) echo "scripts/setup.sh" ;;
    rust-fmt) echo "cargo fmt --all --check" ;;
    # The wallet core also compiles for the wallet frame (wasm32): lint that build too.
    rust-clippy) echo "cargo clippy --workspace --all-targets -- -D warnings && cargo clippy -p symbolon-wallet-core --target wasm32-unknown-unknown -- -D warnings" ;;
    rust-test) echo "cargo test --workspace" ;;
    # schemathesis over /api/v1/openapi.json against the debug binary (tools/fuzz/run.mjs).
    fuzz) echo "node tools/fuzz/run.mjs" ;;
    # The same signing vectors against the wasm build, in Node and in Chromium.
    wasm) echo "node --test crates/wallet-core/tests/wasm/" ;;
    biome) echo "npx biome check ." ;;
    typecheck) echo "npm run typecheck" ;;
    vitest) echo "npm test" ;;
    e2e) echo "npm run e2e -w @symbolon/e2e" ;;
  esac
}

# node --test summary lines: "ℹ pass 12" (spec reporter) or "# pass 12" (TAP).
node_test_counts() {
  awk '/^(ℹ|#) pass [0-9]+/ {p += $3} /^(ℹ|#) fail [0-9]+/ {f += $3; n++} END {if (n) print p+0, f+0}'
}

# Prints "<passed> <failed>" from a runner's output, or nothing when it reported no counts.
count() {
  local phase=$1 log=$2
  local clean
  clean=$(sed -E 's/\x1b\[[0-9;]*[A-Za-z]//g' "$log")
  case $phase in
    rust-test)
      # "test result: ok. 12 passed; 0 failed; 0 ignored; ..."
      grep -E '^test result:' <<<"$clean" | awk '{p+=$4; f+=$6} END {if (NR) print p+0, f+0}'
      ;;
    vitest)
      # vitest: "      Tests  3 failed | 40 passed (43)", one per workspace; tools/stack uses node --test (below)
      {
        grep -E '^\s*Tests\s+' <<<"$clean" | awk '{
            for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i }
          } END { if (NR) print p+0, f+0 }'
        node_test_counts <<<"$clean"
      } | awk '{p += $1; f += $2; n++} END {if (n) print p, f}'
      ;;
    e2e | wasm) node_test_counts <<<"$clean" ;;
    fuzz)
      # tools/fuzz/run.mjs ends with "fuzz: 2262 cases, 0 failures" (each generated case is a test)
      grep -E '^fuzz: [0-9]+ cases, [0-9]+ failures' <<<"$clean" | tail -1 | awk '{print $2+0, $4+0}'
      ;;
  esac
}

fmt_s() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

finish() {
  echo
  echo "Phase durations:"
  for line in "${summary[@]}"; do echo "  $line"; done
  echo "$passed passed, $failed failed"
}

for phase in "${phases[@]}"; do
  if [[ " ${SYMBOLON_TEST_SKIP:-} " == *" $phase "* ]]; then
    summary+=("$(printf '%-12s %6s  %s' "$phase" "-" "skipped (SYMBOLON_TEST_SKIP)")")
    continue
  fi
  cmd=$(command_for "$phase")
  log="$logdir/$phase.log"
  printf '\n\033[1m==> [%s] %s\033[0m\n' "$phase" "$cmd"
  start=$(date +%s)
  bash -c "$cmd" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  took=$(($(date +%s) - start))
  read -r p f < <(count "$phase" "$log"; echo) || true
  if [[ $phase == setup ]]; then
    # Installing is not a test: it is timed but not counted (a failed set-up still counts as a failure).
    p=0; f=$((status != 0))
  elif [[ -z ${p:-} ]]; then
    # A check phase (or a runner whose output we could not read): the phase itself is the unit.
    if [[ $status -eq 0 ]]; then p=1; f=0; else p=0; f=1; fi
  elif [[ $status -ne 0 && ${f:-0} -eq 0 ]]; then
    f=1 # failed without a failing test (compile error, crash): still a failure
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  summary+=("$(printf '%-12s %6s  %s' "$phase" "$(fmt_s "$took")" "$([[ $status -eq 0 ]] && echo ok || echo FAILED)")")
  if [[ $status -ne 0 ]]; then
    printf '\n\033[1;31m✖ Phase "%s" failed (exit %d): %s\033[0m\n' "$phase" "$status" "$cmd"
    finish
    exit 1
  fi
  p=''; f=''
done

printf '\n\033[1;32m✔ All phases passed\033[0m\n'
finish
