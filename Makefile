# Sudoku Archive. `make run` starts the server, `make test` runs every test.
GO      ?= go
TEMPL   := $(GO) tool templ
DB      ?= sudoku.db
ADDR    ?= 127.0.0.1:8080

.PHONY: run build test test-short bench fuzz generate fmt lint check-generated ci clean

run: ## start the server on $(DB) (created and migrated on first use)
	$(GO) run ./cmd/sudoku serve --addr $(ADDR) --db $(DB)

build: ## a static binary ./sudoku
	CGO_ENABLED=0 $(GO) build -o sudoku ./cmd/sudoku

test: ## every test, with the race detector
	$(GO) test -race -timeout 20m ./...

test-short: ## the quick subset
	$(GO) test -short ./...

bench: ## engine, store and server benchmarks (see README, Performance)
	$(GO) test -run '^$$' -bench . -benchmem ./...

FUZZTIME ?= 30s
fuzz: ## every fuzz target, FUZZTIME each (go test -fuzz takes one target at a time)
	@set -e; for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$f ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

generate: ## regenerate templ code with the pinned templ version
	$(TEMPL) generate -include-version=false

fmt:
	gofmt -w .
	$(TEMPL) fmt .

lint: ## go vet, gofmt and templ fmt must be clean
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(TEMPL) fmt -fail .

check-generated: generate ## committed *_templ.go must match the .templ sources
	@git diff --exit-code -- '*_templ.go' || { echo "generated templ code is stale: run 'make generate' and commit"; exit 1; }
	@test -z "$$(git ls-files --others --exclude-standard '*_templ.go')" || { echo "generated templ code not committed:"; git ls-files --others --exclude-standard '*_templ.go'; exit 1; }

ci: lint check-generated test

clean:
	rm -f sudoku
