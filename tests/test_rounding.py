"""Integer policy (jax_resize/_src/rounding.py) against hand-computed tables and exact Python
integer arithmetic (the fixed-point passes Pillow and torch define in C ints)."""

import jax.numpy as jnp
import numpy as np
import pytest

from jax_resize._src import rounding

TIES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4999, -2.5001])


@pytest.mark.parametrize(
    "rule,want",
    [
        ("half_even", [-2, -2, 0, 0, 2, 2, 2, -3]),
        ("half_up", [-2, -1, 0, 1, 2, 3, 2, -3]),
        ("half_away", [-3, -2, -1, 1, 2, 3, 2, -3]),
    ],
)
def test_rounding_rules_table(rule, want):
    got = np.asarray(rounding.ROUNDING_RULES[rule](jnp.asarray(TIES)))
    np.testing.assert_array_equal(got, want)


def test_to_output_saturates_every_integer_dtype():
    y = jnp.asarray([-1e10, -129.0, -128.5, 126.5, 127.4, 255.5, 1e10], jnp.float32)
    np.testing.assert_array_equal(rounding.to_output(y, np.int8), [-128, -128, -128, 126, 127, 127, 127])
    np.testing.assert_array_equal(rounding.to_output(y, np.uint8), [0, 0, 0, 126, 127, 255, 255])
    # int32's maximum is not a float32: values at and above 2**31 saturate instead of wrapping
    big = jnp.asarray([2.0**31, -(2.0**31) - 1e3], jnp.float32)
    np.testing.assert_array_equal(rounding.to_output(big, np.int32), [2**31 - 1, -(2**31)])


def test_policy_rejects_unknown_rule():
    with pytest.raises(ValueError, match="rounding='nearest'"):
        rounding.IntegerPolicy(rounding="nearest")
    assert rounding.IntegerPolicy(fixed_point_bits=22).passes and not rounding.FINAL_HALF_EVEN.passes


def test_quantize_weights_ties():
    w = np.array([0.5 / 2**11, -0.5 / 2**11, 1.5 / 2**11, 0.3])
    np.testing.assert_array_equal(rounding.quantize_weights(w, 11) * 2**11, [1, -1, 2, round(0.3 * 2**11)])
    np.testing.assert_array_equal(rounding.quantize_weights(w, 11, ties="even") * 2**11, [0, -0, 2, 614])


@pytest.mark.parametrize("taps", [2, 7, 40])
def test_fixed_point_pass_is_exact(taps):
    # (2**21 + sum(x * k)) >> 22, clipped to [0, 255], computed with Python ints
    rng = np.random.default_rng(taps)
    bits = 22
    w = rng.uniform(-0.3, 1.0, (64, taps))
    w /= w.sum(1, keepdims=True)
    k = np.rint(w * 2**bits).astype(np.int64)
    x = rng.integers(0, 256, (64, taps))
    want = [min(255, max(0, (2**21 + int(np.dot(xr.astype(object), kr.astype(object)))) >> 22)) for xr, kr in zip(x, k)]
    kh, kl, b = rounding.split_fixed_point(k / 2**bits, bits, 255.0)
    np.testing.assert_array_equal(kh * 2**b + kl, k)
    sh = (x * kh).sum(1).astype(np.float32)  # exact partial sums, as the apply layer's contraction
    sl = (x * kl).sum(1).astype(np.float32)
    got = rounding.combine_fixed_point(jnp.concatenate([sh, sl]), axis=0, b=b, bits=bits, lo=0.0, hi=255.0)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_fixed_point_mean_matches_integer_formula():
    sums = np.array([0, 7, 254 * 9, 255 * 4, 1000], np.float32)
    counts = np.array([1, 2, 9, 4, 7])
    want = [((int(s) + n // 2) * ((1 << 24) // n)) >> 24 for s, n in zip(sums, counts)]
    np.testing.assert_array_equal(rounding.fixed_point_mean(jnp.asarray(sums), counts, np.uint8), want)
