# measured: the blog and its generator. `make site` builds the blog, `make test` runs the tests.
CARGO ?= cargo
BIN := target/release/measured

.PHONY: site test serve check lint bench freeze clean release

## Build the whole blog, experiments included, into public/.
site: release
	$(BIN) build

## Unit and integration tests of the generator and the experiments' harness (installs OpenSSH
## once, for the `run --on` tests' server on loopback), then the browser tests of the preview
## server and the search (installs chromium and npm packages once), all with the debug binary
## `cargo test` builds: no release build is needed to test.
test:
	scripts/setup-ssh.sh
	$(CARGO) test --workspace
	cd experiments && $(CARGO) test -p harness -p orders
	scripts/setup-browser.sh
	MEASURED_BIN=target/debug/measured node --test tests/e2e/

## Preview with live reload at http://127.0.0.1:1111/.
serve: release
	$(BIN) serve

## Everything a build does but write, plus missing translations; any claim that does not
## hold is an error (--strict).
check: release
	$(BIN) check --strict

## Copy the current results into frozen/ (commit it).
freeze: release
	$(BIN) freeze

## cargo fmt --check and clippy with warnings as errors.
lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## The release binary; in a log, a line every 20 s while rustc works on one crate.
release:
	scripts/heartbeat.sh $(CARGO) build --release --locked

## Benchmark against Zola and Hugo on a generated corpus (2,000 and 10,000 articles).
bench:
	scripts/setup-zola.sh
	$(CARGO) bench --bench site

clean:
	$(CARGO) clean
	rm -rf public .measured experiments/target
