# Vigil: incident triage and response on Temporal.
export GOTOOLCHAIN := local
GO ?= go
PKGS := ./...

.DEFAULT_GOAL := help

.PHONY: help
help: ## list targets
	@grep -hE '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-10s %s\n", $$1, $$2}'

.PHONY: run
run: ## start a Temporal dev server and Vigil on SQLite under ./data
	./scripts/dev.sh

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
LDFLAGS := -X github.com/vigil-soc/vigil/app.Version=$(VERSION) -X github.com/vigil-soc/vigil/app.Commit=$(COMMIT)

.PHONY: build
build: ## build ./bin/vigil with version and commit stamped
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/vigil ./cmd/vigil

.PHONY: image
image: ## build the container image vigil:$(VERSION)
	docker build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) -t vigil:$(VERSION) .

bin/temporal:
	./scripts/temporal-cli.sh

bin/alertmanager:
	./scripts/alertmanager.sh

.PHONY: test
test: bin/temporal bin/alertmanager ## run all tests (real Temporal dev server and Alertmanager; Postgres when TEST_DATABASE_URL is set), then the deploy/ module's
	VIGIL_TEMPORAL_BIN=$(CURDIR)/bin/temporal VIGIL_ALERTMANAGER_BIN=$(CURDIR)/bin/alertmanager VIGIL_REQUIRE_ALERTMANAGER=1 \
		$(GO) test -count=1 -timeout 20m $(PKGS)
	cd deploy && $(GO) test -count=1 ./...

.PHONY: screenshots
screenshots: bin/temporal ## regenerate docs/screenshots/dashboard-*.png with the browser tests
	./scripts/dashboard-screenshots.sh

.PHONY: lint
lint: ## go vet, gofmt, staticcheck and the compose file (docker compose config)
	$(GO) vet $(PKGS)
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)
	cd deploy && $(GO) vet ./...
	@if docker compose version >/dev/null 2>&1; then \
		docker compose --env-file deploy/compose/vigil.env.example -f docker-compose.temporal.yml config -q; \
	else echo "docker compose not found: docker-compose.temporal.yml is checked by the deploy tests"; fi

# Each bench program appends its verdicts to BENCH_VERDICTS; the summary
# prints them as one table at the end.
BENCH_VERDICTS ?= $(CURDIR)/bin/bench-verdicts.jsonl

.PHONY: bench
bench: bin/temporal ## benchmarks beside bare baselines (see bench/README.md): load, workflow paths, one summary table
	rm -f $(BENCH_VERDICTS)
	VIGIL_TEMPORAL_BIN=$(CURDIR)/bin/temporal BENCH_VERDICTS=$(BENCH_VERDICTS) $(GO) run ./bench/load $(BENCH_ARGS)
	VIGIL_TEMPORAL_BIN=$(CURDIR)/bin/temporal BENCH_VERDICTS=$(BENCH_VERDICTS) $(GO) run ./bench/flows $(FLOWS_ARGS)
	$(GO) run ./bench/summary $(BENCH_VERDICTS)

# Fuzzing (never in CI): every target for FUZZTIME, the parsers of
# unauthenticated input (webhook normalisers, signature headers) for
# FUZZ_LONG_TIME. FUZZ narrows the run; RECORD=1 writes bench/fuzz/README.md.
FUZZTIME ?= 1m
FUZZ_LONG ?= intake.* *Signature*
FUZZ_LONG_TIME ?= 10m

.PHONY: fuzz
fuzz: ## every fuzz target in turn (FUZZTIME=1m; FUZZ_LONG for FUZZ_LONG_TIME; RECORD=1)
	FUZZTIME='$(FUZZTIME)' FUZZ_LONG='$(FUZZ_LONG)' FUZZ_LONG_TIME='$(FUZZ_LONG_TIME)' \
	FUZZ='$(FUZZ)' FUZZ_PARALLEL='$(FUZZ_PARALLEL)' RECORD='$(RECORD)' ./scripts/fuzz.sh
