"""``jax_resize._src.image_files``: reading pictures upright with their bit depth, writing them back.

Oracles: Pillow (``ImageOps.exif_transpose`` for the orientation table, its own save/open for what
a format can hold) and OpenCV for 16-bit colour files.
"""

import numpy as np
import pytest
from PIL import Image, ImageOps

from jax_resize._src import image_files as files

RNG = np.random.default_rng(5)


@pytest.mark.parametrize("orientation", range(1, 9))
def test_orientation_table_matches_pillow(tmp_path, orientation):
    # the numpy table used for 16-bit colour files turns pixels as ImageOps.exif_transpose does
    array = RNG.integers(0, 256, (5, 7, 3), dtype=np.uint8)
    exif = Image.Exif()
    exif[files.ORIENTATION] = orientation
    Image.fromarray(array).save(tmp_path / "in.png", exif=exif)
    with Image.open(tmp_path / "in.png") as img:
        want = np.asarray(ImageOps.exif_transpose(img))
    got = files._ORIENT.get(orientation, lambda a: a)(array)
    np.testing.assert_array_equal(got, want)
    picture = files.read_picture(tmp_path / "in.png")  # the Pillow path reads it upright, tag reset
    np.testing.assert_array_equal(picture.frames[0], want)
    assert picture.info["exif"][files.ORIENTATION] == 1


def test_16_bit_colour_read_upright(tmp_path):
    cv2 = pytest.importorskip("cv2")
    array = RNG.integers(0, 65536, (5, 7, 4), dtype=np.uint16)
    assert cv2.imwrite(str(tmp_path / "in.png"), array[..., [2, 1, 0, 3]])
    picture = files.read_picture(tmp_path / "in.png")
    assert picture.mode == "RGBA;16" and picture.has_alpha and picture.maxval == 65535
    np.testing.assert_array_equal(picture.frames[0], array)


@pytest.mark.parametrize(
    "data,reason",
    [(b"", "not an image"), (b"\x89PNG\r\n\x1a\n" + b"\0" * 20, "not an image"), (b"hello", "not an image")],
)
def test_unreadable_files_raise_picture_error(tmp_path, data, reason):
    (tmp_path / "bad.png").write_bytes(data)
    with pytest.raises(files.PictureError, match=reason):
        files.read_picture(tmp_path / "bad.png")


def test_output_format_and_what_formats_hold():
    assert files.output_format("a/b.JPG") == "JPEG" and files.output_format("x.tif") == "TIFF"
    with pytest.raises(files.PictureError, match="cannot write .xyz"):
        files.output_format("out.xyz")
    assert files.can_write("PNG", "RGBA") and files.can_write("PNG", "I;16") and files.can_write("TIFF", "RGB;16")
    assert not files.can_write("JPEG", "RGBA") and not files.can_write("JPEG", "I;16")


def test_plan_output_refuses_or_reports():
    rgba = files.Picture([np.zeros((2, 2, 4), np.uint8)], "RGBA", "PNG", {})
    with pytest.raises(files.PictureError, match="JPEG has no alpha channel.*--background"):
        files.plan_output(rgba, "JPEG", None)
    assert files.plan_output(rgba, "JPEG", (255, 255, 255)) == ("RGB", [])
    grey16 = files.Picture([np.zeros((2, 2), np.uint16)], "I;16", "PNG", {})
    mode, notes = files.plan_output(grey16, "JPEG", None)
    assert mode == "L" and "round(v / 257)" in notes[0]
    frames = files.Picture([np.zeros((2, 2), np.uint8)] * 3, "L", "TIFF", {})
    assert "only the first of 3 frames" in files.plan_output(frames, "JPEG", None)[1][0]
