"""Device mode of the ``"opencv"`` preset (``jax_resize._src.pending`` running ``peers.opencv``'s plans
stacked across images) against ``cv2.resize`` itself and the host mode.

Oracle: the real ``cv2.resize`` (opencv-python-headless, the x86-64 wheel) of each image at its
resized size, cropped about its centre with numpy (``transforms.center_crop``, torchvision's rule,
tested against torchvision in ``test_transforms.py``): uint8 bit for bit for every method, batches
mixing image sizes, channel counts 1 / 3 / 4, integer shrinks (2x: OpenCV's area blocks, also for
``linear``; 3x), fractional shrinks, enlargements, mixed directions, thin images, crops larger and
smaller than the resized image. Except ``cubic`` on images of at least 4 x 4 pixels, which the wheel
hands to Intel IPP (closed source): within 1 of OpenCV there, and bit for bit with the host mode
(``device=False``, ``compat.cv2_resize``) on every image.
"""

import zlib

import numpy as np
import pytest
from conftest import load_photo

from jax_resize._src import pending as _p
from jax_resize._src import transforms as _t

cv2 = pytest.importorskip("cv2")

METHODS = _t.PRESETS["opencv"]
FLAG = {m: getattr(cv2, "INTER_" + m.upper().replace("-", "_")) for m in METHODS}
CANVAS = 48
#: input ``(h, w)`` -> resized ``(h, w)``: 2x shrink, 3x shrink, fractional shrinks (a small and a
#: large factor), enlargements (2x and fractional), mixed directions, one axis kept (1 x 2 blocks),
#: a 3-row image (OpenCV's own cubic: no IPP below 4 x 4)
SIZES = [
    ((96, 128), (48, 64)),
    ((150, 99), (50, 33)),
    ((97, 131), (48, 65)),
    ((200, 120), (37, 23)),
    ((45, 45), (90, 90)),
    ((40, 30), (61, 52)),
    ((120, 45), (50, 90)),
    ((64, 80), (64, 40)),
    ((3, 60), (9, 40)),
]
#: the routes each method's batch meets (OpenCV's own arithmetic; nearest: gathers only)
ROUTES = {
    "linear": {"blocks", "mulhi"},
    "area": {"blocks", "ordered", "mulhi"},
    "cubic": {"float", "ordered"},
    "lanczos4": {"shift22"},
    "nearest": set(),
    "nearest-exact": set(),
}


def _image(channels: int, h: int, w: int, seed: int) -> np.ndarray:
    """A crop of a photo (grey ``[h, w]`` for 1 channel, RGB for 3) or noise (4 channels)."""
    rng = np.random.default_rng(seed)
    if channels == 4:
        return rng.integers(0, 256, (h, w, 4)).astype(np.uint8)
    name = "camera.png" if channels == 1 else ("astronaut.png", "coffee.png", "chelsea.png")[seed % 3]
    photo = np.asarray(load_photo(name).convert("L" if channels == 1 else "RGB"))
    top, left = rng.integers(0, photo.shape[0] - h + 1), rng.integers(0, photo.shape[1] - w + 1)
    return photo[top : top + h, left : left + w]


def _ipp(method: str, image: np.ndarray) -> bool:
    """Whether the x86-64 wheel hands this ``cv2.resize`` to Intel IPP (``compat.cv2_resize``'s rule)."""
    return method == "cubic" and min(image.shape[:2]) >= 4


def _cv2(image, resized, method):
    """``cv2.resize`` to ``resized`` then the centre crop to the canvas (the oracle)."""
    out = cv2.resize(image, resized[::-1], interpolation=FLAG[method])
    return _t.center_crop(out.reshape(*resized, *image.shape[2:]), CANVAS)


def _pending(image, resized, method):
    p = _p.pending(image, resized, preset="opencv", method=method, antialias=method == "area")
    return _p.center_crop(p, CANVAS)


def _host(image, resized, method):
    """The host mode: ``transforms.resample`` (``compat.cv2_resize``) whole, then cropped."""
    out = _t.resample(image, resized, method=method, antialias=method == "area", preset="opencv")
    return _t.center_crop(out, CANVAS)


@pytest.mark.parametrize("method", METHODS)
def test_device_mode_is_cv2_resize_bit_for_bit(method):
    for channels in (1, 3, 4):
        seed = zlib.crc32(f"{method}/{channels}".encode())
        images = [_image(channels, *hw, seed + i) for i, (hw, _) in enumerate(SIZES)]
        pb = _p.batch([_pending(im, resized, method) for im, (_, resized) in zip(images, SIZES)])
        assert {route for route, _ in _p._batch_records(pb)[2].routes} == ROUTES[method]
        got = np.asarray(_p.resize_batch(pb))
        for out, image, (_, resized) in zip(got, images, SIZES):
            want, where = _cv2(image, resized, method), f"{method} {channels} {image.shape} -> {resized}"
            assert out.shape == want.shape and out.dtype == want.dtype == np.uint8, where
            if _ipp(method, image):  # Intel IPP's float code: within 1; the host mode's bits
                assert np.abs(out.astype(int) - want).max() <= 1, where
                np.testing.assert_array_equal(out, _host(image, resized, method), err_msg=where)
            else:
                np.testing.assert_array_equal(out, want, err_msg=f"{where} {cv2.getCPUFeaturesLine()}")


@pytest.mark.parametrize("method", ["linear", "area", "cubic", "lanczos4"])
def test_one_answer_per_input_whatever_the_neighbours(method):
    # the same image in batches of other padded shapes and other routes: the host mode's bits each time
    target, resized = _image(3, 77, 101, 1), (50, 66)
    neighbours = [
        [],
        [(_image(3, 300, 450, 2), (150, 225))],  # a larger grid; 2x: area blocks
        [(_image(3, 3, 60, 3), (9, 40)), (_image(3, 45, 45, 4), (90, 90))],  # thin (own cubic), enlarged
        [(_image(3, 200, 120, 5), (37, 23))],  # a large shrink: wide area tables
    ]
    host = _host(target, resized, method)
    for others in neighbours:
        pb = _p.batch([_pending(im, size, method) for im, size in [*others, (target, resized)]])
        np.testing.assert_array_equal(np.asarray(_p.resize_batch(pb))[-1], host, err_msg=f"{method} {len(others)}")
    # one channel as [H, W, 1]: cv2.resize drops the axis, the preset keeps it
    grey = _image(1, 77, 101, 6)[..., None]
    pb = _p.batch([_pending(grey, resized, method), _pending(_image(1, 96, 128, 7)[..., None], (48, 64), method)])
    np.testing.assert_array_equal(np.asarray(_p.resize_batch(pb))[0], _host(grey, resized, method))
    if not _ipp(method, grey):
        np.testing.assert_array_equal(np.asarray(_p.resize_batch(pb))[0][..., 0], _cv2(grey[..., 0], resized, method))
