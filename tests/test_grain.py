"""``jax_resize.grain``: transforms in grain pipelines, against torchvision, Pillow and TensorFlow.

Real photographs of different sizes through ``grain.MapDataset`` (and a 2-worker ``DataLoader``),
compared with the library each preset names applied to the same image.
"""

import dataclasses
import io
import json
import os
import pickle
import subprocess
import sys
import textwrap

import grain
import numpy as np
import PIL.Image
import PIL.ImageOps
import pytest
import tensorflow as tf
from absl import flags
from conftest import load_photo
from tv_oracle import F, torch, v2

from jax_resize._src import pending as _pending
from jax_resize.grain import (
    CenterCrop,
    DecodeImage,
    RandomResizedCrop,
    Resize,
    ResizeWithPad,
    batch,
    decode_errors,
    on_device,
)

NAMES = ["astronaut.png", "chelsea.png", "coffee.png"]


def _photos():
    photos = [np.asarray(load_photo(n).convert("RGB")) for n in NAMES]
    return photos + [photos[0][:301, :117], photos[1][5:, 40:]]  # portrait and odd sizes


def _chw(image):
    return torch.from_numpy(np.ascontiguousarray(image.transpose(2, 0, 1)))


def _hwc(tensor):
    return tensor.numpy().transpose(1, 2, 0)


@pytest.mark.parametrize("method", ["bilinear", "bicubic"])
def test_resize_and_center_crop_equal_torchvision_v2(method):
    ds = grain.MapDataset.source(_photos()).map(Resize(256, method=method)).map(CenterCrop(224))
    reference = v2.Compose(
        [v2.Resize(256, interpolation=v2.InterpolationMode(method), antialias=True), v2.CenterCrop(224)]
    )
    for image, got in zip(_photos(), ds):
        np.testing.assert_array_equal(got, _hwc(reference(_chw(image))))


@pytest.mark.parametrize("preset", ["torchvision", "pillow"])
def test_resize_with_crop_equals_resize_then_center_crop(preset):
    images = _photos() + [_photos()[0][:200, :230]]  # the last is smaller than the crop on one axis
    for image in images:
        for crop in [224, (100, 60), (240, 250)]:
            fused = Resize(230, crop=crop, method="bicubic", preset=preset).map(image)
            apart = CenterCrop(crop).map(Resize(230, method="bicubic", preset=preset).map(image))
            np.testing.assert_array_equal(fused, apart, err_msg=str((image.shape, crop)))
            assert fused.shape == Resize(230, crop=crop).output_shape(image.shape)


def test_max_size_and_size_none_as_torchvision():
    for image in _photos():
        for t, tv in [
            (Resize(200, max_size=250), v2.Resize(200, max_size=250, antialias=True)),
            (Resize(None, max_size=300), v2.Resize(None, max_size=300, antialias=True)),
            (Resize((100, 50)), v2.Resize((100, 50), antialias=True)),
        ]:
            np.testing.assert_array_equal(t.map(image), _hwc(tv(_chw(image))))
            assert t.output_shape(image.shape) == t.map(image).shape


def test_pillow_preset_equals_pillow():
    for image in _photos():
        got = Resize(128, method="lanczos", preset="pillow").map(image)
        h, w = got.shape[:2]
        np.testing.assert_array_equal(
            got, np.asarray(PIL.Image.fromarray(image).resize((w, h), PIL.Image.Resampling.LANCZOS))
        )


def test_dict_elements_resize_their_key_and_keep_the_rest():
    elements = [{"image": image, "label": i} for i, image in enumerate(_photos())]
    ds = grain.MapDataset.source(elements).map(Resize((64, 48), key="image"))
    for i, element in enumerate(ds):
        assert element["label"] == i and element["image"].shape == (64, 48, 3)
    with pytest.raises(KeyError):
        Resize(64, key="pixels").map(elements[0])


