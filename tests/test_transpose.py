"""Host-transposed taps (``execution/transpose.py``): the transposed band is the transposed matrix
(numpy's transpose of the dense matrix as the oracle), and a large band builds it only when a
gradient asks (jax.image's gradient as the oracle)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize import resize
from jax_resize._src.execution import transpose as _transpose
from jax_resize._src.host import HOST

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("case", range(60))
def test_transposed_taps_are_the_transposed_matrix(case):
    from jax_resize._src import kernels, records, weights

    rng = np.random.default_rng(case)
    in_size, out_size = (int(v) for v in rng.integers(1, 300, 2))
    scale = out_size / in_size
    x = (np.arange(out_size) + 0.5) / scale - 0.5
    kernel = [kernels.TRIANGLE, kernels.keys_cubic(-0.5), kernels.lanczos(3)][case % 3]
    record = weights.filter_taps(x, in_size, kernel, stretch=max(1.0, 1 / scale), boundary="exclude", normalize=True)
    if case % 4 == 3:  # not a band: rows in reverse order fall back to sorting
        record = records.Taps(record.index[::-1], record.weight[::-1], in_size)
    t_index, t_weight = _transpose.transpose_taps(record.index, record.weight, in_size)
    want = records.record_matrix(record).T  # numpy's transpose of the dense matrix
    np.testing.assert_array_equal(records.taps_to_matrix(t_index, t_weight, out_size), want)


def test_large_band_gradient_builds_transposed_taps_lazily(monkeypatch):
    """A band of more than HOST.lazy_transpose_taps taps: the forward pass (planned, jitted, run) never
    builds its transposed taps; the gradient builds them once, and equals jax.image's gradient."""
    from jax_resize._src.execution import apply

    n = 2**21  # 2 outputs x ~2**21 taps: above HOST.lazy_transpose_taps
    assert 2 * n >= HOST.lazy_transpose_taps
    # every transposed band is built by _transpose._transpose_band (transpose_taps calls it too): spy on
    # it, with an empty plan cache so no earlier test's plan holds taps already built
    built = []
    build = _transpose._transpose_band
    monkeypatch.setattr(_transpose, "_transpose_band", lambda i, w, size: built.append(size) or build(i, w, size))
    monkeypatch.setattr(apply, "_PLAN_CACHE", type(apply._PLAN_CACHE)())
    x = RNG.standard_normal((n,)).astype(np.float32)
    g = np.array([0.5, -2.0], np.float32)

    forward = np.asarray(jax.jit(lambda v: resize(v, (2,), "linear", antialias=True))(x))
    np.testing.assert_allclose(forward, np.asarray(jax.image.resize(x, (2,), "linear", antialias=True)), atol=1e-5)
    assert n not in built  # planned and applied without the transposed taps

    want = jax.grad(lambda v: jnp.sum(jax.image.resize(v, (2,), "linear", antialias=True) * g))(jnp.asarray(x))
    got = jax.grad(lambda v: jnp.sum(resize(v, (2,), "linear", antialias=True) * g))(jnp.asarray(x))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), atol=1e-9, rtol=1e-5)
    assert built.count(n) == 1  # built when the gradient asked for them, once
