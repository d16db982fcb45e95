# The two commands: `make run` (serve the demo store) and `make test` (lint + whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: running needs only requirements.txt (`make run`, serve); the tools (tests, lint,
# bench, drills, messages) add requirements-dev.txt.
STAMP := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.installed-dev-stamp
DATA_DIR ?= data
# Where `make run` and `make serve` listen: `make run PORT=8080` (or HOST=0.0.0.0 to listen on
# every interface). PUBLIC_BASE_URL (links in e-mails) follows them unless it is set.
HOST ?= 127.0.0.1
PORT ?= 8000
BASE_URL_HOST = $(if $(filter 0.0.0.0 ::,$(HOST)),127.0.0.1,$(HOST))
comma := ,
EXTRA_HOST = $(if $(filter localhost 127.0.0.1 0.0.0.0 :: [::1],$(HOST)),,$(comma)$(HOST))

# Local, plain-HTTP environment of `make run` and `make serve`; the per-checkout secret key in
# data/secret_key is read by the settings (SECRET_KEY_FILE). The same environment by hand:
# `make env` prints it (README, "Running manage.py by hand"). Browsers on the usual local
# development servers (3000: Next.js, Create React App; 5173: Vite) and on the demo itself
# may call the API (CORS, docs/api.md "Calling from a browser"); production lists its own.
DEV_ORIGINS = http://localhost:3000,http://127.0.0.1:3000,http://localhost:5173,http://127.0.0.1:5173
RUN_ENV = HTTPS=0 \
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-localhost,127.0.0.1,[::1]$(EXTRA_HOST)}" \
	CSRF_TRUSTED_ORIGINS="$${CSRF_TRUSTED_ORIGINS:-http://$(BASE_URL_HOST):$(PORT),http://localhost:$(PORT)}" \
	CORS_ALLOWED_ORIGINS="$${CORS_ALLOWED_ORIGINS:-$(DEV_ORIGINS),http://$(BASE_URL_HOST):$(PORT),http://localhost:$(PORT)}" \
	PUBLIC_BASE_URL="$${PUBLIC_BASE_URL:-http://$(BASE_URL_HOST):$(PORT)}"

.PHONY: help install install-dev run serve env test lint fmt migrate seed check clean bench scale-drill messages jobs-status

help:
	@echo "make run    - install, migrate, load the demo store and serve http://$(BASE_URL_HOST):$(PORT)"
	@echo "              (HOST and PORT choose where: make run PORT=8080)"
	@echo "make test   - install, lint, missing-migrations check, and the whole pytest suite"
	@echo "make lint   - ruff check, format check, mypy and the layering contracts (lint-imports)"
	@echo "make fmt    - ruff format and autofix"
	@echo "make serve  - gunicorn with config/gunicorn.conf.py (production-style, same HOST/PORT; start workers too)"
	@echo "make env    - print the local environment, for running manage.py by hand"
	@echo "make jobs-status - the background job queue at a glance"
	@echo "make bench  - load benchmark at a real store's size, wrk + gunicorn (bench/README.md)"
	@echo "make scale-drill - two instances behind nginx, two job workers, PostgreSQL and Redis: kills and a rolling deploy"
	@echo "make messages - update locale/pt_BR/LC_MESSAGES/django.po and compile its .mo"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP) $(DEV_STAMP)

install: $(STAMP) $(DATA_DIR)/secret_key

install-dev: $(DEV_STAMP) $(DATA_DIR)/secret_key

$(DATA_DIR)/secret_key:
	@mkdir -p $(DATA_DIR)
	@umask 077 && touch $@
	@$(PYTHON) -c "import secrets; print(secrets.token_urlsafe(64))" > $@
	@chmod 600 $@

migrate: install $(DATA_DIR)/secret_key
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput

seed: migrate
	$(RUN_ENV) $(BIN)/python manage.py seed_demo

