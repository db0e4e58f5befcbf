"""Every docstring example of the package runs and prints what it says (doctest).

The modules holding examples are listed (``EXAMPLE_MODULES``); a test checks that list against the
package, so a module losing its examples, or a new module with examples left unrun, fails.
"""

import doctest
import importlib
import pkgutil

import pytest

import jax_resize

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(jax_resize.__path__, "jax_resize.") if not name.endswith("__main__")
)

#: The modules whose docstrings hold examples (the front ends, the Flax layers, ``exact_shapes``).
EXAMPLE_MODULES = [
    "jax_resize._src.crop_and_resize",
    "jax_resize._src.execution.buckets",
    "jax_resize._src.memory",
    "jax_resize._src.peers.jax_image",
    "jax_resize._src.peers.onnx",
    "jax_resize._src.peers.opencv",
    "jax_resize._src.peers.openvino",
    "jax_resize._src.peers.pillow",
    "jax_resize._src.peers.pillow_modes",
    "jax_resize._src.peers.tensorflow",
    "jax_resize._src.peers.torch",
    "jax_resize._src.ragged",
    "jax_resize._src.resize",
    "jax_resize._src.validation",
    "jax_resize.beam",
    "jax_resize.flax",
    "jax_resize.grain",
]


def _doctests(name):
    """The doctests of module ``name`` that hold at least one example."""
    module = importlib.import_module(name)
    tests = doctest.DocTestFinder(exclude_empty=True).find(module, name, globs=dict(vars(module)))
    return [test for test in tests if test.examples]


def test_example_modules_are_exactly_those_with_examples():
    with_examples = [name for name in MODULES if _doctests(name)]
    assert with_examples == EXAMPLE_MODULES


@pytest.mark.parametrize("name", EXAMPLE_MODULES)
def test_docstring_examples(name):
    """Every example of module ``name`` runs and prints what it says; at least one runs."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in _doctests(name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"no docstring example ran in {name}"
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_public_functions_have_examples():
    # the public surface's docstrings each carry a runnable example
    for name in jax_resize.__all__:
        assert ">>>" in getattr(jax_resize, name).__doc__, name
    from jax_resize import compat

    for name in compat.__all__:
        if name.islower():  # functions (the upper-case names are flag constants)
            assert ">>>" in getattr(compat, name).__doc__, name
