# Glossary — `make demo` builds and serves the example; `make test` runs every test; `make install` installs the
# binary and its manual pages (PREFIX=/usr/local, DESTDIR honoured); `make deb` makes the Debian package. All install
# what they need on a fresh Debian 12 machine (apt, with sudo when not root).

SWIFT      ?= swift
PORT       ?= 8080
GLOSSARY    = .build/release/glossary
# libjs-highlight.js and libjs-lunr are built into the binary (Sources/GlossaryKit/EmbeddedFiles.txt);
# libgumbo-dev: the HTML5 parser of `glossary annotate`; libjemalloc-dev: the binary's allocator (README, "Layout"); cmark-gfm is what the table tests compare with; wordnet's `wn` is what the WordNet tests compare with; neovim is the editor the language server's test drives.
APT_BUILD   = pkg-config libcmark-dev libcurl4-openssl-dev libmicrohttpd-dev libyaml-dev wordnet-dev wordnet-base \
	libjemalloc-dev libjs-highlight.js libjs-lunr libgumbo-dev libstemmer-dev libxml2-dev
# lintian checks the package `make deb` makes (DebianPackageTests); xmllint validates the TBX export (GlossaryImportTests).
APT_TEST    = cmark cmark-gfm wordnet zsh fish lintian neovim libxml2-utils
# dpkg-shlibdeps computes the package's Depends.
APT_DEB     = dpkg-dev
APT_BROWSER = chromium chromium-driver default-jre-headless python3-venv
# What `make bench` compares with and measures by.
APT_BENCH   = hugo hyperfine cmark time
VENV        = .venv
PYTEST      = $(VENV)/bin/python -m pytest -p no:cacheprovider -o tmp_path_retention_policy=failed -q
PREFIX     ?= /usr/local
DESTDIR    ?=
# `make install INSTALL_STRIP=` keeps the symbols (76 MB instead of 60 MB).
INSTALL_STRIP ?= -s
# The installed binary: the Swift runtime and Foundation linked in, so it runs where no Swift toolchain is. It
# has its own scratch folder, so it neither rebuilds nor is rebuilt by the plain release builds (a flip between
# the two recompiles everything).
STATIC_BUILD = $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build/static
MAN_DIR     = $(DESTDIR)$(PREFIX)/share/man/man1
# The one place the version is written; `glossary --version` prints it and the package is named for it.
VERSION    := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/GlossaryKit/Support/GlossaryVersion.swift)
# Where `make deb` writes glossary_$(VERSION)_amd64.deb.
DEB_DIR    ?= .
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test build site deps deps-test clean browser-test lsp-test deps-browser install uninstall static \
	fuzz fuzz-smoke fuzz-build fuzz-replay fuzz-minimize lint format bench deps-bench soak deb deps-deb

demo: deps build site
	@echo "Example glossary built into site/ ($$(find site -name '*.html' | wc -l) HTML files)."
	@if $(GLOSSARY) serve --help >/dev/null 2>&1; then \
	  $(GLOSSARY) serve --offline --port $(PORT); \
	else echo "Open site/index.html in a browser."; fi

build: deps
	$(SWIFT) build -c release --product glossary

site: build
	$(GLOSSARY) build --offline

# The static build comes first: the browser and language-server tests run it, InstalledBinaryTests' own `make
# install` only copies it, and no release build competes for the cores with the timing-sensitive tests. The browser
# tests keep about one core busy (Chromium waits on its pages), so the Swift tests are compiled beside them at a lower
# priority; its log follows theirs.
test: deps deps-test deps-browser $(VENV)/.requirements static
	@bin="$$($(STATIC_BUILD) --show-bin-path)/glossary"; \
	nice -n 10 $(SWIFT) build --build-tests > .build/build-tests.log 2>&1 & builder=$$!; \
	GLOSSARY_BIN="$$bin" $(PYTEST) Tests/browser && GLOSSARY_BIN="$$bin" $(PYTEST) Tests/lsp; tested=$$?; \
	wait $$builder; built=$$?; cat .build/build-tests.log; \
	[ $$tested = 0 ] && [ $$built = 0 ]
	$(SWIFT) test

# The preview server against random edit sequences (Tests/GlossaryServerTests/ServeRandomEditTests.swift): after every
# step it must serve what a build from nothing serves. `make test` runs two fixed seeds of 30 steps; this runs SOAK_SEEDS
# (four fresh ones unless given) of SOAK_STEPS steps each and stops at the first failing seed: `make soak SOAK_SEEDS=n
# SOAK_STEPS=m` replays it.
SOAK_STEPS ?= 300
SOAK_SEEDS ?=

soak: deps
	$(SWIFT) build --build-tests
	@seeds="$(SOAK_SEEDS)"; [ -n "$$seeds" ] || seeds=$$(od -An -N16 -tu4 /dev/urandom); \
	for seed in $$seeds; do \
	  echo "make soak: seed $$seed, $(SOAK_STEPS) steps"; \
	  GLOSSARY_SERVE_SEED=$$seed GLOSSARY_SERVE_STEPS=$(SOAK_STEPS) $(SWIFT) test --skip-build --filter 'ServeRandomEditTests/randomEdit' \
	    || { echo "make soak: seed $$seed failed; replay with make soak SOAK_SEEDS=$$seed SOAK_STEPS=$(SOAK_STEPS)"; exit 1; }; \
	done

