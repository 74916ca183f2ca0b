# The commands the README names. Each sets up .venv on its own, so a fresh clone needs nothing else.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
SOURCES := $(shell find rust_core python -type f \( -name '*.rs' -o -name '*.py' -o -name '*.pyi' -o -name 'Cargo.toml' \)) pyproject.toml Cargo.toml

.PHONY: run test lint bench fuzz clean install

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# A release build: the tests drive millions of steps, and a debug build would be ~30x slower.
$(STAMP): $(BIN)/python $(SOURCES)
	$(BIN)/pip install --quiet "maturin>=1.9,<2"
	$(BIN)/maturin develop --release --quiet --extras test
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/meeplex arena flip_city --agents mcts,random --games 20 --seed 1 --jobs 2

lint: install
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	$(BIN)/ruff check python tests benches
	$(BIN)/ruff format --check python tests benches
	$(BIN)/python -m mypy --strict python/meeplex
	$(BIN)/python -m mypy.stubtest meeplex._core

test: lint
	cargo test --workspace --quiet
	fuzz/run.sh --smoke 5
	$(BIN)/python -m pytest -q -n auto

bench: install
	$(BIN)/pip install --quiet "pettingzoo[classic]>=1.25,<2" "open_spiel>=2,<3"
	cargo bench -p meeplex-benches
	$(BIN)/python benches/bench_python.py
	$(BIN)/python benches/bench_anchors.py

# `make fuzz FUZZ_SECONDS=3600` for a longer session: each engine fuzz target, then the Rust-vs-oracle soak.
FUZZ_SECONDS ?= 600
FUZZ_MINUTES ?= 10
fuzz: install
	fuzz/run.sh all $(FUZZ_SECONDS)
	HYPOTHESIS_PROFILE=long $(BIN)/meeplex fuzz all --minutes $(FUZZ_MINUTES)

clean:
	rm -rf $(VENV) target
