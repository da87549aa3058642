# bakefs — make targets. `make assets` builds the bundled example's assets,
# `make test` runs every test (it installs what it needs on a fresh machine).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DELETE_ON_ERROR:
.DEFAULT_GOAL := assets

export GOTOOLCHAIN := local
export GOFLAGS := -buildvcs=false

GO      ?= go
BIN     := bin
BAKEFS  := $(BIN)/bakefs
EXAMPLE := examples/webapp/bakefs.toml

# Every Go source of the CLI and the packages it links.
CLI_SOURCES := go.mod go.sum fs/go.mod $(shell find cmd transform pipeline project embedgen fs internal -name '*.go' -not -name '*_test.go' 2>/dev/null)

.PHONY: assets build test test-go test-bazel test-browser vet bench clean dev release

## build: compile the bakefs CLI into bin/bakefs
build: $(BAKEFS)

$(BAKEFS): $(CLI_SOURCES)
	@mkdir -p $(BIN)
	$(GO) build -trimpath -o $@ ./cmd/bakefs

## assets: run the bundled example's project file (output tree + manifest + Go package)
assets: $(BAKEFS)
	$(BAKEFS) build -f $(EXAMPLE)

## vet: gofmt and go vet
vet: assets
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd fs && $(GO) vet ./...

## test: every test: Go (unit, golden, e2e), browser and Bazel
test: vet test-go test-browser test-bazel

# The packages that run work concurrently also run under the race detector.
# The runtime, fs/, is a module of its own (standard library only): its
# tests run in it, so that they build with its go.mod and nothing else.
RACE_PACKAGES := ./transform/... ./pipeline/... ./dev/... ./embedgen/... ./cmd/... ./internal/...

# The browser test runs in test-browser, after Chromium and nginx (which
# serves a tree as a static site) are installed; the remote cache tests
# start nginx, installed first, and the encoders are checked against
# Debian's brotli and zstd, installed when missing. test-go ends with build
# --check: each example's tree and package must be what a clean build
# without the cache writes.
test-go: assets
	bash tools/nginx-setup.sh >/dev/null
	bash tools/codecs-setup.sh
	$(GO) test -count=1 $$($(GO) list ./... | grep -v /tests/browser)
	$(GO) test -count=1 -race $(RACE_PACKAGES)
	cd fs && $(GO) test -count=1 ./... && $(GO) test -count=1 -race ./...
	$(BAKEFS) build --check -f $(EXAMPLE)
	$(BAKEFS) build -f examples/minimal/bakefs.toml
	$(BAKEFS) build --check -f examples/minimal/bakefs.toml

test-browser: assets
	bash tools/nginx-setup.sh >/dev/null
	bash tools/chromium-setup.sh
	bash tools/docsite-setup.sh
	$(GO) test -count=1 ./tests/browser/...

test-bazel:
	bash tools/bazel-test.sh

## release: dist/bakefs-<version>.tar.gz (git archive of HEAD) and its http_archive stanza
## (VERSION=x.y.z to name it; default: the tag at HEAD, or a pseudo-version)
release:
	bash tools/release.sh $(VERSION)

## bench: side-by-side benchmarks against peers (see bench/README.md)
bench: $(BAKEFS)
	bash bench/run.sh

## dev: the example web app from its sources, rebuilding and reloading on change
dev:
	$(GO) run -tags bakefs_dev ./examples/webapp -project $(EXAMPLE)

clean:
	rm -rf $(BIN) dist .bakefs-cache examples/webapp/.bakefs-cache examples/webapp/build examples/webapp/internal/assets
