# vsql — the two set-up commands of the README are `make run` and `make test`.
GO      ?= go
export CGO_ENABLED = 1

.PHONY: run test build vet clean bench

# Start vsqld on its embedded default: 127.0.0.1:5433, repository ./vsql-data.
run: build
	./bin/vsqld serve

build:
	$(GO) build -o bin/vsqld ./cmd/vsqld

# Every test: unit, wire-protocol (pgx, lib/pq) and the psql regress suite.
test:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 20m ./...

clean:
	rm -rf bin regress/results

# The benchmarks: builds vsqld, runs every measurement (tens of minutes, needs
# PostgreSQL 15 server binaries for the side-by-side figures) and rewrites
# docs/BENCHMARKS.md. Not part of `make test` (TestQuick smoke-tests it).
bench:
	$(GO) run ./bench -out docs/BENCHMARKS.md
