# Glossary — `make demo` builds and serves the example; `make test` runs every test.
# Both install what they need on a fresh Debian 12 machine (apt, with sudo when not root).

SWIFT      ?= swift
PORT       ?= 8080
GLOSSARY    = .build/release/glossary
APT_BUILD   = pkg-config libcmark-dev libcurl4-openssl-dev libmicrohttpd-dev libyaml-dev
APT_TEST    = cmark
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test build site deps deps-test clean

demo: deps build site
	@echo "Example glossary built into site/ ($$(find site -name '*.html' | wc -l) HTML files)."
	@if $(GLOSSARY) serve --help >/dev/null 2>&1; then \
	  $(GLOSSARY) serve --offline --port $(PORT); \
	else echo "Open site/index.html in a browser."; fi

build: deps
	$(SWIFT) build -c release --product glossary

site: build
	$(GLOSSARY) build --offline

test: deps deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Installs the Debian packages that are missing (none when all are there).
deps:
	@missing=$$(for p in $(APT_BUILD); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

deps-test:
	@missing=$$(for p in $(APT_TEST); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

clean:
	rm -rf .build site/*
