"""``jax-resize demo``: the sheet is written where asked (the current folder by default), its title
and headings give the sizes, and its parity row shows jax_resize equal to Pillow.

Oracles: Pillow's ``Image.resize(..., BICUBIC)`` on the bundled photo opened by the test itself,
``jax.image.resize`` for the panel it is named on, pixel repetition (hand-computable) for nearest
x4 and the x2 display enlargement.
"""

import importlib.resources

import jax
import numpy as np
import pytest
from conftest import bundled_photo_path
from PIL import Image, ImageFont, features

from jax_resize._src import cli, demo


@pytest.fixture(scope="module")
def photo():
    with importlib.resources.as_file(bundled_photo_path()) as path, Image.open(path) as img:
        return np.asarray(img.convert("RGB"))


@pytest.fixture(scope="module")
def contents():
    return demo.sheet(demo.load_photo())


def _repeat(image, k):
    return np.repeat(np.repeat(image, k, axis=0), k, axis=1)


def test_writes_where_asked(tmp_path):
    path = tmp_path / "sub" / "sheet.png"
    assert demo.write_sheet(path) == path
    with Image.open(path) as sheet:
        assert sheet.format == "PNG" and sheet.mode == "RGB"
        width, height = sheet.size
        assert width >= 4 * demo.PANEL and height >= 3 * demo.PANEL
        title = np.asarray(sheet.convert("L"))[: demo.MARGIN + 20]
    assert (title < 128).sum() > 200  # the title line is drawn


def test_default_goes_to_the_current_folder(tmp_path, monkeypatch, contents, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(demo, "sheet", lambda photo: contents)  # drawing only: contents are tested below
    assert demo.write_sheet().resolve() == tmp_path / "jax_resize_demo.png"
    assert (tmp_path / "jax_resize_demo.png").is_file()
    (tmp_path / "jax_resize_demo.png").unlink()
    assert cli.main(["demo"]) == 0  # the command's default too
    assert (tmp_path / "jax_resize_demo.png").is_file()
    assert capsys.readouterr().out.strip() == "jax_resize_demo.png"


def test_title_and_headings_give_the_sizes(contents, photo):
    height, width = photo.shape[:2]
    crop = photo[demo.CROP]
    assert contents.title.startswith(f"jax_resize demo — astronaut.png {width}×{height} → {demo.SMALL}×{demo.SMALL}")
    assert f"crop {crop.shape[1]}×{crop.shape[0]} → {demo.PANEL}×{demo.PANEL}" in contents.title
    upscale, downscale, same = contents.rows
    assert f"{crop.shape[1]}×{crop.shape[0]} face crop → {demo.PANEL}×{demo.PANEL}" in upscale.heading
    assert f"{width}×{height} → {demo.SMALL}×{demo.SMALL}" in downscale.heading
    assert f"{width}×{height} → {demo.SMALL}×{demo.SMALL}" in same.heading and "Pillow" in same.heading
    for row in contents.rows:
        assert len(row.panels) == 4
        for label, image in row.panels:
            assert image.shape == (demo.PANEL, demo.PANEL, 3) and image.dtype == np.uint8, label
    # words, not attribute names, for the modes
    assert [label for label, _ in upscale.panels + downscale.panels] == [
        "nearest",
        "linear, align corners",
        "linear, half pixel",
        "cubic, a = −0.75",
        "linear, no antialias",
        "linear, antialias",
        "cubic, no antialias",
        "cubic, antialias",
    ]


def test_upscale_nearest_is_repetition(contents, photo):
    label, image = contents.rows[0].panels[0]
    zoom = demo.PANEL // photo[demo.CROP].shape[0]
    np.testing.assert_array_equal(image, _repeat(photo[demo.CROP], zoom), err_msg=label)


def test_parity_row_equals_pillow(contents, photo):
    want = np.asarray(Image.fromarray(photo).resize((demo.SMALL, demo.SMALL), Image.Resampling.BICUBIC))
    np.testing.assert_array_equal(demo.parity(photo).jax_resize, want)
    (ours_label, ours), (pil_label, pil), (diff_label, diff), (jax_label, jax_diff) = contents.rows[2].panels
    k = demo.PANEL // demo.SMALL
    assert "pil_bicubic" in ours_label and "BICUBIC" in pil_label
    np.testing.assert_array_equal(ours, _repeat(want, k))
    np.testing.assert_array_equal(pil, _repeat(want, k))
    assert diff_label == "|jax_resize − Pillow|\nmax difference 0" and not diff.any()
    # jax.image.resize on the same task (its float result rounded to uint8) differs from Pillow
    floats = np.asarray(jax.image.resize(photo.astype(np.float32), (demo.SMALL, demo.SMALL, 3), "cubic"))
    theirs = np.clip(np.round(floats), 0, 255).astype(np.uint8)
    worst = int(np.abs(theirs.astype(np.int16) - want).max())
    assert worst > 0 and jax_label == f"|jax.image.resize − Pillow|\nmax difference {worst}"
    assert jax_diff.max() == min(255, worst * demo.AMPLIFY)


def _assert_labels_fit(contents):
    face, unicode = demo.font(14)  # the labels' font
    for row in contents.rows:
        for label, _ in row.panels:
            for line in demo.drawable(label, unicode).splitlines():
                assert face.getlength(line) <= demo.PANEL + demo.GAP, line


def test_labels_fit_their_panels(contents):
    _assert_labels_fit(contents)


def test_font_fallbacks(tmp_path, monkeypatch, contents):
    monkeypatch.setattr(demo, "sheet", lambda photo: contents)
    # without DejaVu Sans: Pillow's scalable default font, text in ASCII
    monkeypatch.setattr(demo, "FONT_FILES", ("no-such-font.ttf", "no-such-font-bold.ttf"))
    face, unicode = demo.font(14)
    assert not unicode and demo.drawable("512×512 → 112×112 — a = −1", unicode) == "512x512 -> 112x112 - a = -1"
    if features.check("freetype2"):
        assert isinstance(face, ImageFont.FreeTypeFont) and face.size == 14
    _assert_labels_fit(contents)
    assert demo.write_sheet(tmp_path / "default_font.png").is_file()

    # Pillow < 10.1 (no size argument) or without FreeType: the bitmap font, which cannot encode "→"
    def load_default(*args, **kwargs):
        if args or kwargs:
            raise TypeError("load_default() takes no arguments")
        return ImageFont.load_default_imagefont()

    monkeypatch.setattr(ImageFont, "load_default", load_default)
    face, unicode = demo.font(14)
    assert not unicode and not isinstance(face, ImageFont.FreeTypeFont)
    _assert_labels_fit(contents)
    assert demo.write_sheet(tmp_path / "bitmap_font.png").is_file()
