"""``compat.pil_resize`` against Pillow's ``Image.resize`` on the real photographs, with ``box``
and ``reducing_gap``: float (mode 'F') within 1e-3 on a 0-255 scale, uint8 within 1."""

import numpy as np
import pytest
from conftest import load_photo
from PIL import Image

from jax_resize import compat

FILTERS = [compat.NEAREST, compat.BOX, compat.BILINEAR, compat.HAMMING, compat.BICUBIC, compat.LANCZOS]


@pytest.fixture(scope="module")
def photo():
    # ../shared/data/chelsea.png, or the photograph bundled with the package where that is absent
    return np.asarray(load_photo("chelsea.png").convert("RGB"))


@pytest.mark.parametrize("case", range(36))
def test_matches_pillow(photo, case):
    rng = np.random.default_rng(case)
    resample = FILTERS[case % len(FILTERS)]
    h, w = photo.shape[:2]
    y0, x0 = int(rng.integers(0, h - 60)), int(rng.integers(0, w - 60))
    crop = photo[y0 : y0 + int(rng.integers(40, h - y0)), x0 : x0 + int(rng.integers(40, w - x0))]
    ch, cw = crop.shape[:2]
    size = (int(rng.integers(5, 2 * cw)), int(rng.integers(5, 2 * ch)))
    box = None
    if case % 3:
        bx, by = rng.uniform(0, cw / 3), rng.uniform(0, ch / 3)
        box = (bx, by, rng.uniform(bx + 5, cw), rng.uniform(by + 5, ch))
    gap = [None, 1.0, 2.0, 3.0][case % 4]
    grey = crop[..., 1].astype(np.float32)
    want = np.asarray(Image.fromarray(grey, "F").resize(size, resample, box=box, reducing_gap=gap))
    got = np.asarray(compat.pil_resize(grey, size, resample, box=box, reducing_gap=gap))
    assert got.shape == want.shape == (size[1], size[0])
    np.testing.assert_allclose(got, want, atol=1e-3)
    want8 = np.asarray(Image.fromarray(crop).resize(size, resample, box=box, reducing_gap=gap)).astype(int)
    got8 = np.asarray(compat.pil_resize(crop, size, resample, box=box, reducing_gap=gap))
    assert got8.dtype == np.uint8
    assert np.max(np.abs(got8.astype(int) - want8)) <= 1


def test_same_size_is_a_copy_and_errors():
    x = np.arange(12, dtype=np.uint8).reshape(3, 4)
    np.testing.assert_array_equal(compat.pil_resize(x, (4, 3)), x)
    with pytest.raises(ValueError, match="resample=7"):
        compat.pil_resize(x, (2, 2), 7)
    with pytest.raises(ValueError, match="box="):
        compat.pil_resize(x, (2, 2), box=(0, 0, 5, 3))
    with pytest.raises(ValueError, match="reducing_gap"):
        compat.pil_resize(x, (2, 2), reducing_gap=0.5)
    with pytest.raises(ValueError, match="image must be"):
        compat.pil_resize(np.zeros(4), (2, 2))