# collectstatic needs no database: it runs beside the migrations and the demo data (a first
# run's minute, README), and its output shows only when it fails.
run: install
	@$(RUN_ENV) $(BIN)/python manage.py collectstatic --noinput -v0 > $(DATA_DIR)/collectstatic.log 2>&1 & static=$$!; \
	$(MAKE) --no-print-directory seed || exit 1; \
	wait $$static || { cat $(DATA_DIR)/collectstatic.log; exit 1; }
	@echo ""
	@echo "Home page:       http://$(BASE_URL_HOST):$(PORT)/"
	@echo "Storefront API:  http://$(BASE_URL_HOST):$(PORT)/publics/payments/card-flags"
	@echo "API docs:        http://$(BASE_URL_HOST):$(PORT)/api/docs/  (schema: /api/schema/)"
	@echo "Admin:           http://$(BASE_URL_HOST):$(PORT)/admin/"
	@$(RUN_ENV) $(BIN)/python manage.py demo_admin_info
	@echo "Jobs:            one worker runs beside the server (manage.py jobs_worker); queue: make jobs-status"
	@echo ""
	@$(RUN_ENV) $(BIN)/python manage.py jobs_worker --no-reload & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(RUN_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

jobs-status: install
	@$(RUN_ENV) $(BIN)/python manage.py jobs_status

# Web processes only: background jobs need workers too, on this or other machines, e.g.
#   $(BIN)/python manage.py jobs_worker        (one per core for I/O-bound jobs; see README
#                                              "Deploy": how many, and monitoring with jobs_status)
serve: install $(DATA_DIR)/secret_key
	@echo "Background jobs: run 'manage.py jobs_worker' beside this (README, Deploy)."
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(RUN_ENV) GUNICORN_BIND="$${GUNICORN_BIND:-$(HOST):$(PORT)}" \
		$(BIN)/gunicorn -c config/gunicorn.conf.py config.wsgi

# The environment of `make run`, for a shell: eval "$$(make -s env)" then .venv/bin/python
# manage.py ... (plain HTTP, no redirect to https).
env:
	@$(RUN_ENV) sh -c 'for name in HTTPS ALLOWED_HOSTS CSRF_TRUSTED_ORIGINS CORS_ALLOWED_ORIGINS PUBLIC_BASE_URL; do \
		printf "export %s='"'"'%s'"'"'\n" "$$name" "$$(printenv $$name)"; done'

# mypy's Django plugin imports config.settings: give it a throwaway key so lint never needs
# data/secret_key or a real SECRET_KEY (nothing is signed while type checking).
LINT_ENV = SECRET_KEY=lint-only-not-a-secret HTTPS=0

# lint-imports checks the layering contracts of docs/architecture.md ([tool.importlinter]).
lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(LINT_ENV) $(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo

fmt: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Every model change comes with its migration: fail before the suite if one is missing.
test: lint
	$(LINT_ENV) $(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

# Translations: collect the project's strings into the .po (Django's makemessages needs GNU
# gettext, installed here on Debian when missing), list what is left to translate, and
# compile the .mo in pure Python (committed: a fresh clone needs no gettext tools).
MESSAGES_IGNORE = --ignore ".venv/*" --ignore "data/*" --ignore "tests/*" --ignore "bench/*" \
	--ignore "deploy/*" --ignore "locale/*"
messages: install-dev
	@command -v xgettext >/dev/null || { echo "Installing GNU gettext (Debian package gettext)"; \
		$$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y --no-install-recommends gettext; }
	$(LINT_ENV) $(BIN)/python manage.py makemessages --locale pt_BR $(MESSAGES_IGNORE) \
		--add-location file --no-obsolete
	$(LINT_ENV) $(BIN)/python manage.py compile_translations

check: install $(DATA_DIR)/secret_key
	$(RUN_ENV) $(BIN)/python manage.py check

# Options after BENCH_ARGS, e.g. make bench BENCH_ARGS="--seconds 5 --runs 1"; PostgreSQL and
# Redis with DATABASE_URL and REDIS_URL set (see bench/README.md).
BENCH_ARGS ?=
DRILL_ARGS ?=
bench: install-dev
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# Needs nginx, PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379 (its
# database 13 is flushed); about 3 minutes. Writes bench/results/scale_drill.json.
scale-drill: install-dev
	$(BIN)/python bench/scale_drill.py $(DRILL_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
