#!/usr/bin/env bash
# Runs the test phases in order, failing fast. Prints each phase's duration and, as the very last line,
# "N passed, N failed" (CI reads it). Test phases add up the counts their runners report; a check phase
# (formatter, linter, type checker) counts as one; the set-up phase is timed but not counted.
# Usage: scripts/test.sh all|lint|e2e|fuzz   (SYMBOLON_TEST_SKIP="rust-fmt vitest" skips phases locally; they are
# reported as skipped and CI never sets it)
#        scripts/test.sh only <name>   one capability's Rust, TypeScript and e2e tests: the Rust tests whose path
#        contains <name>, the vitest files whose path does, e2e/tests/*<name>*.test.mjs (`_` read as `-`; `make test ONLY=passkey`).
#        SQLITE_ONLY=1 skips the Postgres half of the server tests (and so never starts Postgres).
set -uo pipefail
cd "$(dirname "$0")/.."

suite=${1:-all}
only=${2:-}
case $suite in
  # "a+b": a and b run side by side (clippy is mostly compiler CPU with a single-threaded tail, the fuzz
  # phase one Python worker and the server); each keeps its own log, duration and counts. rust-test waits
  # for clippy's lock on the build directory, so clippy then the Rust tests share one core with the fuzz
  # on the other (the fuzz outlasts both).
  all) phases=(setup rust-fmt rust-clippy+fuzz+rust-test wasm biome typecheck vitest e2e) ;;
  lint) phases=(setup rust-fmt rust-clippy biome typecheck) ;;
  e2e) phases=(setup e2e) ;;
  fuzz) phases=(setup fuzz) ;;
  only)
    if [[ ! $only =~ ^[a-z0-9_-]+$ ]]; then
      echo "usage: $0 only <capability>   e.g. passkey, mfa, wallet, telegram (lower-case letters, digits, - and _)" >&2
      exit 2
    fi
    phases=(setup rust-test vitest e2e)
    ;;
  *) echo "usage: $0 all|lint|e2e|fuzz|only <capability>" >&2; exit 2 ;;
esac

logdir=$(mktemp -d -t symbolon-test-XXXXXX)
trap 'rm -rf "$logdir"' EXIT
passed=0
failed=0
summary=()

command_for() {
  case $1 in
    # The whole suite builds the test binaries during set-up (see scripts/setup.sh).
    setup)
      case $suite in
        all) echo "SYMBOLON_SETUP_TESTS=1 SYMBOLON_SETUP_FUZZ=1 scripts/setup.sh" ;;
        fuzz) echo "SYMBOLON_SETUP_FUZZ=1 scripts/setup.sh" ;;
        *) echo "scripts/setup.sh" ;;
      esac
      ;;
    rust-fmt) echo "cargo fmt --all --check" ;;
    # The wallet core also compiles for the wallet frame (wasm32): lint that build too.
    rust-clippy) echo "cargo clippy --workspace --all-targets -- -D warnings && cargo clippy -p symbolon-wallet-core --target wasm32-unknown-unknown -- -D warnings" ;;
    # Most integration tests wait on loopback I/O (the server, Postgres, the catchers): 4 threads keep 2 cores busy.
    rust-test)
      local filter="" skip=""
      [[ $suite == only ]] && filter="$only "
      [[ ${SQLITE_ONLY:-} == 1 ]] && skip="--skip postgres:: "
      echo "cargo test --workspace -- $filter$skip--test-threads 4"
      ;;
    # schemathesis over /api/v1/openapi.json against the debug binary (tools/fuzz/run.mjs).
    fuzz) echo "node tools/fuzz/run.mjs" ;;
    # The same signing vectors against the wasm build, in Node and in Chromium.
    wasm) echo "node --test crates/wallet-core/tests/wasm/" ;;
    biome) echo "npx biome check ." ;;
    typecheck) echo "npm run typecheck" ;;
    vitest)
      if [[ $suite == only ]]; then
        # Every workspace whose tests are vitest, filtered by file path (none matching is no failure).
        echo "for w in \$(grep -l '\"test\": \"vitest run\"' packages/*/package.json apps/*/package.json tools/*/package.json | xargs -n1 dirname); do (cd \$w && npx vitest run --passWithNoTests $only) || exit 1; done"
      else
        echo "npm test"
      fi
      ;;
    e2e)
      if [[ $suite == only ]]; then
        local files
        files=$(cd e2e && ls tests/*"${only//_/-}"*.test.mjs 2>/dev/null | tr '\n' ' ')
        if [[ -z $files ]]; then echo "echo 'no e2e file matches $only'"; else echo "npm run e2e -w @symbolon/e2e -- $files"; fi
      else
        echo "npm run e2e -w @symbolon/e2e"
      fi
      ;;
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

# Adds a finished phase's counts and duration to the totals; returns its exit status.
record() {
  local phase=$1 status=$2 took=$3 log="$logdir/$1.log" p f
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
    printf '\n\033[1;31m✖ Phase "%s" failed (exit %d): %s\033[0m\n' "$phase" "$status" "$(command_for "$phase")"
  fi
  return "$status"
}

skipped() {
  if [[ " ${SYMBOLON_TEST_SKIP:-} " == *" $1 "* ]]; then
    summary+=("$(printf '%-12s %6s  %s' "$1" "-" "skipped (SYMBOLON_TEST_SKIP)")")
    return 0
  fi
  return 1
}

for group in "${phases[@]}"; do
  IFS=+ read -r -a members <<<"$group"
  if [[ ${#members[@]} -eq 1 ]]; then
    phase=${members[0]}
    skipped "$phase" && continue
    cmd=$(command_for "$phase")
    printf '\n\033[1m==> [%s] %s\033[0m\n' "$phase" "$cmd"
    start=$(date +%s)
    bash -c "$cmd" 2>&1 | tee "$logdir/$phase.log"
    status=${PIPESTATUS[0]}
    record "$phase" "$status" $(($(date +%s) - start)) || { finish; exit 1; }
    continue
  fi
  # Side by side: each writes its own log, shown whole once it ends (so the output never interleaves).
  declare -A pids=() starts=()
  for phase in "${members[@]}"; do
    skipped "$phase" && continue
    printf '\n\033[1m==> [%s] %s  (side by side with: %s)\033[0m\n' "$phase" "$(command_for "$phase")" "$group"
    starts[$phase]=$(date +%s)
    bash -c "$(command_for "$phase")" >"$logdir/$phase.log" 2>&1 &
    pids[$phase]=$!
  done
  group_failed=0
  for phase in "${members[@]}"; do
    [[ -n ${pids[$phase]:-} ]] || continue
    wait "${pids[$phase]}"
    status=$?
    took=$(($(date +%s) - ${starts[$phase]}))
    printf '\n\033[1m==> [%s] output (%s)\033[0m\n' "$phase" "$(fmt_s "$took")"
    cat "$logdir/$phase.log"
    record "$phase" "$status" "$took" || group_failed=1
  done
  unset pids starts
  if [[ $group_failed -ne 0 ]]; then finish; exit 1; fi
done

printf '\n\033[1;32m✔ All phases passed\033[0m\n'
finish
