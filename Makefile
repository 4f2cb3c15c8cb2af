# Kid Coder: `make run` opens the classroom, `make test` runs every test.
# Both install what is missing first (scripts/setup.sh).

VERSION ?= 0.1.0
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
DATE    := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -s -w -X kidcoder/backend/buildinfo.Version=$(VERSION) -X kidcoder/backend/buildinfo.Commit=$(COMMIT) -X kidcoder/backend/buildinfo.Date=$(DATE)
GUITAGS := desktop,production,webkit2_41
PYTHON  ?= /usr/bin/python3
BIN     := build/bin

.PHONY: all setup setup-test frontend build cli gui run test test-go test-python test-frontend test-e2e vet bench clean

all: build

setup:
	scripts/setup.sh run

setup-test:
	scripts/setup.sh test

frontend/dist/index.html: $(shell find frontend/src -type f 2>/dev/null) frontend/index.html frontend/package.json frontend/vite.config.ts
	cd frontend && npm run build

frontend: frontend/dist/index.html

cli:
	CGO_ENABLED=0 go build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN)/kidcoder ./cmd/kidcoder

gui: frontend
	go build -trimpath -tags $(GUITAGS) -ldflags "$(LDFLAGS)" -o $(BIN)/kidcoder-gui .

build: cli gui

run: setup build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(BIN)/kidcoder; \
	else \
		echo "No display here, so the classroom window cannot open."; \
		echo "Running the star demo headless through the sandbox instead:"; \
		mkdir -p build/demo; \
		$(BIN)/kidcoder run --out build/demo "backend/lessons/starter/1 star.py"; \
		echo "The drawing is in build/demo/turtle.svg"; \
	fi

test: setup-test build vet test-go test-python test-frontend test-e2e test-package
	@echo "all tests passed"

vet:
	go vet ./...
	GOOS=darwin go vet ./sandbox/ ./backend/... ./cmd/... ./python/
	GOOS=windows go vet ./sandbox/ ./backend/... ./cmd/... ./python/

test-go: build
	KIDCODER_REQUIRE_SANDBOX=1 go test -race ./...

test-python:
	cd python && $(PYTHON) -m unittest discover -s tests

test-frontend:
	cd frontend && npm test

test-e2e: build
	scripts/e2e.sh

bench: setup-test build
	scripts/bench.sh

clean:
	rm -rf build/bin frontend/dist

# The Debian package, built with dpkg-deb from what `make build` made.
.PHONY: package test-package
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB      := dist/kidcoder_$(VERSION)_$(DEB_ARCH).deb

package: build
	VERSION=$(VERSION) packaging/build-deb.sh

# Installs the package with apt, runs it, removes it again (needs root or sudo).
test-package: package
	scripts/test-package.sh $(DEB)