# swift-format ships with the toolchain; the settings are in .swift-format.
LINT_PATHS = Package.swift Sources Tests Fuzz/GlossaryFuzz/Package.swift Fuzz/GlossaryFuzz/Sources

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(LINT_PATHS)

format:
	$(SWIFT) format format --in-place --recursive --parallel $(LINT_PATHS)

static: deps
	$(STATIC_BUILD) --product glossary

# The manual pages are written by the binary itself (`glossary man`), from the declarations behind --help.
install: static
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 $(INSTALL_STRIP) "$$($(STATIC_BUILD) --show-bin-path)/glossary" "$(DESTDIR)$(PREFIX)/bin/glossary"
	"$(DESTDIR)$(PREFIX)/bin/glossary" man "$(MAN_DIR)"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/glossary" "$(MAN_DIR)/glossary.1" "$(MAN_DIR)"/glossary-*.1

# glossary_$(VERSION)_amd64.deb from the static build (packaging/deb/build-deb.sh): the binary, completions, manual
# pages, README and copyright; Depends from dpkg-shlibdeps. Needs no root: the files are root's in the package.
deb: deps deps-deb static
	packaging/deb/build-deb.sh "$$($(STATIC_BUILD) --show-bin-path)/glossary" "$(VERSION)" "$(DEB_DIR)"

deps-deb:
	$(call install-missing,$(APT_DEB))

# The emitted site in headless Chromium (Tests/browser/README.md): installs Chromium, its driver and Java (for
# the Nu HTML Checker) when missing, keeps a virtual environment with the pinned Python packages; the tests run
# the binary `make install` installs, which builds the example, a small audio site and two 20,000-entry sites
# into temporary folders and serves them. `GLOSSARY_BIN=… pytest Tests/browser` runs them against another build.
browser-test: deps deps-browser $(VENV)/.requirements static
	GLOSSARY_BIN="$$($(STATIC_BUILD) --show-bin-path)/glossary" $(PYTEST) Tests/browser

# The language server (`glossary lsp`) over stdio, the installed binary again: pytest-lsp as the client (in the
# same virtual environment), and headless Neovim's built-in client.
lsp-test: deps deps-test $(VENV)/.requirements static
	GLOSSARY_BIN="$$($(STATIC_BUILD) --show-bin-path)/glossary" $(PYTEST) Tests/lsp

deps-browser:
	$(call install-missing,$(APT_BROWSER))

$(VENV)/.requirements: Tests/browser/requirements.txt
	python3 -m venv --clear $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/browser/requirements.txt
	cp Tests/browser/requirements.txt $@

# Installs the Debian packages of $(1) that are missing (none when all are there).
define install-missing
	@missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call install-missing,$(APT_BUILD))

deps-test:
	$(call install-missing,$(APT_TEST))

# Issue 11's benchmark in one run (bench/run-all.sh): full builds against Hugo and cmark, incremental builds and
# memory at 1,000 to 50,000 pages, the preview server's reload latency; writes bench/RESULTS.md. About 10 minutes;
# run it on a quiet machine.
bench: deps deps-bench
	bench/run-all.sh

deps-bench:
	$(call install-missing,$(APT_BENCH))

# libFuzzer targets (Fuzz/README.md), not part of `make test`: each runs FUZZ_SECONDS, one after another, and a
# summary follows. FUZZ_TARGETS picks some (front-matter markdown mustache cache-entry api-response request-path).
FUZZ_SECONDS       ?= 600
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_TARGETS       ?=
# -sanitize=fuzzer,address as one flag (swiftc keeps only the last -sanitize=); -enable-testing for @testable
# imports in a release build; assertions kept; lld, since gold crashes linking the sanitized build tool;
# GLOSSARY_FUZZ: cmark's blocks from the C allocator, not NodeArena's chunks, so the sanitizer sees each one.
FUZZ_BUILD = $(SWIFT) build --package-path Fuzz/GlossaryFuzz -c release -Xswiftc -sanitize=fuzzer,address \
	-Xswiftc -enable-testing -Xswiftc -assert-config -Xswiftc Debug -Xswiftc -use-ld=lld -Xswiftc -DGLOSSARY_FUZZ

fuzz: fuzz-build
	Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke: fuzz-build
	Fuzz/run.sh $(FUZZ_SMOKE_SECONDS) $(FUZZ_TARGETS)

# SwiftPM doesn't notice a file added to the main package from the fuzz package until its manifest changes.
fuzz-build: deps
	touch Fuzz/GlossaryFuzz/Package.swift
	$(FUZZ_BUILD)

# `make fuzz-replay INPUT=Fuzz/crashes/markdown/crash-…` runs one saved input again; fuzz-minimize shrinks it.
fuzz-replay: fuzz-build
	Fuzz/run.sh replay $(INPUT)

fuzz-minimize: fuzz-build
	Fuzz/run.sh minimize $(INPUT)

clean:
	rm -rf .build site/* Fuzz/GlossaryFuzz/.build
