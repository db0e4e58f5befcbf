"""Pipeline geometry and presets (``_src/transforms.py``) against the libraries themselves.

Sizes, centre crops and random boxes against torchvision 0.28's own transforms (``tv_oracle``);
letterbox geometry against ``tf.image.resize_with_pad``; each preset's pixels on real photographs
against torchvision v2, Pillow, TensorFlow, OpenCV and jax.image.
"""

import itertools

import cv2
import jax
import numpy as np
import PIL.Image
import pytest
import tensorflow as tf
from conftest import load_photo
from tv_oracle import F, torch, v2

from jax_resize._src import transforms as T

PHOTOS = ["astronaut.png", "chelsea.png"]


def _photo(i=0):
    return np.asarray(load_photo(PHOTOS[i]).convert("RGB"))


def _chw(image):
    return torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1)))


def _hwc(tensor):
    return tensor.numpy().transpose(1, 2, 0)


SHAPES = [(400, 600), (600, 400), (333, 333), (1, 50), (50, 1), (480, 641), (3000, 4000)]
SIZES = [(256, None), (224, None), (100, 300), (100, 101), ((200, 150), None), ([256], None), (None, 300), (1, None)]


@pytest.mark.parametrize(("h", "w"), SHAPES)
def test_resized_size_is_torchvisions(h, w):
    x = torch.zeros((1, h, w), dtype=torch.uint8)
    for size, max_size in SIZES:
        try:
            want = tuple(v2.Resize(size, max_size=max_size, antialias=True)(x).shape[1:])
        except (ValueError, TypeError) as error:
            with pytest.raises(type(error)):
                T.resized_size(h, w, size, max_size)
            continue
        assert T.resized_size(h, w, size, max_size) == want, (size, max_size)


@pytest.mark.parametrize(("h", "w"), [(7, 9), (8, 8), (5, 12), (12, 5)])
def test_center_crop_is_torchvisions_with_its_padding(h, w):
    image = np.random.default_rng(h * w).integers(0, 256, (h, w, 3), dtype=np.uint8)
    for crop in itertools.product([1, 4, 5, 8, 9, 13], repeat=2):
        want = _hwc(v2.CenterCrop(crop)(_chw(image)))
        np.testing.assert_array_equal(T.center_crop(image, crop), want, err_msg=str(crop))


class _Scripted:
    """The same variates for torchvision (``torch.empty(1).uniform_``, ``torch.randint``) and for
    :func:`random_resized_crop_box` (``rng.uniform``, ``rng.integers``)."""

    def __init__(self, seed):
        self.draws = np.random.default_rng(seed).random(64).tolist()

    def fraction(self):
        return self.draws.pop(0)

    # numpy's Generator interface
    def uniform(self, lo, hi):
        return float(np.float32(lo + (hi - lo) * self.fraction()))

    def integers(self, lo, hi):
        return lo + int(self.fraction() * (hi - lo))

    # torch's
    def empty(self, *shape):
        owner = self

        class _Tensor:
            def uniform_(self, lo, hi):
                return torch.tensor([owner.uniform(float(lo), float(hi))], dtype=torch.float32)

        return _Tensor()

    def randint(self, lo, hi, size):
        return torch.tensor([self.integers(lo, hi)])


@pytest.mark.parametrize("seed", range(40))
def test_random_resized_crop_box_is_torchvisions_for_the_same_variates(seed, monkeypatch):
    h, w = [(400, 600), (600, 400), (50, 700), (300, 300)][seed % 4]
    scale, ratio = [((0.08, 1.0), (3 / 4, 4 / 3)), ((0.9, 1.0), (0.2, 5.0)), ((0.5, 0.6), (2.0, 3.0))][seed % 3]
    transform = v2.RandomResizedCrop(224, scale=scale, ratio=ratio)
    theirs = _Scripted(seed)
    monkeypatch.setattr(torch, "empty", theirs.empty)
    monkeypatch.setattr(torch, "randint", theirs.randint)
    want = transform.make_params([torch.zeros((3, h, w), dtype=torch.uint8)])
    monkeypatch.undo()
    got = T.random_resized_crop_box(h, w, scale, ratio, _Scripted(seed))
    assert got == (want["top"], want["left"], want["height"], want["width"])


def test_random_resized_crop_box_falls_back_to_the_central_crop():
    class _Never:  # every draw too large: the fallback
        def uniform(self, lo, hi):
            return hi

        def integers(self, lo, hi):
            raise AssertionError("no corner is drawn in the fallback")

    assert T.random_resized_crop_box(50, 700, (1.0, 1.0), (3 / 4, 4 / 3), _Never()) == (0, 316, 50, 67)


