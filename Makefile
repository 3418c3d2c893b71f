# The two commands a newcomer runs: `make demo` and `make test`. Everything they need is
# installed into .venv inside the repository.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
BRAIN  := $(VENV)/bin/brain
STAMP  := $(VENV)/.installed
DEMO_NOW ?= 2026-10-20T12:00:00Z
STORY  := .brain/review-story

.PHONY: install demo test lint bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

demo: install
	$(BRAIN) db start
	$(BRAIN) ingest demo/corpus
	$(BRAIN) status
	$(BRAIN) ask --now $(DEMO_NOW) "Who should sign off the Halyard release?"
	$(BRAIN) ask --now $(DEMO_NOW) "Who owns the payments API?"
	$(BRAIN) ask --now $(DEMO_NOW) "Why did we stop publishing ledger events through Kafka?"
	$(BRAIN) ask --now $(DEMO_NOW) "Who owns the billing gateway 3 weeks ago?"
	$(BRAIN) eval extraction --strict demo/corpus
	$(BRAIN) eval questions --strict demo/questions.jsonl
	$(BRAIN) --graph repo ingest-repo .
	$(BRAIN) --graph repo board run --workers 2
	$(BRAIN) --graph repo why "embedded FalkorDB"
	$(BRAIN) --graph repo review HEAD
	rm -rf $(STORY) && $(PY) demo/review_story.py $(STORY)
	$(BRAIN) --graph story reset --yes
	$(BRAIN) --graph story ingest-repo $(STORY)
	$(BRAIN) --graph story board run --workers 2
	$(BRAIN) --graph story review fix-router --repo $(STORY)
	$(PY) demo/review_story.py $(STORY) --january
	$(BRAIN) --graph story ingest-repo $(STORY)
	$(BRAIN) --graph story board run --workers 2
	$(BRAIN) --graph story review fix-router-again --repo $(STORY)
	$(BRAIN) --graph story review fix-router --repo $(STORY)
	$(BRAIN) --graph story ask "What was tried and failed with the router prompt?"
	$(BRAIN) serve --background
	@echo "The web app runs on the demo data at http://127.0.0.1:8737/ (Ask, Owners, Board, Review, Graph; pick the graph 'story' for the review story). Stop it with: $(BRAIN) serve --stop"

test: install
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
	$(PY) -m pytest -q
	@echo "Screenshots of the web pages: $${BRAIN_SCREENSHOTS:-$(CURDIR)/.brain/screenshots}"

lint: install
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

bench: install
	$(PY) -m benchmarks

clean:
	-$(BRAIN) serve --stop
	-$(BRAIN) db stop
	rm -rf $(VENV) .brain .pytest_cache .mypy_cache .ruff_cache
