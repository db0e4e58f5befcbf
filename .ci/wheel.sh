#!/usr/bin/env bash
# Builds the sdist and the wheel (python -m build), checks both with twine, checks the wheel holds
# the bundled photograph and py.typed, then installs the wheel with the [cli] extra into a fresh
# virtual environment and runs the demo and a resize from outside the source tree, asserting the
# package imported is the installed one. Uses the active Python (e.g. .ci/venv) for build/twine.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
python -m pip install --quiet build twine
python -m build --outdir "$TMP/dist" .
python -m twine check --strict "$TMP"/dist/*
WHEEL="$(ls "$TMP"/dist/*.whl)"
echo "== wheel contents"
python -m zipfile -l "$WHEEL"
python - "$WHEEL" <<'EOF'
import sys
import zipfile

names = zipfile.ZipFile(sys.argv[1]).namelist()
for want in ("jax_resize/py.typed", "jax_resize/data/astronaut.png"):
    assert want in names, f"{want} is not in the wheel"
assert not any(n.startswith(("tests/", "benchmarks/", "docs/")) for n in names), "stray top-level folders"
print(len(names), "files in the wheel")
EOF

python3 -m venv "$TMP/venv"
"$TMP/venv/bin/python" -m pip install --quiet "$WHEEL[cli]"
mkdir "$TMP/run"
cd "$TMP/run"
"$TMP/venv/bin/jax-resize" demo --output demo.png
test -s demo.png
"$TMP/venv/bin/python" - "$TMP/venv" "$REPO" <<'EOF'
import pathlib
import sys

import numpy as np

import jax_resize

where = pathlib.Path(jax_resize.__file__).resolve()
assert where.is_relative_to(pathlib.Path(sys.argv[1]).resolve()), f"imported from {where}"
assert not where.is_relative_to(pathlib.Path(sys.argv[2]).resolve()), f"imported from the source tree: {where}"
print(jax_resize.__version__, where)
print(jax_resize.resize(np.ones((4, 5, 3)), (8, 10, 3)).shape)
EOF
ls -l "$TMP"/dist
du -h "$WHEEL"
