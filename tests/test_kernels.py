"""Kernels against their defining formulas (Keys 1981, Lanczos, box, area)."""

import math

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


def test_mitchell_netravali_values():
    # Mitchell & Netravali (1988) eq. (8), B = C = 1/3: k(0) = (6 - 2B)/6 = 8/9,
    # k(1) = (-B - 6C + 6B + 30C - 12B - 48C + 8B + 24C)/6 = (B)/6 = 1/18, k(2) = 0
    k = kernels.MITCHELL
    np.testing.assert_allclose(k(np, np.array([0.0, 1.0, -1.0, 2.0, 2.5])), [8 / 9, 1 / 18, 1 / 18, 0, 0], atol=1e-15)
    # at 0.5: (7/6)/8 - 2/4 + 8/9 = 0.53472...; at 1.5: (-7/18)*3.375 + 2*2.25 - (10/3)*1.5 + 16/9
    np.testing.assert_allclose(k(np, np.array([0.5, 1.5])), [7 / 48 - 0.5 + 8 / 9, -7 * 3.375 / 18 + 4.5 - 5 + 16 / 9])
    # B = 0 is Keys' kernel with a = -C
    x = np.linspace(-2.5, 2.5, 101)
    keys = kernels.keys_cubic(-0.75)(np, x)
    np.testing.assert_allclose(kernels.mitchell_netravali(0.0, 0.75)(np, x), keys, atol=1e-14)


@pytest.mark.parametrize("b,c", [(1 / 3, 1 / 3), (1.0, 0.0), (0.0, 0.5)])
def test_mitchell_netravali_partition_of_unity(b, c):
    k = kernels.mitchell_netravali(b, c)
    for x in np.random.default_rng(1).uniform(-3, 3, 50):
        taps = np.arange(np.floor(x) - 3, np.floor(x) + 4)
        assert abs(k(np, taps - x).sum() - 1) < 1e-12


def test_gaussian_values():
    k = kernels.GAUSSIAN  # sigma 0.5, radius 1.5
    assert k.radius == 1.5 and k.name == "gaussian" and kernels.MITCHELL.name == "mitchell"
    np.testing.assert_allclose(k(np, np.array([0.0, 0.5, -1.0, 1.49])), np.exp(-np.array([0, 0.25, 1, 1.49**2]) / 0.5))
    np.testing.assert_array_equal(k(np, np.array([1.5, -1.5, 2.0])), [0, 0, 0])
    assert kernels.gaussian(2.0).radius == 6.0
    # stretched by 2: k(d / 2)
    np.testing.assert_allclose(k(np, np.array([1.0]), 2.0), k(np, np.array([0.5])))


def test_keys_cubic_factored_is_keys_in_another_order():
    # the same cubic as keys_cubic (to rounding), the outer piece with ``a`` factored out; the inner
    # piece on [0, 1), the outer on [1, 2)
    d = np.linspace(-2.5, 2.5, 2001)
    for a in (-0.5, -0.75):
        np.testing.assert_allclose(kernels.keys_cubic_factored(a)(np, d), kernels.keys_cubic(a)(np, d), atol=1e-15)
        x = 1.3
        assert kernels.keys_cubic_factored(a)(np, np.array([x]))[0] == (((x - 5) * x + 8) * x - 4) * a


def test_lanczos_sinc_product_is_lanczos_on_a_half_open_support():
    d = np.linspace(-2.999, 2.999, 1999)
    k = kernels.LANCZOS3_SINC_PRODUCT
    np.testing.assert_allclose(k(np, d), kernels.lanczos(3)(np, d), atol=1e-15)
    sinc = lambda x: math.sin(math.pi * x) / (math.pi * x)  # noqa: E731
    assert k(np, np.array([0.7]))[0] == sinc(0.7) * sinc(0.7 / 3)
    assert k(np, np.array([3.0]))[0] == 0.0 and k(np, np.array([-3.0]))[0] != 0.0  # [-3, 3)
