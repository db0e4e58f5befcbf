"""dtypes: the compute dtype rule, and user arrays turned into jax arrays without a compile."""

import logging

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize._src import dtypes


@pytest.mark.parametrize(
    "dtype",
    [np.uint8, np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float16, np.float64, np.bool_, np.complex128],
)
def test_as_array_matches_jnp_asarray(dtype):
    # jnp.asarray is the oracle: same dtype canonicalisation (x64 off: 64-bit types narrow), same values
    host = (np.arange(24).reshape(2, 3, 4) % 7).astype(dtype)
    got, want = dtypes.as_array(host), jnp.asarray(host)
    assert isinstance(got, jax.Array)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_as_array_passes_jax_values_through():
    already = jnp.ones(3)
    assert dtypes.as_array(already) is already
    np.testing.assert_array_equal(dtypes.as_array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 4]], np.int32))
    np.testing.assert_array_equal(dtypes.as_array(np.ones(3, ">f4")), np.ones(3, np.float32))  # byte-swapped


def test_as_array_compiles_nothing_for_a_new_shape(caplog):
    compiled = lambda: [r for r in caplog.records if r.getMessage().startswith("Compiling")]
    with caplog.at_level(logging.WARNING), jax.log_compiles(True):
        dtypes.as_array(np.ones((37, 41, 3), np.uint8)).block_until_ready()
        assert compiled() == []
        (jnp.ones((37, 41, 3)) + 1).block_until_ready()  # the log does see a compile
    assert len(compiled()) >= 1
