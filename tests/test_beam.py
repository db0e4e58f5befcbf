"""jax_resize.beam: the job on a folder of mixed files (two worker processes) and ResizeImages on bytes.

Oracles: the ``jax-resize`` command run in-process on the same folder (the files it writes, byte for
byte, and its reasons), and independently Pillow itself (``ImageOps.exif_transpose`` then
``Image.resize``, which the ``pil_*`` modes reproduce bit for bit; JPEG outputs re-encoded by Pillow
with the same quality and subsampling).
"""

import io
import subprocess
import sys

import numpy as np
import pytest
from conftest import load_photo
from PIL import Image, ImageOps, JpegImagePlugin

beam = pytest.importorskip("apache_beam")
from apache_beam.testing.util import assert_that

from jax_resize import beam as jbeam
from jax_resize._src import cli

# the DirectRunner tries the Prism runner first (a binary it downloads); its fallback, the
# FnApiRunner, is the runner of --direct_running_mode
FN_API = "apache_beam.runners.portability.fn_api_runner.FnApiRunner"
SIZE = (24, 32)  # (h, w)


def _photo(name, box, mode="RGB"):
    return load_photo(name).convert(mode).crop(box)


def _encoded(img, fmt, **kw) -> bytes:
    buffer = io.BytesIO()
    img.save(buffer, fmt, **kw)
    return buffer.getvalue()


def _folder(src):
    """Mixed files: photos of several sizes and formats, an EXIF-rotated JPEG, broken files."""
    src.mkdir()
    _photo("astronaut.png", (100, 80, 220, 170)).save(src / "astronaut.jpg", quality=90)
    _photo("chelsea.png", (50, 40, 120, 140)).save(src / "chelsea.png")
    _photo("camera.png", (200, 100, 264, 148), "L").save(src / "camera.png")
    exif = Image.Exif()
    exif[0x0112] = 6  # stored 100 wide x 60 high, shown 60 wide x 100 high
    _photo("coffee.png", (150, 100, 250, 160)).save(src / "rotated.jpg", exif=exif, quality=92)
    _photo("astronaut.png", (0, 0, 300, 200)).save(src / "exists.png")
    (src / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(200)))
    (src / "truncated.jpg").write_bytes((src / "astronaut.jpg").read_bytes()[:600])
    (src / "notes.txt").write_text("not an image\n")
    _photo("chelsea.png", (0, 0, 20, 20)).save(src / ".hidden.png")  # ignored, as the command ignores it


def _pillow_oracle(path, out_path):
    """Pillow's upright BILINEAR resize of ``path``, encoded as ``out_path``'s format is written."""
    with Image.open(path) as img:
        want = ImageOps.exif_transpose(img).resize(SIZE[::-1], Image.Resampling.BILINEAR)
        if img.format != "JPEG":
            return np.asarray(want)
        sampling = JpegImagePlugin.get_sampling(img)
    return np.asarray(Image.open(io.BytesIO(_encoded(want, "JPEG", quality=95, subsampling=sampling))))


