# mltutor: two commands on a fresh machine.
#   make book   build the HTML book (zero warnings allowed)
#   make test   unit tests + every notebook re-executed and compared (nbval)
# Both create .venv on first use and install the pinned lock (requirements.txt) plus mltutor.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help install book pdf gettext check-site lint test test-fast test-portable lab notebooks exercises bench smoke clean

help:
	@echo "make book       build both editions: English in _build/html, Chinese in _build/html/zh (warnings are errors)"
	@echo "                full Sphinx logs in _build/logs/; VERBOSE=1: print them too"
	@echo "make pdf        both editions as A4 PDFs in _build/pdf; after make book also into the site, linked from its download menu"
	@echo "make gettext    after editing English prose: refresh the message catalogs in locales/zh_CN (then translate)"
	@echo "make check-site load every page of _build/html in headless Chromium, offline"
	@echo "make test       run the unit tests and re-execute every notebook with nbval"
	@echo "make test-fast  package tests and doctests only, no notebooks (the contributor's inner loop)"
	@echo "make lint       ruff: the formatter's check and the linter (make test and test-fast run it)"
	@echo "make test-portable re-execute the torch notebooks on non-AVX-512 kernels (torch, numpy), nbval"
	@echo "make lab        copy the exercises into workspace/ (never overwriting) and open JupyterLab"
	@echo "                COPY_ONLY=1: only copy; NO_BROWSER=1: start the server without opening a browser"
	@echo "make notebooks  re-execute all notebooks in place so committed outputs are fresh"
	@echo "make exercises  regenerate exercises/ from solutions/ (FORCE=1 overwrites hand edits)"
	@echo "make bench      run the speed comparisons in benchmarks/"
	@echo "make smoke      build the sdist and wheel, install the wheel in a clean venv, test it outside the repo"
	@echo "make clean      remove _build/ (keeps .venv and workspace/)"

# Re-install only when the lock or the package metadata changes.
$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
# mmaction2's metric files only, for tests/test_temporal_mmaction2.py: its own requirements
# (torch, decord, opencv-contrib) are not needed, so no dependencies (mmengine is in the lock).
	$(BIN)/python -m pip install --quiet --no-deps mmaction2==1.2.0
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

install: $(STAMP)

# MathJax, require.js and the widget manager come from npm (package-lock.json pins them), so the
# built site renders math and widgets with no CDN.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

book: $(STAMP) node_modules/.package-lock.json
	$(BIN)/python scripts/copy_web_assets.py
	$(BIN)/python scripts/build_book.py en zh $(if $(VERBOSE),--verbose,)

# Each edition's single-page HTML (its own Sphinx build) printed by headless Chromium, then checked
# (page count, fonts embedded, no missing glyph). Run after make book to put the PDFs into the site.
pdf: $(STAMP) node_modules/.package-lock.json
	$(BIN)/python scripts/copy_web_assets.py
	$(BIN)/python scripts/make_pdf.py en zh
	$(BIN)/python scripts/check_pdf.py

# The Chinese edition's catalogs follow the English: new messages appear empty, changed ones fuzzy
# (tests/test_translations.py fails until they are translated; CONTRIBUTING.md, "Translating").
gettext: $(STAMP)
	$(BIN)/python scripts/i18n.py update

check-site: $(STAMP)
	test -f _build/html/index.html || $(MAKE) book
	$(BIN)/python scripts/check_site.py _build/html

# The formatter (100 columns) and the linter's rule set are configured in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff format --check --quiet .
	$(BIN)/ruff check --quiet .

test: $(STAMP) lint
	$(BIN)/python -m pytest -n auto --dist loadfile

# The package's own tests and doctests, no notebook, at most 100 examples per property test
# (make test runs them all).
test-fast: $(STAMP) lint
	MLTUTOR_QUICK_EXAMPLES=100 $(BIN)/python -m pytest -n auto --dist loadfile mltutor tests

# The notebooks that use torch, re-executed with torch's and numpy's AVX-512 kernels off, so that
# outputs which depend on this CPU's instruction set fail here and not on a learner's machine.
test-portable: $(STAMP)
	$(BIN)/python scripts/portable_notebooks.py

lab: $(STAMP)
	$(BIN)/python scripts/lab.py $(if $(COPY_ONLY),--no-launch,) $(if $(NO_BROWSER),-- --no-browser,)

notebooks: $(STAMP)
	$(BIN)/python scripts/run_notebooks.py

exercises: $(STAMP)
	$(BIN)/python scripts/make_exercises.py $(if $(FORCE),--force,)

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

# The release check: python -m build (sdist, then the wheel from it), the wheel into a fresh venv
# with only its declared dependencies, scripts/smoke_wheel.py run there from outside the tree.
smoke:
	bash scripts/smoke_wheel.sh

clean:
	rm -rf _build
