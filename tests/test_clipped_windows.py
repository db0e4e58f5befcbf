"""``clipped_windows``: centres, the walked nearest indices and the clipped, renormalised windows.

Oracle: the C loop that defines them, written out here in scalar Python floats (one output at a
time: centre ``in0 + (o + 0.5) * scale``, window ``[int(c - support + 0.5), int(c + support +
0.5))`` clipped to the input, weights at ``(j - c + 0.5) * (1 / filterscale)`` summed in tap order,
then divided by the sum; nearest positions by repeated addition). Bit for bit."""

import math

import numpy as np
import pytest

from jax_resize._src import clipped_windows, kernels, records


def _loop_matrix(in_size, out_size, kernel, box=None):
    """``[out, in]`` weights of the C loop, scalar by scalar."""
    in0, in1 = (0.0, float(in_size)) if box is None else box
    scale = float(np.float32(in1) - np.float32(in0)) / out_size
    filterscale = max(scale, 1.0)
    support = kernel.radius * filterscale
    ss = 1.0 / filterscale
    matrix = np.zeros((out_size, in_size))
    for o in range(out_size):
        center = float(np.float32(in0)) + (o + 0.5) * scale
        lo = max(int(center - support + 0.5), 0)
        hi = min(int(center + support + 0.5), in_size)
        w = [float(kernel(np, np.float64((j - center + 0.5) * ss), 1.0)) for j in range(lo, hi)]
        total = 0.0
        for v in w:
            total += v
        matrix[o, lo:hi] = [v / total if total != 0 else v for v in w]
    return matrix


KERNELS = [kernels.TRIANGLE, kernels.BOX, kernels.keys_cubic_factored(-0.5), kernels.LANCZOS3_SINC_PRODUCT]


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.name)
def test_axis_taps_are_the_loop_bit_for_bit(kernel):
    rng = np.random.default_rng(55)
    for _ in range(25):
        in_size, out_size = (int(v) for v in rng.integers(1, 80, 2))
        box = None
        if rng.integers(2):
            a, b = sorted(rng.uniform(0, in_size, 2))
            box = (float(a), float(b) + 1e-3 * (a == b))
        got = records.record_matrix(clipped_windows.axis_taps(in_size, out_size, kernel, box))
        np.testing.assert_array_equal(
            got, _loop_matrix(in_size, out_size, kernel, box), err_msg=f"{in_size}->{out_size} {box}"
        )


def test_shrink_windows_widen_with_the_scale_and_no_weight_is_negative_zero():
    taps = clipped_windows.axis_taps(100, 10, kernels.TRIANGLE)
    # triangle radius 1 times the scale 10: 20 taps inside the image
    assert int((records.record_matrix(taps) != 0).sum(axis=1).max()) == 20
    assert not np.any(np.signbit(records.record_matrix(taps)) & (records.record_matrix(taps) == 0))


def _walked(in_size, out_size, box=None):
    in0, in1 = (0.0, float(in_size)) if box is None else box
    a = float(np.float32(in1) - np.float32(in0)) / out_size
    x, out = a * 0.5 + float(np.float32(in0)), []
    for _ in range(out_size):
        out.append(min(max(math.floor(x), 0), in_size - 1))
        x += a
    return out


def test_nearest_indices_walk_as_the_loop_adds():
    rng = np.random.default_rng(7)
    for _ in range(50):
        in_size, out_size = (int(v) for v in rng.integers(1, 3000, 2))
        got = clipped_windows.nearest_indices(in_size, out_size)
        assert got.tolist() == _walked(in_size, out_size), (in_size, out_size)
    # walk=False: each position computed on its own, a * (o + 0.5) + in0
    got = clipped_windows.nearest_indices(7, 3, (0.5, 6.5), walk=False)
    assert got.tolist() == [math.floor(2.0 * (o + 0.5) + 0.5) for o in range(3)]
    assert clipped_windows.nearest_indices(5, 0).shape == (0,)


def test_centers_read_the_box_as_float32():
    center, scale = clipped_windows.centers(10, 4, (0.1, 9.9))
    a, b = np.float32(0.1), np.float32(9.9)
    assert scale == float(b - a) / 4
    np.testing.assert_array_equal(center, float(a) + (np.arange(4) + 0.5) * scale)