def test_the_job_writes_or_reports_every_file_as_the_command_does(tmp_path, monkeypatch, capsys, pillow_oracle):
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")  # the worker processes inherit it
    src, dst, oracle = tmp_path / "src", tmp_path / "dst", tmp_path / "oracle"
    _folder(src)
    dst.mkdir()
    (dst / "exists.png").write_bytes(b"kept")
    options = ["--size", f"{SIZE[0]}x{SIZE[1]}", "--mode", "pil_bilinear"]

    assert cli.main([str(src), str(oracle), *options, "--quiet"]) == 1
    command_reasons = dict(
        line.removeprefix("skipped ").split(": ", 1)
        for line in capsys.readouterr().err.splitlines()
        if line.startswith("skipped ")
    )
    runner = [f"--runner={FN_API}", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
    assert jbeam.main(["--input", str(src / "*"), "--output", str(dst), *options, *runner]) == 1
    summary = capsys.readouterr().err
    assert f"resized 4 of 8 files into {dst}; 4 skipped" in summary

    (report,) = dst.glob("jax-resize-report-*.tsv")
    rows = [line.split("\t") for line in report.read_text().splitlines()[1:]]
    by_source = {row[1]: row for row in rows}
    inputs = sorted(str(p) for p in src.iterdir() if not p.name.startswith("."))
    assert sorted(by_source) == inputs and len(rows) == len(inputs)  # every input once, nothing lost
    written = {name for name in ("astronaut.jpg", "chelsea.png", "camera.png", "rotated.jpg")}
    for source, (status, _, what, *_) in by_source.items():
        name = source.rsplit("/", 1)[1]
        if name in written:
            assert status == "written" and what == str(dst / name)
        elif name == "exists.png":
            assert status == "skipped" and "exists" in what
        else:
            assert status == "skipped" and what == command_reasons[source], (name, what)
    assert (dst / "exists.png").read_bytes() == b"kept"  # never written over
    assert sorted(p.name for p in dst.iterdir() if not p.name.endswith(".tsv")) == sorted(written | {"exists.png"})

    for name in written:
        got = dst / name
        assert got.read_bytes() == (oracle / name).read_bytes()  # the command's file: pixels and metadata
        with Image.open(got) as img:
            assert img.size == SIZE[::-1] and img.getexif().get(0x0112, 1) == 1
            np.testing.assert_array_equal(np.asarray(img), _pillow_oracle(src / name, got))


def _check_outcomes(photos):
    def check(outcomes):
        by_source = {o.source: o for o in outcomes}
        assert sorted(by_source, key=str) == sorted([*photos, "broken", None], key=str)
        assert "not an image Pillow can read" in by_source["broken"].error
        for name, img in photos.items():
            outcome = by_source[name]
            assert outcome.error is None and outcome.target is None and outcome.out_size == (12, 15)
            assert outcome.picture.format == "PNG" and outcome.picture.mode == img.mode
            want = np.asarray(img.resize((15, 12), Image.Resampling.BICUBIC))
            np.testing.assert_array_equal(outcome.picture.frames[0], want)
        assert by_source[None].picture.frames[0].shape == (12, 15, 3)

    return check


def test_resize_images_on_encoded_bytes_in_a_pipeline(pillow_oracle):
    photos = {
        "rgb": _photo("chelsea.png", (10, 20, 50, 52)),
        "grey": _photo("camera.png", (30, 30, 70, 62), "L"),
        "rgba": _photo("astronaut.png", (5, 5, 45, 37), "RGBA"),
    }
    elements = [(name, _encoded(img, "PNG")) for name, img in photos.items()]
    elements += [("broken", b"GIF89a" + bytes(40)), _encoded(photos["rgb"], "PNG")]  # bare bytes: source None
    with beam.Pipeline(runner=FN_API) as pipeline:
        outcomes = pipeline | beam.Create(elements) | jbeam.ResizeImages(size=(12, 15), mode="pil_bicubic")
        assert_that(outcomes, _check_outcomes(photos))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(), ValueError, "one of size and scale"),
        (dict(size=4, scale=0.5), ValueError, "one of size and scale"),
        (dict(size=(4, 0)), ValueError, r"size must be .*\(4, 0\)"),
        (dict(scale="half"), ValueError, "scale must be .*'half'"),
        (dict(size=4, mode="bogus"), ValueError, "mode must be one of .*'bogus'"),
        (dict(size=4, quality=0), ValueError, "quality must be .* 0"),
        (dict(size=4, background="not-a-colour"), ValueError, "background must be"),
        (dict(size=4, cubic_coeff_a=-0.5), ValueError, "does not apply to --mode linear"),
        (dict(size=4, antialiasing=True), TypeError, "unknown keyword.*antialiasing"),
    ],
)
def test_bad_arguments_are_refused_naming_them(kwargs, error, match):
    with pytest.raises(error, match=match):
        jbeam.ResizeImages(**kwargs)


def test_the_job_refuses_a_glob_matching_nothing(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        jbeam.main(["--input", str(tmp_path / "*.jpg"), "--output", str(tmp_path / "out"), "--size", "8"])
    assert exit_info.value.code == 2 and "matches no file" in capsys.readouterr().err


def test_import_jax_resize_does_not_import_beam():
    code = "import sys, jax_resize; assert 'apache_beam' not in sys.modules and 'jax_resize.beam' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
