# Two commands set everything up on a fresh machine with Python 3.11+ and make:
#   make demo   - create .venv, install ctxscope, play the main demo scenario live
#   make test   - create .venv with the test extras, run lint, type checks and the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-under-load lint pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/ctxscope demo

# mypy cannot follow setuptools' editable finder, so tui/ is checked through a tree of symlinks
# laid out as installed (build/typecheck/ctxscope/{core,tui,demo_sessions}; mypy_path in pyproject).
TYPECHECK := build/typecheck/ctxscope

$(TYPECHECK):
	mkdir -p $(TYPECHECK)
	ln -sfn ../../../core $(TYPECHECK)/core
	ln -sfn ../../../tui $(TYPECHECK)/tui
	ln -sfn ../../../demo_sessions $(TYPECHECK)/demo_sessions

lint: $(VENV)/.installed-test | $(TYPECHECK)
	$(BIN)/ruff check core tui tests bench demo_sessions
	$(BIN)/mypy --strict core
	$(BIN)/mypy --strict -p ctxscope.tui
	$(BIN)/lint-imports

pytest: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n 2 -q

test: lint pytest

# `make test` three times in a row with two CPU-bound processes beside it: no test may depend on
# how fast the machine is. The two processes are started here and killed when this target ends.
test-under-load: $(VENV)/.installed-test
	@$(BIN)/python -c 'while True: pass' & one=$$!; \
	$(BIN)/python -c 'while True: pass' & two=$$!; \
	trap 'kill $$one $$two 2>/dev/null' EXIT; trap 'exit 130' INT TERM; \
	for run in 1 2 3; do \
		echo "== make test, run $$run of 3, two CPU-bound processes beside it (pids $$one $$two)"; \
		$(MAKE) --no-print-directory test || exit 1; \
	done; \
	echo "== make test passed 3 times in a row under load"

# Benchmarks report figures as ratios against a baseline measured in the same process or run.
bench: $(VENV)/.installed-test
	$(BIN)/python bench/bench_tokens.py
	$(BIN)/python bench/bench_reader.py
	$(BIN)/python bench/bench_replay.py
	$(BIN)/python bench/bench_policies.py
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_open.py --sizes 30 200 --repeat 1
	$(BIN)/python bench/bench_ccusage.py --repeat 1
	$(BIN)/python bench/bench_timeline.py
	$(BIN)/python bench/bench_dashboard.py --only latency --only keepup --samples 40 --duration 20 --load 2

clean:
	rm -rf $(VENV) build *.egg-info
