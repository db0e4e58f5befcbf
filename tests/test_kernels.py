"""Kernels against their defining formulas (Keys 1981, Lanczos, box, area)."""

import numpy as np
import pytest

from jax_resize._src import kernels


def test_keys_cubic_values():
    # Keys (1981) eq. (4): for a = -0.5, W(0.5) = (a+2)/8 - (a+3)/4 + 1 = 0.5625, W(1.5) = -0.0625
    k = kernels.keys_cubic(-0.5)
    np.testing.assert_allclose(
        k(np, np.array([0.0, 0.5, -0.5, 1.0, 1.5, -1.5, 2.0, 2.5])),
        [1, 0.5625, 0.5625, 0, -0.0625, -0.0625, 0, 0],
        atol=1e-15,
    )
    # a = -0.75 at 0.5: 1.25/8 - 2.25/4 + 1 = 0.59375
    np.testing.assert_allclose(kernels.keys_cubic(-0.75)(np, np.array([0.5])), [0.59375])


@pytest.mark.parametrize("kernel", [kernels.TRIANGLE, kernels.keys_cubic(-0.75), kernels.keys_cubic(-0.5)])
def test_interpolating_kernels_partition_unity(kernel):
    rng = np.random.default_rng(0)
    for x in rng.uniform(-3, 3, 50):
        taps = np.arange(np.floor(x) - 3, np.floor(x) + 4)
        assert abs(kernel(np, taps - x).sum() - 1) < 1e-12


def test_lanczos_zero_at_integers_and_outside():
    k = kernels.lanczos(3)
    np.testing.assert_allclose(k(np, np.array([0.0, 1.0, 2.0, -2.0, 3.0, 3.5])), [1, 0, 0, 0, 0, 0], atol=1e-12)
    # sinc(0.5) * sinc(0.5 / 3) = (2/pi) * sin(pi/6) / (pi/6)
    np.testing.assert_allclose(k(np, np.array([0.5])), [(2 / np.pi) * 0.5 / (np.pi / 6)])


def test_box_is_half_open_and_stretches():
    np.testing.assert_array_equal(kernels.BOX(np, np.array([-0.5, -0.49, 0.5, 0.51])), [0, 1, 1, 0])
    np.testing.assert_array_equal(kernels.BOX(np, np.array([-1.0, 1.0, 1.01]), 2.0), [0, 1, 0])
    assert kernels.BOX.support(4.0) == 2.0


def test_area_overlaps():
    # footprint [x - 0.5, x + 1.5] (width 2 centred on x + 0.5) against pixels [t, t + 1], d = t - x
    d = np.array([-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5])
    w = kernels.AREA(np, d, 2.0)
    np.testing.assert_allclose(w, [0, 0.5, 1, 1, 1, 0.5, 0])
    assert kernels.AREA.support(3.0) == 2.0
