# vsql — the two set-up commands of the README are `make run` and `make test`.
GO      ?= go
export CGO_ENABLED = 1

.PHONY: run test deps build vet clean bench

# Start vsqld on its embedded default: 127.0.0.1:5433, repository ./vsql-data.
run: build
	./bin/vsqld serve

build:
	$(GO) build -o bin/vsqld ./cmd/vsqld

# Every test: unit, wire protocol, the psql regress suite, the client suite
# and S3 against versitygw. deps installs the clients and versitygw first.
test: deps
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 20m ./...

deps:
	./scripts/test-deps.sh

clean:
	rm -rf bin regress/results

# The benchmarks: builds vsqld, runs every measurement (tens of minutes, needs
# PostgreSQL 15 server binaries for the side-by-side figures) and rewrites
# docs/BENCHMARKS.md. Not part of `make test` (TestQuick smoke-tests it).
bench:
	$(GO) run ./bench -out docs/BENCHMARKS.md
