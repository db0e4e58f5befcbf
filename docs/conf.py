"""Sphinx configuration of the documentation site (issue 37): the API reference is generated from
``__all__`` of ``jax_resize``, ``jax_resize.compat``, ``jax_resize.flax``, ``jax_resize.grain`` and
``jax_resize.beam``; the guide is one page per task (``docs/guide/``, its code blocks run by
``tests/test_guide.py``); CHANGELOG.md is included as it is; the colab notebooks are rendered, not
executed.

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (``.ci/docs.sh``).
"""

import json
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# document the checkout being built, whichever copy of the package is installed
sys.path.insert(0, str(ROOT))

import jax_resize  # noqa: E402

project = "jax_resize"
author = "jax_resize authors"
copyright = "jax_resize authors, Apache-2.0"
version = release = jax_resize.__version__

# myst_nb loads myst_parser itself (listing both is an error) and reads .md and .ipynb sources
extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon", "myst_nb"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
templates_path = ["api/_templates"]
exclude_patterns = ["_build", "notes", "**/.ipynb_checkpoints", "api/_templates"]

# autosummary writes a page per function and class of each module's __all__ (imported names included)
autosummary_generate = True
autosummary_ignore_module_all = False
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# the notebooks are executed by the test suite (tests need the extras and minutes); here they are
# rendered as stored
nb_execution_mode = "off"
# slug anchors on the headings of the pages (links such as guide/limits.html#large-shrinks)
myst_heading_anchors = 3

html_theme = "furo"
html_title = f"jax_resize {release}"

# Sphinx reads sources below docs/ only: the notebooks are copied from colab/ (git-ignored
# docs/_notebooks/), rewritten only when changed so incremental builds stay incremental. The copies
# name their language: colab/make_notebooks.py writes no language_info, and without it myst-nb warns
# for every code cell and leaves the code unhighlighted.
_notebooks = DOCS / "_notebooks"
_notebooks.mkdir(exist_ok=True)
for _nb in sorted((ROOT / "colab").glob("*.ipynb")):
    _doc = json.loads(_nb.read_text(encoding="utf-8"))
    _doc["metadata"].setdefault("language_info", {"name": "python"})
    _text = json.dumps(_doc, indent=1, ensure_ascii=False) + "\n"
    _dst = _notebooks / _nb.name
    if not _dst.exists() or _dst.read_text(encoding="utf-8") != _text:
        _dst.write_text(_text, encoding="utf-8")
