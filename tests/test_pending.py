"""Device mode's geometry, batching and program (``jax_resize._src.pending``) against the host mode.

Oracle: the host mode (:func:`jax_resize._src.transforms.resample`, itself tested against the
libraries in ``test_transforms.py``) on the same images: uint8 bit for bit for the integer presets,
float results within float32 rounding; the geometry against numpy crops of index images.
"""

import zlib

import numpy as np
import pytest
from conftest import load_photo

from jax_resize._src import pending as _p
from jax_resize._src import transforms as _t

PHOTO = np.asarray(load_photo("chelsea.png").convert("RGB"))  # 300 x 451
CASES = [(p, m) for p, methods in _t.PRESETS.items() for m in methods if (p, m) not in _p.UNSUPPORTED]


def _aa(preset, method):
    return preset != "opencv" or method == "area"


def _tolerance(preset, method, dtype):
    if dtype != np.uint8:
        return 1e-4  # float32 sums in the padded program's order (values 0..255)
    return 0  # OpenCV's 8-bit arithmetic too: device mode stacks the host mode's plans


def test_grid_holds_every_size_within_a_quarter_and_is_monotone():
    sizes = [_p.grid_size(n) for n in range(1, 5000)]
    assert sizes[:32] == [32] * 32 and sizes[32] == 40
    assert all(s >= n for n, s in zip(range(1, 5000), sizes))
    assert all(a <= b for a, b in zip(sizes, sizes[1:]))
    assert all(s <= 1.25 * n for n, s in zip(range(32, 5000), sizes[31:]))
    assert [_p.grid_size(n) for n in (224, 225, 1000, 4032)] == [224, 256, 1024, 4096]


@pytest.mark.parametrize("resized", [(50, 70), (30, 70), (50, 20), (12, 9)])
@pytest.mark.parametrize("crop", [(40, 40), (56, 80), (20, 10)])
def test_center_crop_geometry_equals_cropping_the_resized_pixels(resized, crop):
    # an index image stands for the resized image: the window and placement must pick its pixels
    index = np.arange(1, resized[0] * resized[1] + 1).reshape(resized)
    p = _p.pending(np.zeros(resized, np.uint8), resized, preset="pillow", method="nearest", antialias=True)
    for step in ([crop], [(crop[0] + 7, crop[1] + 3), crop]):  # one crop, and a crop of a crop
        q, expected = p, index
        for size in step:
            q, expected = _p.center_crop(q, size), _t.center_crop(expected, size)
        canvas = np.zeros(q.canvas, index.dtype)
        (top, left, h, w), (pt, pl) = q.window, q.place
        canvas[pt : pt + h, pl : pl + w] = index[top : top + h, left : left + w]
        np.testing.assert_array_equal(canvas, expected)


def _host(image, p: _p.Pending):
    """The host mode of ``p``: the window of the resized image placed on its canvas."""
    top, left, h, w = p.window
    if (h, w) == (0, 0) or not h or not w:
        part = np.zeros((0, 0, *image.shape[2:]), np.uint8)
    else:
        part = _t.resample(image, p.resized, method=p.method, antialias=p.antialias, preset=p.preset, window=p.window)
    canvas = np.zeros((*p.canvas, *image.shape[2:]), part.dtype)
    canvas[p.place[0] : p.place[0] + h, p.place[1] : p.place[1] + w] = part
    return canvas


def _check(images, pendings):
    got = np.asarray(_p.resize_batch(_p.batch(pendings)))
    for i, (image, p) in enumerate(zip(images, pendings)):
        expected = _host(image, p)
        assert got[i].dtype == expected.dtype
        tol = _tolerance(p.preset, p.method, expected.dtype)
        np.testing.assert_allclose(got[i].astype(float), expected.astype(float), atol=tol, rtol=0, err_msg=str(p[1:]))


@pytest.mark.parametrize("preset, method", CASES)
def test_resize_then_crop_on_the_device_equals_the_host_mode(preset, method):
    rng = np.random.default_rng(zlib.crc32(f"{preset}/{method}".encode()))
    images, pendings = [], []
    for h, w in [(300, 451), (171, 64), (40, 300)] + [tuple(rng.integers(20, 300, 2)) for _ in range(3)]:
        image = PHOTO[:h, :w]
        size = _t.resized_size(h, w, 72)
        images.append(image)
        pendings.append(
            _p.center_crop(_p.pending(image, size, preset=preset, method=method, antialias=_aa(preset, method)), 64)
        )
    _check(images, pendings)


@pytest.mark.parametrize(
    "preset, method", [("torchvision", "bilinear"), ("tf", "bilinear"), ("pillow", "lanczos"), ("opencv", "nearest")]
)
def test_letterbox_random_crops_same_sizes_and_crops_larger_than_the_image(preset, method):
    aa = _aa(preset, method)
    images, pendings = [], []
    for h, w in [(300, 451), (64, 64), (40, 200), (90, 30)]:
        image = PHOTO[:h, :w]
        images.append(image)
        rh, rw, top, left = _t.pad_box(h, w, 64, 64)  # ResizeWithPad
        pendings.append(
            _p.pending(image, (rh, rw), preset=preset, method=method, antialias=aa)._replace(
                place=(top, left), canvas=(64, 64)
            )
        )
        images.append(image)  # unchanged size (torchvision returns the image), then padded by the crop
        pendings.append(_p.center_crop(_p.pending(image, (h, w), preset=preset, method=method, antialias=aa), 64))
    _check(images, pendings)


def test_pillow_batches_mixing_pass_orders_keep_each_images_order():
    # Pillow resizes vertically first iff out_h < in_h and 2 (out_w - in_w) > out_h - in_h
    images = [PHOTO[:300, :60], PHOTO[:60, :300], PHOTO]
    pendings = [_p.pending(im, (48, 48), preset="pillow", method="bicubic", antialias=True) for im in images]
    _, choice, structure, _ = _p._batch_records(_p.batch(pendings))
    assert len(structure.variants) == 2 and len(set(choice.tolist())) == 2
    _check(images, pendings)


def test_a_batch_of_mixed_outputs_and_unsupported_methods_are_refused():
    a = _p.pending(PHOTO, (10, 10), preset="pillow", method="box", antialias=True)
    with pytest.raises(ValueError, match="one output shape per batch"):
        _p.batch([a, a._replace(canvas=(10, 12), window=(0, 0, 10, 12), resized=(10, 12))])
    with pytest.raises(ValueError, match="preset='tf' with method='area'"):
        _p.pending(PHOTO, (10, 10), preset="tf", method="area", antialias=False)


def test_programs_are_bounded_by_the_grid_not_by_image_sizes():
    rng = np.random.default_rng(7)
    before = len(_p.PROGRAMS)
    batches = 0
    for _ in range(12):
        images = [PHOTO[: rng.integers(200, 300), : rng.integers(330, 451)] for _ in range(4)]
        pendings = [
            _p.center_crop(
                _p.pending(
                    im, _t.resized_size(*im.shape[:2], 40), preset="torchvision", method="bilinear", antialias=True
                ),
                32,
            )
            for im in images
        ]
        _p.resize_batch(_p.batch(pendings))
        batches += 1
    # 48 image sizes; padded shapes 256 x 384/448/512, tap widths of one power of two or two
    assert len(_p.PROGRAMS) - before <= 6
