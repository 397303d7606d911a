# The two commands: `make run` (the main job) and `make test` (the whole suite).
# Each sets itself up: a .venv with the project installed (editable, test and oracle extras),
# and the Node oracles when node is on the machine. `make oracles` installs (as root) and builds
# every adapter of urlwb/oracles/*/oracles.toml; one not built is skipped, with its reason.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_DIR := urlwb/oracles/node
# acorn and recheck: urlwb growth --regexes reads an npm or PyPI package's regexes with them
REGEX_DIR := urlwb/growth/regexes

.PHONY: run test setup node tools oracles lowest clean bench

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[workbench,test,oracles,mutants,cfl]'
	@touch $(STAMP)

setup: $(STAMP) node

# actionlint, which tests/workbench/test_workflows.py checks .github/workflows/ with: built from
# source by `go install` into .urlwb/tools/bin/ when go is on the machine, by `make test` (not by
# `make run`: a first build takes minutes); the test is skipped, with that reason, when it is not built.
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT := .urlwb/tools/bin/actionlint
tools:
	@if $(ACTIONLINT) -version 2>/dev/null | grep -qx '$(ACTIONLINT_VERSION)'; then :; \
	elif command -v go >/dev/null 2>&1; then \
		GOBIN=$(abspath .urlwb/tools/bin) go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION) \
			|| echo "make: actionlint not built (go install failed); tests/workbench/test_workflows.py is skipped"; \
	else echo "make: actionlint not built (go not found); tests/workbench/test_workflows.py is skipped"; fi

node:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && [ -f $(NODE_DIR)/package-lock.json ]; then \
		if [ ! -d $(NODE_DIR)/node_modules ] || [ $(NODE_DIR)/package-lock.json -nt $(NODE_DIR)/node_modules ]; then \
			(cd $(NODE_DIR) && npm ci --ignore-scripts --silent --no-audit --no-fund) && touch $(NODE_DIR)/node_modules \
				|| echo "make: node oracles unavailable (npm ci failed); their tests and columns are skipped"; \
		fi; \
	else echo "make: node oracles skipped (node/npm not found or no lockfile)"; fi
	@if command -v npm >/dev/null 2>&1 && [ -f $(REGEX_DIR)/package-lock.json ]; then \
		if [ ! -d $(REGEX_DIR)/node_modules ] || [ $(REGEX_DIR)/package-lock.json -nt $(REGEX_DIR)/node_modules ]; then \
			(cd $(REGEX_DIR) && npm ci --ignore-scripts --silent --no-audit --no-fund) && touch $(REGEX_DIR)/node_modules \
				|| echo "make: the ReDoS checker unavailable (npm ci failed); urlwb growth --regexes says so"; \
		fi; \
	fi

# Every manifest's apt packages (as root, one apt-get under flock /tmp/urlwb-apt.lock) and build
# line; one line per oracle, built or skipped with the reason. A failed build does not fail make.
oracles: $(STAMP)
	$(BIN)/python scripts/build_oracles.py

# The lowest versions pyproject.toml admits, in a venv of their own: the engine's conformance
# tests and a few properties and targets on them (scripts/lowest_versions.py).
lowest:
	$(PY) scripts/lowest_versions.py

run: setup
	$(BIN)/urlwb campaign

# The whole suite under coverage.py (branch coverage of engine/, floor enforced), with the
# Hypothesis profile "ci" unless another is asked for, on two workers (pytest-xdist, a test file
# per worker at a time: the files that share a working folder or a fixture stay in one process).
# PYTEST_ARGS adds to it (e.g. -n 0 for one process, -k NAME).
COVERAGE_FLOOR ?= 95
test: setup tools
	URLWB_HYPOTHESIS_PROFILE=$${URLWB_HYPOTHESIS_PROFILE:-ci} $(BIN)/python -m pytest -n 2 --dist loadfile \
		--cov --cov-report=term --cov-fail-under=$(COVERAGE_FLOOR) $(PYTEST_ARGS)

bench: setup
	$(BIN)/python scripts/bench.py all

clean:
	rm -rf $(VENV) .urlwb build *.egg-info
