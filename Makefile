# Symbolon: `make dev` runs the stack, `make test` runs every test. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

.PHONY: help setup dev test e2e fuzz lint bench wasm clean

help:
	@echo "make dev    - start server, mail and SMS inboxes, local Google and GitHub, local chain (anvil) and web apps on fixed ports; prints the URLs"
	@echo "make test   - every test: Rust (fmt, clippy, tests), the OpenAPI fuzzer, TypeScript (biome, typecheck, vitest), e2e"
	@echo "make e2e    - the browser end-to-end suite only"
	@echo "make fuzz   - schemathesis over the server's OpenAPI document, against the debug binary"
	@echo "make lint   - formatters and linters only"
	@echo "make bench  - server load and client bundle benchmarks (release builds; not part of make test)"
	@echo "make setup  - install what the commands need and build what is out of date (idempotent)"
	@echo "make wasm   - rebuild the wallet-core wasm and the wallet frame now (set-up rebuilds them only when stale)"

setup:
	@scripts/setup.sh

# Ctrl-C or SIGTERM to make stops the whole stack: make forwards SIGTERM, and dev.mjs notices when make
# itself is handling SIGINT/SIGHUP (which make does not forward). tools/stack/src/dev.test.mjs checks it.
dev: setup
	node tools/stack/bin/dev.mjs

# These run scripts/setup.sh as their first, timed phase.
# `make test ONLY=passkey` runs one capability's Rust, TypeScript and e2e tests; SQLITE_ONLY=1 skips Postgres.
test:
	@scripts/test.sh $(if $(ONLY),only $(ONLY),all)

e2e:
	@scripts/test.sh e2e

fuzz:
	@scripts/test.sh fuzz

lint:
	@scripts/test.sh lint

bench: setup
	node bench/run.mjs

wasm:
	crates/wallet-core/scripts/build-wasm.sh
	npm run build -w @symbolon/wallet-frame

clean:
	rm -rf .dev e2e/artifacts bench/results
