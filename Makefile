# Naisei — the whole set-up is `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# A Python >= 3.12: the one .python-version names first, then python3.13, python3.12, python3.
PY_CANDIDATES := python$(shell cat .python-version 2>/dev/null) python3.13 python3.12 python3
PY := $(shell for c in $(PY_CANDIDATES); do \
	if command -v $$c >/dev/null 2>&1 && $$c -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; \
	then echo $$c; break; fi; done)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

WEB_WORKERS ?= 2

.PHONY: help install messages check-messages run serve serve-prod start test test-postgres lint format bench fuzz lock safety-head

help:
	@echo "make run    install, migrate, load demo data, serve web + worker on http://$(HOST):$(PORT)"
	@echo "make test   the test suite (SQLite; set DATABASE_URL/REDIS_URL for PostgreSQL + Redis)"
	@echo "make lint   ruff check + format check + the import-linter layer contracts"
	@echo "make bench  every benchmark in bench/, its tables written into docs/performance.md"
	@echo "make serve-prod  WEB_WORKERS uvicorn processes + the django-q cluster (PostgreSQL + Redis)"
	@echo "make fuzz   schemathesis (every check) against a live server on a throw-away database"
	@echo "make check-messages  the catalogs in locale/ hold every marked string, translated"

$(BIN)/.installed: requirements.lock
	@if [ -z "$(PY)" ]; then \
		echo "Naisei needs Python 3.12 or newer (tried: $(PY_CANDIDATES)). Install one, then run make again."; \
		exit 1; fi
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	@touch $@

install: $(BIN)/.installed messages

# The .mo catalogs are built, never committed: GNU gettext's msgfmt compiles locale/'s .po files
# (only ours: the venv's own catalogs are left alone). compilemessages skips an up-to-date one.
messages: $(BIN)/.installed
	@command -v msgfmt >/dev/null 2>&1 || { \
		echo "Naisei's page translations need GNU gettext (msgfmt): apt-get install gettext," \
			"brew install gettext, or your system's gettext package. Then run make again."; \
		exit 1; }
	@LOG_LEVEL=WARNING $(BIN)/python manage.py compilemessages -v 0 --ignore=.venv --ignore=node_modules

# CI's "makemessages clean" (scripts/check_messages.sh); `--update` regenerates the catalogs.
check-messages: install
	scripts/check_messages.sh

run: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py demo
	@$(MAKE) --no-print-directory start

# Serve an already migrated database, printing the demo logins first.
serve: install
	@$(BIN)/python manage.py demo --logins
	@$(MAKE) --no-print-directory start

# Web (daphne, via the ASGI runserver) and the django-q cluster together. Ctrl-C, or either of
# them stopping, stops both. DEBUG is off, so visitors get the project's own error pages (and
# the API its JSON); --insecure keeps runserver serving /static/ without DEBUG. DJANGO_DEBUG=1
# brings Django's debug pages back for development.
start:
	@echo ""
	@echo "Naisei is running on http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/)"
	@echo "The LLM engine is the offline rule-based one unless ANTHROPIC_API_KEY is set."
	@export DJANGO_DEBUG=$${DJANGO_DEBUG:-0}; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT) --noreload --insecure & web=$$!; \
	DB_POOL=0 $(BIN)/python manage.py qcluster & worker=$$!; \
	trap 'trap - INT TERM EXIT; kill -TERM $$web $$worker 2>/dev/null; wait' INT TERM EXIT; \
	wait -n $$web $$worker

# Production serving (SPEC §10; docs/decisions/0005-serving-with-uvicorn-workers.md): WEB_WORKERS uvicorn worker processes on one socket
# (uvicorn's supervisor restarts one that dies) plus the django-q cluster, all sharing
# PostgreSQL (each process through its own bounded pool, DB_POOL_MAX_SIZE) and Redis (the
# channel layer: a push from any process reaches every watcher). Static files are collected
# for the reverse proxy or CDN in front; see docs/operations.md. The cluster
# forks its workers, and a pool's threads and sockets must not cross a fork: it runs unpooled
# (a connection per worker process), the web processes (uvicorn spawns them) pooled.
serve-prod: install
	@if [ -z "$$DATABASE_URL" ] || [ -z "$$REDIS_URL" ]; then \
		echo "serve-prod needs DATABASE_URL (PostgreSQL) and REDIS_URL: processes share nothing else"; \
		exit 1; fi
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py collectstatic --no-input --verbosity 0
	@export CHANNEL_LAYER=$${CHANNEL_LAYER:-pubsub}; \
	$(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) \
		--workers $(WEB_WORKERS) --lifespan off --no-access-log --no-proxy-headers \
		--http config.uvicorn_http:H11NoDelayProtocol & web=$$!; \
	DB_POOL=0 $(BIN)/python manage.py qcluster & worker=$$!; \
	trap 'trap - INT TERM EXIT; kill -TERM $$web $$worker 2>/dev/null; wait' INT TERM EXIT; \
	wait -n $$web $$worker

# The suite on every core (pytest-xdist: a test database and a Redis database per worker), then
# the browser tests on their own (each drives Chromium against a daphne subprocess: they gain
# nothing from sharing two cores with the rest). `--dist load` hands the tests out in the order
# pytest-django sorts them — database tests, then transactional ones, as Django runs them — so
# that no test meets a table a transactional test has flushed of what the migrations put there.
TEST_WORKERS ?= auto
BROWSER ?= 1
test: install
	$(BIN)/python manage.py makemigrations --check --dry-run --settings=tests.settings
	$(BIN)/pytest -n $(TEST_WORKERS) --dist load --ignore=tests/browser $(PYTEST_ARGS)
	@if [ "$(BROWSER)" != 0 ]; then $(BIN)/pytest tests/browser $(PYTEST_ARGS); fi

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Each script prints its own table, which scripts/bench_tables.py writes into that bench's block
# of docs/performance.md (logs kept to warnings so the tables stay readable). BENCH="turn
# api_list" runs only those.
bench: install
	$(BIN)/python scripts/bench_tables.py $(BENCH)

# QUALITY R2: scripts/fuzz.py serves a throw-away SQLite database on a free loopback port and
# fuzzes /api/schema/ as each role; FUZZ_ARGS e.g. "--max-examples 100 --seed 7 --keep".
fuzz: install
	$(BIN)/python scripts/fuzz.py $(FUZZ_ARGS)

# The safety net's learned head (sessions_app/engine/safety/head.{json,npz}) from its labelled
# lines: deterministic, a few minutes on two cores (docs/safety-net.md).
safety-head: install
	$(BIN)/python scripts/safety_head.py

lock: install
	$(BIN)/python -m pip freeze --exclude pip > requirements.lock.new
	@{ echo "# Fully pinned dependencies of Naisei (runtime + development). Regenerate after editing"; \
	   echo "# pyproject.toml: make lock"; cat requirements.lock.new; } > requirements.lock
	@rm requirements.lock.new