def test_random_resized_crop_draws_torchvisions_box_from_grains_rng_and_resizes_as_resized_crop():
    t = RandomResizedCrop(224, scale=(0.2, 1.0))
    for seed, image in enumerate(_photos()):
        got = t.random_map(image, np.random.default_rng(seed))
        top, left, h, w = t.box(image.shape[0], image.shape[1], np.random.default_rng(seed))
        want = F.resized_crop(_chw(image), top, left, h, w, [224, 224], v2.InterpolationMode.BILINEAR, antialias=True)
        np.testing.assert_array_equal(got, _hwc(want))
    ds = grain.MapDataset.source(_photos()).random_map(t, seed=7)
    first, again = [x for x in ds], [x for x in ds]
    assert all(np.array_equal(a, b) for a, b in zip(first, again))  # grain's per-element rng: reproducible
    assert not all(
        np.array_equal(a, b) for a, b in zip(first, grain.MapDataset.source(_photos()).random_map(t, seed=8))
    )


@pytest.mark.parametrize("method", ["nearest", "bilinear"])
def test_resize_with_pad_equals_tf_image_resize_with_pad(method):
    for image in _photos():
        for size in [(224, 224), (100, 300)]:
            got = ResizeWithPad(size, method=method).map(image)
            want = tf.image.resize_with_pad(image, *size, method=method).numpy()
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=0, atol=0 if method == "nearest" else 255 * 2**-20)


