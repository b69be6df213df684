# Cairn. `make run` opens the app on the Sample project; `make test` is the
# one gate (CI runs it through .ci/run). Targets are idempotent: a second
# `make run` installs nothing and rebuilds only what changed.

SHELL := /bin/bash
GO    ?= go
SUDO  := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
NPM_INSTALL := npm install --no-audit --no-fund --loglevel=error

# System packages. Build: the Wails desktop binary (cgo, GTK, WebKitGTK 4.1).
APT_BUILD := pkg-config gcc libgtk-3-dev libwebkit2gtk-4.1-dev
# Test: the real-window smoke test (Xvfb), the browser end-to-end tests
# (Chromium), CJK fonts for readable screenshots, and the readers' tools
# (poppler, tesseract with Chinese and Japanese; Liberation fonts, which
# poppler draws the test scans' Helvetica with).
APT_TEST := xvfb xauth xdotool imagemagick x11-utils chromium fonts-wqy-microhei \
	poppler-utils poppler-data tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-jpn fonts-liberation

DESKTOP_BIN := build/bin/cairn-desktop
CLI_BIN     := build/bin/cairn
EVAL_BIN    := build/bin/cairn-eval
FRONTEND_SRC := $(shell find frontend/src frontend/wailsjs frontend/public -type f 2>/dev/null) \
	frontend/index.html frontend/vite.config.ts frontend/tsconfig.json frontend/package.json

.PHONY: deps deps-build deps-test build run cli frontend test test-frontend test-go commands-check test-race bindings-check e2e smoke bench fuzz reliability fmt clean

## deps: every system and npm package the build and the tests need (installs only what is missing)
deps: deps-build deps-test

deps-build:
	@$(MAKE) --no-print-directory apt PKGS="$(APT_BUILD)"
	@pkg-config --exists webkit2gtk-4.1 || { echo "webkit2gtk-4.1 not found by pkg-config" >&2; exit 1; }
	@$(MAKE) --no-print-directory frontend/node_modules/.installed

deps-test:
	@$(MAKE) --no-print-directory apt PKGS="$(APT_TEST)"
	@command -v chromium >/dev/null || { echo "chromium not found" >&2; exit 1; }
	@$(MAKE) --no-print-directory frontend/e2e/node_modules/.installed

# apt PKGS="...": apt-get install the packages that dpkg does not list as installed.
.PHONY: apt
apt:
	@missing=""; for p in $(PKGS); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "apt: installing$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

frontend/node_modules/.installed: frontend/package.json
	cd frontend && $(NPM_INSTALL)
	@touch $@

frontend/e2e/node_modules/.installed: frontend/e2e/package.json
	cd frontend/e2e && $(NPM_INSTALL)
	@touch $@

## frontend: build frontend/dist (embedded by main.go; its committed .keep lets go build work before this)
frontend: frontend/dist/index.html

frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SRC)
	cd frontend && npm run build --silent

## cli: headless binary (no cgo, no GTK): import, search, serve, ...; and
## cairn-eval, the same with the evaluation commands (tools/cairneval), which
## the shipped binary leaves out
cli: frontend
	CGO_ENABLED=0 $(GO) build -o $(CLI_BIN) .
	CGO_ENABLED=0 $(GO) build -o $(EVAL_BIN) ./tools/cairneval

## build: the desktop app (Wails; -m: go.mod is kept tidy by hand, see docs/development.md)
build: deps-build
	$(GO) tool wails build -m

## run: build and open the desktop app on the Sample project
run: build
	./$(DESKTOP_BIN)

## test: the gate: frontend unit tests, go vet + go test, browser e2e against serve mode, real-window smoke test
test: deps test-frontend test-go test-race bindings-check e2e smoke

test-frontend: frontend
	cd frontend && npx vitest run

test-go: frontend commands-check
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod/go.sum differ from what go mod tidy leaves: run go mod tidy" >&2; $(GO) mod tidy -diff; exit 1; }
	$(GO) vet ./...
	$(GO) test ./...

## commands-check: fails when a command (package main) sits inside the library
## trees backend/ or app/: commands live at the root (the app and its CLI) or in tools/
commands-check:
	@bad=$$(grep -rlE --include='*.go' '^package main\b' backend app | xargs -r -n1 dirname | sort -u); \
	if [ -n "$$bad" ]; then \
		echo "package main inside a library tree (move the command to tools/, see tools/README.md):" $$bad >&2; exit 1; \
	fi

# The packages where goroutines share state (the store's caches, jobs'
# pause/cancel, llm.Auto, the app's backends, retrieval's lists gathered in
# parallel and reason, which answers through them), under the race detector
# with -short; of backend/project, the tests that run writers, readers and
# locks at once (its long fault suites and app/cli's process tests run once,
# without -race, in test-go: under -race they outgrow CI's time). retrieve
# and reason take about 10 s and 4 min under -race -short on 2 cores.
RACE_PKGS    := ./backend/store ./backend/jobs ./backend/llm/... ./app ./backend/retrieve ./backend/reason
RACE_PROJECT := ReadsWhileIndexing|WriterLock|SwitchEmbedder

## test-race: the concurrent packages' tests with -race
test-race: frontend
	$(GO) test -race -short $(RACE_PKGS)
	$(GO) test -race -short -run '$(RACE_PROJECT)' ./backend/project

