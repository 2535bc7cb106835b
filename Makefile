# pmdahostcache: the commands a user types.
#   make install   set up PCP if missing, build, install the PMDA into pmcd
#   make test      install what the tests need, then unit (race detector on) and integration tests
#   make bench     benchmarks
GO      ?= go
BIN     := bin/pmdahostcache
PKGS    := ./...

.PHONY: all build install uninstall test unit generate linux-table proc-table bench soak fuzz vet clean deb

all: build

build:
	$(GO) build -o $(BIN) ./cmd/pmdahostcache

install: build
	scripts/install-pcp.sh
	scripts/install-pmda.sh $(BIN)

uninstall:
	scripts/remove-pmda.sh

# A Debian package in bin/ (dpkg-deb); lintian checks it in make test.
deb:
	scripts/build-deb.sh

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) vet $(PKGS)

# scripts/test-deps.sh first installs the packages the tests drive (as
# root; otherwise it names what is missing and stops). Integration tests
# drive the real pmcd, so they need PCP and root; outside CI they skip with
# a message when either is missing. vet and the other packages run beside
# them: the integration suite opens with the Debian package (a build and
# lintian), which compares no figures, and the unit tests end within it.
# Their agent has another name than pmdahostcache, which PCP's Install and
# Remove stop. The status is the worse of the two. INTEGRATION_FLAGS=-v
# shows each integration test's time.
INTEGRATION_FLAGS ?=
test:
	scripts/test-deps.sh
	@$(GO) test -race -count=1 -timeout 30m $(INTEGRATION_FLAGS) ./integration & integration=$$!; \
	$(MAKE) --no-print-directory vet && \
	$(GO) test -race -count=1 $$($(GO) list $(PKGS) | grep -v /integration$$); unit=$$?; \
	wait $$integration; integration=$$?; \
	echo "make test: vet and unit tests exit $$unit, integration tests exit $$integration"; \
	[ $$unit -eq 0 ] && [ $$integration -eq 0 ]

unit:
	$(GO) test -race -count=1 -short $(PKGS)

# pmns, help/rates.help and docs/metrics.md, from the metric schema;
# hostcache.conf and the examples in README.md and the manual page, from
# the configuration keys (config/keys.go).
generate:
	$(GO) run ./tools/genmetrics

# pmdalinux's names and descriptors (standin/linuxtable), read from
# the running pmcd; go test ./standin then shows any drift.
linux-table:
	$(GO) run ./tools/genlinux -o standin/linuxtable

proc-table:
	$(GO) run ./tools/genlinux -agent proc -o standin/proctable

# Measures against pmdalinux in one run and writes docs/performance.md (root).
bench:
	scripts/bench.sh

# 1,000,000 fetches through pmcd from 8 clients against the installed agent.
soak: install
	$(GO) build -o bin/bench ./tools/bench
	gcc -O2 -Wall -o bin/fetchloop tools/fetchloop/fetchloop.c -lpcp
	bin/bench soak -clients 8 -soak 125000

# Run each fuzz target for FUZZTIME (make test runs only their seeds).
FUZZTIME ?= 2m
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

clean:
	rm -rf bin