def test_transforms_are_frozen_keyword_only_and_picklable():
    for t in [Resize(256), CenterCrop(224), RandomResizedCrop(96), ResizeWithPad(64, preset="pillow", antialias=True)]:
        assert pickle.loads(pickle.dumps(t)) == t
        with pytest.raises(dataclasses.FrozenInstanceError):
            t.size = 1
    with pytest.raises(TypeError):
        Resize(256, None, "bicubic")


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: Resize(0), ValueError, "size must be at least 1"),
        (lambda: Resize((2, 3), max_size=10), ValueError, "max_size applies to an int size"),
        (lambda: Resize(256, max_size=256), ValueError, "must be greater than size"),
        (lambda: Resize(256, preset="cv2"), ValueError, "preset='cv2'"),
        (lambda: Resize(256, method="linear"), ValueError, "method='linear'"),
        (lambda: Resize(256, key=3), TypeError, "key must be a str"),
        (lambda: CenterCrop((2, 0)), ValueError, r"size\[1\] must be at least 1"),
        (lambda: RandomResizedCrop(9, scale=(0.5, 2.0)), ValueError, "scale must be"),
        (lambda: RandomResizedCrop(9, ratio=(2.0, 1.0)), ValueError, "ratio must be"),
    ],
)
def test_bad_options_are_refused_when_built(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_an_element_that_is_not_an_image_is_refused_naming_it():
    with pytest.raises(ValueError, match=r"element\['image'\] must be an image"):
        Resize(8, key="image").map({"image": np.zeros((2, 3, 4, 5), np.uint8)})


def test_a_two_worker_data_loader_resizes_in_its_workers():
    if not flags.FLAGS.is_parsed():  # grain's workers read absl flags (an app's main parses them)
        flags.FLAGS.mark_as_parsed()
    photos = _photos()
    loader = grain.DataLoader(
        data_source=photos,
        sampler=grain.samplers.IndexSampler(len(photos), shuffle=False, num_epochs=1),
        operations=[Resize(96), CenterCrop(64)],
        worker_count=2,
    )
    got = [np.asarray(x) for x in loader]
    assert len(got) == len(photos)
    for image, out in zip(photos, got):
        np.testing.assert_array_equal(out, CenterCrop(64).map(Resize(96).map(image)))


def _jpeg(image, orientation=None):
    buffer = io.BytesIO()
    exif = PIL.Image.Exif()
    if orientation is not None:
        exif[0x0112] = orientation
    PIL.Image.fromarray(image).save(buffer, "JPEG", quality=95, exif=exif)
    return buffer.getvalue()


@pytest.mark.parametrize("orientation", [None, 3, 6, 8])
def test_decode_image_turns_photos_upright_as_pillow(orientation, tmp_path):
    data = _jpeg(_photos()[3], orientation)
    want = np.asarray(PIL.ImageOps.exif_transpose(PIL.Image.open(io.BytesIO(data))).convert("RGB"))
    if orientation in (6, 8):
        assert want.shape[:2] == _photos()[3].shape[1::-1]  # a quarter turn
    np.testing.assert_array_equal(DecodeImage().map(data), want)
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    np.testing.assert_array_equal(DecodeImage().map(str(path)), want)
    np.testing.assert_array_equal(DecodeImage(key="jpeg").map({"jpeg": path, "label": 1})["jpeg"], want)
    assert DecodeImage(mode="L").map(data).shape == want.shape[:2]


def test_undecodable_elements_are_dropped_counted_and_logged_or_raised(caplog, tmp_path):
    good = _jpeg(_photos()[0])
    bad = [good[:200], b"not an image at all", str(tmp_path / "missing.png")]
    before = sum(decode_errors().values())
    with caplog.at_level("WARNING", logger="jax_resize.grain"):
        ds = grain.MapDataset.source([good, *bad, good]).map(DecodeImage()).map(Resize(32))
        got = list(ds)
    assert len(got) == 2 and all(x.shape[0] == 32 or x.shape[1] == 32 for x in got)
    assert sum(decode_errors().values()) - before == 3
    assert len([r for r in caplog.records if "DecodeImage dropped" in r.getMessage()]) == 3
    assert "missing.png" in caplog.text and "19 bytes" in caplog.text
    with pytest.raises(ValueError, match="missing.png"):
        DecodeImage(on_error="raise").map(bad[2])
    with pytest.raises(ValueError, match="on_error='skip'"):
        DecodeImage(on_error="skip")


# --- device mode: geometry in the workers, pixels on the device ------------------------------------

DEVICE_CASES = {
    "resize_crop": lambda d: [Resize(96, crop=80, device=d)],
    "resize_then_center_crop": lambda d: [Resize((90, 120), method="bicubic", device=d), CenterCrop(100)],
    "random_resized_crop": lambda d: [RandomResizedCrop(64, device=d)],
    "letterbox_tf": lambda d: [ResizeWithPad(72, device=d)],
    "pillow_key": lambda d: [Resize(80, crop=(64, 72), preset="pillow", method="lanczos", key="image", device=d)],
    "opencv_area": lambda d: [Resize(64, crop=56, preset="opencv", method="area", device=d)],
}


def _pipeline(operations, elements):
    ds = grain.MapDataset.source(elements).seed(3)
    for op in operations:
        ds = ds.random_map(op) if isinstance(op, grain.transforms.RandomMap) else ds.map(op)
    return ds


@pytest.mark.parametrize("case", sorted(DEVICE_CASES))
def test_device_mode_equals_the_host_mode(case):
    photos = _photos() + [_photos()[0][:70, :90]]
    elements = [{"image": p, "label": i} for i, p in enumerate(photos)] if case.endswith("key") else photos
    host = list(_pipeline(DEVICE_CASES[case](False), elements).batch(3))
    device = list(on_device(_pipeline(DEVICE_CASES[case](True), elements).batch(3, batch_fn=batch)))
    assert len(device) == len(host) == 2
    for h, d in zip(host, device):
        if case.endswith("key"):
            np.testing.assert_array_equal(d["label"], h["label"])
            h, d = h["image"], d["image"]
        assert d.dtype == h.dtype and d.shape == h.shape
        np.testing.assert_allclose(np.asarray(d, float), np.asarray(h, float), atol=0 if h.dtype == np.uint8 else 1e-4)


@dataclasses.dataclass(frozen=True)
class _JaxBackendsStarted(grain.transforms.Map):
    """Adds whether this process has started a JAX backend (device mode's workers must not)."""

    def map(self, element):
        from jax._src import xla_bridge

        return {**element, "backends": xla_bridge.backends_are_initialized()}


def test_device_mode_in_two_workers_keeps_jax_out_of_them():
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    photos = _photos()
    loader = grain.DataLoader(
        data_source=[{"image": p, "index": i} for i, p in enumerate(photos)],
        sampler=grain.samplers.IndexSampler(len(photos), shuffle=False, num_epochs=1),
        operations=[
            Resize(96, crop=80, key="image", device=True),
            _JaxBackendsStarted(),
            grain.transforms.Batch(2, batch_fn=batch),
        ],
        worker_count=2,  # each worker batches its own elements: match them by index
    )
    batches = list(on_device(loader))
    assert not any(b["backends"].any() for b in batches)
    got = {int(i): np.asarray(x) for b in batches for i, x in zip(b["index"], b["image"])}
    assert sorted(got) == list(range(len(photos)))
    for i, photo in enumerate(photos):
        np.testing.assert_array_equal(got[i], Resize(96, crop=80).map(photo))


def test_a_stream_of_sizes_compiles_programs_by_grid_shape_not_by_image_size():
    rng = np.random.default_rng(11)
    photo = _photos()[0]
    images = [photo[: rng.integers(300, 512), : rng.integers(300, 512)] for _ in range(48)]
    before = len(_pending.PROGRAMS)
    ds = grain.MapDataset.source(images).map(Resize(128, crop=112, device=True)).batch(8, batch_fn=batch)
    for out in on_device(ds):
        assert out.shape == (8, 112, 112, 3)
    # 48 image sizes; batches pad to 384/448/512 per axis, taps to one or two powers of two
    assert len(_pending.PROGRAMS) - before <= 8


def test_pending_elements_refuse_host_transforms_and_mixed_batches():
    pending = Resize(50, device=True).map(_photos()[0])
    with pytest.raises(TypeError, match="only CenterCrop may follow"):
        Resize(10).map(pending)
    with pytest.raises(ValueError, match="one output shape per batch"):
        batch([pending, Resize(50, device=True).map(_photos()[1])])
    with pytest.raises(ValueError, match="preset='tf' with method='area'"):
        Resize(10, preset="tf", method="area", antialias=False, device=True)


SHARDS = textwrap.dedent(r"""
    import json, sys
    import grain, jax, numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    from conftest import load_photo
    from jax_resize.grain import Resize, batch, on_device

    shard = int(sys.argv[1])
    photos = [np.asarray(load_photo(n).convert("RGB")) for n in ("astronaut.png", "chelsea.png", "coffee.png")]
    images = [p[: 200 + 37 * i, : 180 + 53 * i] for i in range(4) for p in photos]  # 12 sizes
    loader = grain.DataLoader(
        data_source=images,
        sampler=grain.samplers.IndexSampler(len(images), shuffle=False, num_epochs=1),
        operations=[Resize(64, crop=56, device=True), grain.transforms.Batch(2, batch_fn=batch)],
        shard_options=grain.sharding.ShardOptions(shard, 2),
    )
    sharding = NamedSharding(Mesh(np.array(jax.devices()), ("data",)), P("data"))
    shapes, shards = [], []
    for out, reference in zip(on_device(loader, sharding=sharding), on_device(loader)):
        np.testing.assert_array_equal(np.asarray(out), np.asarray(reference))
        shapes.append(list(out.shape))
        shards.append(sorted(str(s.device) for s in out.addressable_shards))
        assert out.sharding.is_equivalent_to(sharding, out.ndim)
    print(json.dumps({"devices": jax.device_count(), "shapes": shapes, "shards": shards}))
""")


def test_two_shards_in_two_processes_give_the_same_shapes_sharded_over_two_devices():
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2", JAX_PLATFORMS="cpu")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), *filter(None, [env.get("PYTHONPATH")])])
    runs = [
        subprocess.Popen([sys.executable, "-c", SHARDS, str(i)], env=env, stdout=subprocess.PIPE, text=True)
        for i in range(2)
    ]
    results = []
    for run in runs:
        out, _ = run.communicate(timeout=300)
        assert run.returncode == 0
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert results[0]["devices"] == 2
    assert results[0]["shapes"] == results[1]["shapes"] == [[2, 56, 56, 3]] * 3
    assert all(s == ["TFRT_CPU_0", "TFRT_CPU_1"] or len(s) == 2 for r in results for s in r["shards"])
