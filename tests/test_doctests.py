"""Every docstring example of the package runs and prints what it says (doctest)."""

import doctest
import importlib
import pkgutil

import pytest

import jax_resize

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(jax_resize.__path__, "jax_resize.") if not name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = finder.find(module, name, globs=dict(vars(module)))
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


def test_public_functions_have_examples():
    # the public surface's docstrings each carry a runnable example
    for name in jax_resize.__all__:
        assert ">>>" in getattr(jax_resize, name).__doc__, name
    from jax_resize import compat

    for name in compat.__all__:
        if name.islower():  # functions (the upper-case names are flag constants)
            assert ">>>" in getattr(compat, name).__doc__, name
