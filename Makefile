# Sudoku Archive. `make run` starts the server, `make test` runs every test
# this machine can run and says, one line each, what it leaves out and why.
GO      ?= go
TEMPL   := $(GO) tool templ
DB      ?= sudoku.db
ADDR    ?= 127.0.0.1:8080
# Extra flags for go test, e.g. GOTESTFLAGS=-count=1 to bypass the cache.
GOTESTFLAGS ?=

.PHONY: run build test test-short prereqs bench fuzz generate fmt lint check-generated ci clean

# The server is built, then exec'd as the recipe's only process: under
# `go run`, Ctrl-C's graceful stop (exit 0) came back as status 1 and make
# ended with `make: *** [Makefile:13: run] Error 1` (issue 45).
run: ## start the server on $(DB) (created and migrated on first use)
	$(GO) build -o sudoku ./cmd/sudoku && exec ./sudoku serve --addr $(ADDR) --db $(DB)

build: ## a static binary ./sudoku
	CGO_ENABLED=0 $(GO) build -o sudoku ./cmd/sudoku

# .ci/prereqs prints RACE, SUDOKU_BROWSER, SUDOKU_PG_BIN and SUDOKU_AXE for this machine (and its
# reasons on stderr); under CI=true it fails if anything is missing.
# With the race detector, a second pass runs without it the tests that begin
# with racefree.Only (long single-goroutine walks, the browser tests, the
# measurements it would distort), which the first pass skips; the list comes
# from internal/racefree/list. The second pass goes over only the packages
# whose tests import internal/racefree (no test can call racefree.Only
# without): the other two dozen need no test binary built and linked
# without -race just to run no test.
test: ## every test, with -race and the browser tests where the machine allows
	@vars=$$(GO=$(GO) ./.ci/prereqs) || exit 1; eval "$$vars"; \
	export SUDOKU_BROWSER SUDOKU_PG_BIN SUDOKU_AXE; \
	echo "SUDOKU_BROWSER=$$SUDOKU_BROWSER SUDOKU_PG_BIN=$$SUDOKU_PG_BIN SUDOKU_AXE=$$SUDOKU_AXE $(GO) test $$RACE $(GOTESTFLAGS) -timeout 20m ./..."; \
	$(GO) test $$RACE $(GOTESTFLAGS) -timeout 20m ./... || exit 1; \
	if [ -n "$$RACE" ]; then \
		run=$$($(GO) run ./internal/racefree/list .) || exit 1; \
		pkgs=$$($(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | \
			awk '{ for (i = 2; i <= NF; i++) if ($$i == "github.com/sudoku-archive/sudoku/internal/racefree") { print $$1; break } }') || exit 1; \
		echo "make test, second pass, without -race: $(GO) test $(GOTESTFLAGS) -timeout 20m -run '$$run'" $$pkgs; \
		$(GO) test $(GOTESTFLAGS) -timeout 20m -run "$$run" $$pkgs; \
	fi

test-short: ## every test but the browser, crash, load and timing tests, without -race (minutes: README says what it took)
	@echo "make test-short: skipping the browser, crash, load and timing tests (make test runs them)"
	$(GO) test -short $(GOTESTFLAGS) ./...

prereqs: ## say what make test would leave out on this machine
	@GO=$(GO) ./.ci/prereqs >/dev/null

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

# internal/sizecheck: no function over 80 lines or cyclomatic 25, no file over
# 700 lines, unless a "Size:" line of its doc comment says why (CONTRIBUTING.md).
lint: ## go vet, staticcheck (pinned in go.mod as a tool), gofmt, templ fmt and the size rule must be clean
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) run ./internal/sizecheck .
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(TEMPL) fmt -fail .

check-generated: generate ## committed *_templ.go must match the .templ sources
	@git diff --exit-code -- '*_templ.go' || { echo "generated templ code is stale: run 'make generate' and commit"; exit 1; }
	@test -z "$$(git ls-files --others --exclude-standard '*_templ.go')" || { echo "generated templ code not committed:"; git ls-files --others --exclude-standard '*_templ.go'; exit 1; }

ci: lint check-generated test

clean:
	rm -f sudoku