## bindings-check: fails when frontend/wailsjs (the TypeScript bindings and
## models Wails generates from the Go definitions) is not what they generate now
bindings-check: frontend
	$(GO) tool wails generate module
	@chmod a-x frontend/wailsjs/runtime/* # the generator writes them executable
	@if [ -n "$$(git -c core.fileMode=false status --porcelain -- frontend/wailsjs)" ]; then \
		git status --short -- frontend/wailsjs; git --no-pager diff --stat -- frontend/wailsjs; \
		echo "frontend/wailsjs is out of date with the Go definitions: run 'go tool wails generate module' and commit the result" >&2; exit 1; \
	fi

e2e: cli frontend/e2e/node_modules/.installed
	frontend/e2e/run.sh $(CLI_BIN)

smoke: build
	xvfb-run -a -s "-screen 0 1280x860x24" frontend/e2e/window-smoke.sh $(DESKTOP_BIN)

## bench: benchmarks (not timed tests); section 6 also times the desktop build's cold start
## (Xvfb) and the graph explorer (headless Chromium), skipped with a note when those are missing
bench: frontend build
	@$(MAKE) --no-print-directory frontend/e2e/node_modules/.installed || echo "bench: playwright-core not installed: the explorer frame time is skipped" >&2
	$(GO) run ./tools/cairnbench

## reliability: the full fault suite (30 SIGKILLs during import + index, every resume checked)
reliability: frontend
	CAIRN_CRASH_KILLS=30 $(GO) test -count=1 -run 'Crash|Fingerprint' -v ./backend/project

## fuzz: run every Go fuzz target for FUZZTIME each (seed corpora also run in `make test`)
FUZZTIME ?= 20s
fuzz: frontend
	@set -e; for pkg in $$($(GO) list ./backend/... ./app/...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$f ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf build/bin frontend/e2e/out
	find frontend/dist -mindepth 1 -maxdepth 1 ! -name .keep -exec rm -rf {} + # .keep is committed (docs/development.md)

## ---- dist: installers and packages (docs/install.md) -------------------
# `make dist` writes build/dist/: the Windows x64 cairn.exe (the Wails
# desktop app, cross-compiled without cgo; every command runs headless) and
# its NSIS installer (per-user, Start menu, uninstaller, WebView2
# bootstrapper), the Linux x64 .deb and .tar.gz of the GTK desktop binary,
# and SHA256SUMS. The version is wails.json's productVersion, stamped in with
# the commit (`cairn --version`, Settings → About).
# `make test-dist` (part of `make test`) tests them here: cairn.exe under
# Wine (CLI flows, the Windows caps and locks, `serve` driven by the browser
# e2e), the installer under Wine, the .deb installed with apt and its window
# opened under Xvfb. Wine's prefix is kept in build/wine.
APT_DIST := nsis wine64
APT_TEST += $(APT_DIST)
VERSION  := $(shell sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' wails.json)
COMMIT   := $(shell git rev-parse --short=9 HEAD 2>/dev/null)
DIST     := build/dist
DIST_LDFLAGS := -X cairn/app/version.Version=$(VERSION) -X cairn/app/version.Commit=$(COMMIT)
DIST_FILES := cairn.exe cairn-$(VERSION)-windows-amd64-setup.exe \
	cairn_$(VERSION)_amd64.deb cairn-$(VERSION)-linux-amd64.tar.gz

.PHONY: dist dist-windows dist-linux dist-macos test-dist

## dist: Windows exe + installer, Linux .deb + .tar.gz, SHA256SUMS in build/dist
dist: dist-windows dist-linux
	cd $(DIST) && sha256sum $(DIST_FILES) >SHA256SUMS
	@cd $(DIST) && ls -l $(DIST_FILES) SHA256SUMS

dist-windows: frontend
	@command -v makensis >/dev/null || $(MAKE) --no-print-directory apt PKGS=nsis
	CGO_ENABLED=0 $(GO) tool wails build -m -s -platform windows/amd64 \
		-nsis -o cairn.exe -ldflags "$(DIST_LDFLAGS)"
	@mkdir -p $(DIST)
	cp build/bin/cairn.exe $(DIST)/cairn.exe
	cp build/bin/cairn-amd64-installer.exe $(DIST)/cairn-$(VERSION)-windows-amd64-setup.exe
	@# wails rewrites its generated wails_tools.nsh with this project's values; keep the tree clean
	@git checkout -q -- build/windows/installer/wails_tools.nsh 2>/dev/null || true

dist-linux: deps-build frontend
	$(GO) tool wails build -m -s -o cairn-dist -ldflags "$(DIST_LDFLAGS)"
	dist/linux/package.sh build/bin/cairn-dist $(VERSION) $(DIST)

## dist-macos: on a Mac only (never run here, see docs/install.md): universal .app and .dmg
dist-macos: frontend
	$(GO) tool wails build -m -s -platform darwin/universal -o Cairn -ldflags "$(DIST_LDFLAGS)"
	@mkdir -p $(DIST)
	hdiutil create -volname Cairn -srcfolder build/bin/Cairn.app -ov -format UDZO $(DIST)/cairn-$(VERSION)-macos-universal.dmg

## test-dist: the artefacts under Wine and apt (timings in build/dist-test/times.txt)
test-dist: dist cli frontend/e2e/node_modules/.installed
	dist/test/run.sh

test: test-dist
