#!/usr/bin/env bash
# Builds the documentation site (docs/conf.py) into docs/_build/html, warnings as errors. Run from
# anywhere after the package is installed in the active virtual environment (as .ci/run does).
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet -e ".[docs]"
sphinx-build -W --keep-going -q -b html docs docs/_build/html
echo "== docs: $(find docs/_build/html -name '*.html' | wc -l) HTML pages in docs/_build/html"