@pytest.mark.parametrize("method", ["bilinear", "bicubic", "nearest", "nearest-exact"])
@pytest.mark.parametrize("antialias", [True, False])
def test_torchvision_preset_is_torchvisions_resize_and_resized_crop(method, antialias):
    image = _photo(0)
    for size in [(256, 384), (224, 224), (500, 700), tuple(image.shape[:2])]:
        want = _hwc(F.resize(_chw(image), list(size), interpolation=v2.InterpolationMode(method), antialias=antialias))
        got = T.resample(image, size, method=method, antialias=antialias, preset="torchvision")
        np.testing.assert_array_equal(got, want, err_msg=str(size))
    box = (13, 21, 201, 302)
    want = _hwc(F.resized_crop(_chw(image), *box, [224, 224], v2.InterpolationMode(method), antialias=antialias))
    crop = image[box[0] : box[0] + box[2], box[1] : box[1] + box[3]]
    np.testing.assert_array_equal(
        T.resample(crop, (224, 224), method=method, antialias=antialias, preset="torchvision"), want
    )


@pytest.mark.parametrize("method", T.PRESETS["pillow"])
def test_pillow_preset_is_pillows_resize(method):
    image = _photo(1)
    for size in [(256, 341), (37, 1000)]:
        want = np.asarray(PIL.Image.fromarray(image).resize(size[::-1], PIL.Image.Resampling[method.upper()]))
        np.testing.assert_array_equal(T.resample(image, size, method=method, antialias=True, preset="pillow"), want)


@pytest.mark.parametrize("method", ["nearest", "nearest-exact"])
def test_opencv_preset_is_cv2_resize_for_its_exact_flags(method):
    image = _photo(0)
    flag = {"nearest": cv2.INTER_NEAREST, "nearest-exact": cv2.INTER_NEAREST_EXACT}[method]
    for size in [(256, 384), (611, 999)]:
        want = cv2.resize(image, size[::-1], interpolation=flag)
        np.testing.assert_array_equal(T.resample(image, size, method=method, antialias=False, preset="opencv"), want)


@pytest.mark.parametrize("method", ["linear", "cubic", "lanczos4", "area"])
def test_opencv_preset_filters_are_within_one_of_cv2(method):
    image = _photo(0)
    want = cv2.resize(image, (384, 256), interpolation=getattr(cv2, f"INTER_{method.upper()}"))
    got = T.resample(image, (256, 384), method=method, antialias=False, preset="opencv")
    assert got.dtype == np.uint8 and np.abs(got.astype(int) - want).max() <= 1


def _nearest_exact_filters_close(got, want, method, atol):
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=0, atol=0 if method == "nearest" else atol)


@pytest.mark.parametrize("method", ["bilinear", "nearest", "bicubic", "area", "lanczos3", "mitchellcubic"])
@pytest.mark.parametrize("antialias", [True, False])
def test_tf_preset_is_tf_image_resize(method, antialias):
    """Nearest bit for bit; the filters within float32 rounding of the 0..255 range (TensorFlow's
    summation order differs: measured up to 4.6e-5)."""
    image = _photo(1)
    want = tf.image.resize(image, (256, 341), method, antialias=antialias).numpy()
    got = T.resample(image, (256, 341), method=method, antialias=antialias, preset="tf")
    _nearest_exact_filters_close(got, want, method, atol=255 * 2**-20)


@pytest.mark.parametrize("method", ["nearest", "bilinear", "bicubic", "lanczos3"])
def test_jax_preset_is_jax_image_resize(method):
    """Nearest bit for bit; filters within jax.image's own float32 rounding (its weights are float32
    and its contraction runs at the default precision: measured up to 3.7e-3 on 0..255)."""
    image = _photo(0)
    want = np.asarray(jax.image.resize(image, (256, 384, 3), method))
    got = T.resample(image, (256, 384), method=method, antialias=True, preset="jax")
    _nearest_exact_filters_close(got, want, method, atol=255 * 2**-14)


@pytest.mark.parametrize(("th", "tw"), [(224, 224), (300, 200), (100, 500), (401, 603), (7, 3)])
def test_pad_box_is_tf_resize_with_pad(th, tw):
    image = _photo(0)
    want = tf.image.resize_with_pad(image, th, tw, method="nearest").numpy()
    rh, rw, top, left = T.pad_box(*image.shape[:2], th, tw)
    canvas = np.zeros((th, tw, 3), np.uint8)
    canvas[top : top + rh, left : left + rw] = T.resample(
        image, (rh, rw), method="nearest", antialias=False, preset="tf"
    )
    np.testing.assert_array_equal(canvas, want)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(preset="pil", method="bilinear", antialias=True), ValueError, "preset='pil'.*Did you mean 'pillow'"),
        (dict(preset="torchvision", method="lanczos", antialias=True), ValueError, "method='lanczos'"),
        (dict(preset="pillow", method="bicubic", antialias=False), ValueError, "Pillow always filters"),
        (dict(preset="opencv", method="linear", antialias=True), ValueError, "no antialias switch"),
        (dict(preset="tf", method="bilinear", antialias=1), TypeError, "antialias must be a bool"),
    ],
)
def test_bad_options_are_refused_by_name(kwargs, error, match):
    with pytest.raises(error, match=match):
        T.check_method(kwargs["preset"], kwargs["method"], kwargs["antialias"])


@pytest.mark.parametrize(
    ("size", "error"), [(0, ValueError), (2.5, TypeError), ((1, 2, 3), TypeError), (True, TypeError)]
)
def test_bad_sizes_are_refused(size, error):
    with pytest.raises(error):
        T.pair("size", size)
