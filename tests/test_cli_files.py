"""The ``jax-resize`` command on real kinds of files, run as a user runs it (a subprocess).

One test per row of issue 11's table: EXIF orientation, metadata and quality, 16-bit PNG/TIFF,
RGBA/LA alpha, animations and multi-page TIFF, overwriting the input, corrupt files, the output
pixel limit, options that do not apply, and the defaults (antialias, the meaning of cubic).
Oracles: Pillow itself (``ImageOps.exif_transpose``, ``Image.resize`` for the ``pil_*`` modes,
the quantisation tables Pillow writes for a JPEG quality, ``Image.alpha_composite``), the ONNX
reference evaluator (``conftest.reference_resize``) for linear/cubic on 8- and 16-bit data, and
OpenCV for reading 16-bit colour files back.
"""

import io
import os
import subprocess
import sys

import numpy as np
import onnx_oracles as O
import pytest
from conftest import JAX_RESIZE_MAIN, capped_failure, load_photo, reference_resize, run_capped
from PIL import Image, ImageCms, ImageOps, PngImagePlugin

RNG = np.random.default_rng(11)
XMP = (
    b'<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
    b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""/>'
    b'</rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
)


def jax_resize(*args, cwd=None):
    """Runs ``python -m jax_resize ARGS`` (the installed command's entry point)."""
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    cmd = [sys.executable, "-m", "jax_resize", *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def photo(h=60, w=80):
    """A crop of a real photograph, ``[h, w, 3]`` uint8 (asymmetric: orientation shows)."""
    return np.asarray(load_photo("astronaut.png").convert("RGB"))[100 : 100 + h, 150 : 150 + w].copy()


def srgb_profile() -> bytes:
    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def reference_uint(x, sizes, *, antialias=1, mode="linear", **attrs):
    """The ONNX reference on ``x`` (H, W axes), rounded half to even and saturated to x's dtype."""
    y = reference_resize(x.astype(np.float64), sizes=list(sizes), axes=[0, 1], mode=mode, antialias=antialias, **attrs)
    info = np.iinfo(x.dtype)
    return np.clip(np.rint(y), info.min, info.max)


def assert_reference_uint(got, x, sizes, *, antialias=1, mode="linear", exact_share=0.95, **attrs):
    """``got`` (read back from a file) against the ONNX reference on integer ``x`` (H, W axes) by
    ``onnx_oracles.judge``: round half to even of the float64 spec result, saturated to x's dtype
    (the reference's integer output agrees); the other neighbour only within float32's derived
    reach of a .5 tie, a window that must leave ``exact_share`` or more of the outputs judged exactly."""
    attrs = dict(axes=[0, 1], mode=mode, antialias=antialias, **attrs)
    case = O.ResizeCase("cli", x, sizes=np.array(sizes, np.int64), attrs=attrs)
    assert np.array_equal(got, np.asarray(got).astype(x.dtype))  # in x's range, no wrap-around below
    judged = O.judge(case, reference_resize(x, sizes=list(sizes), **attrs), np.asarray(got).astype(x.dtype))
    assert judged.cmp.ok, judged.cmp.msg
    assert judged.windowed <= (1 - exact_share) * np.size(got), (judged.windowed, np.size(got))


# -- EXIF orientation ---------------------------------------------------------------------------


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_exif_orientation_applied_before_resizing(tmp_path, orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    src = tmp_path / "camera.jpg"
    Image.fromarray(photo()).save(src, exif=exif, quality=100)
    result = jax_resize(src, tmp_path / "out.png", "--scale", "0.5", "--mode", "pil_bilinear")
    assert result.returncode == 0, result.stderr
    with Image.open(src) as img:
        upright = ImageOps.exif_transpose(img)
        want = upright.resize((upright.width // 2, upright.height // 2), Image.Resampling.BILINEAR)
    with Image.open(tmp_path / "out.png") as out:
        assert out.size == want.size  # 6 and 8 swap width and height
        np.testing.assert_array_equal(np.asarray(out), np.asarray(want))
    # JPEG output: upright pixels, so the orientation tag says 1
    assert jax_resize(src, tmp_path / "out.jpg", "--scale", "0.5").returncode == 0
    with Image.open(tmp_path / "out.jpg") as out:
        assert out.size == want.size and out.getexif()[0x0112] == 1


# -- metadata and quality -----------------------------------------------------------------------


def _quantization(quality, subsampling):
    buffer = io.BytesIO()
    Image.fromarray(photo()).save(buffer, "JPEG", quality=quality, subsampling=subsampling)
    return Image.open(buffer).quantization


def test_jpeg_metadata_kept_and_quality(tmp_path):
    exif = Image.Exif()
    exif[0x010F], exif[0x0110], exif[0x0112] = "Camera maker", "Model 1", 1
    src = tmp_path / "in.jpg"
    icc = srgb_profile()
    Image.fromarray(photo()).save(
        src, exif=exif, icc_profile=icc, dpi=(300, 300), comment=b"a comment", xmp=XMP, quality=90, subsampling=0
    )
    assert jax_resize(src, tmp_path / "out.jpg", "--size", "30x40").returncode == 0
    with Image.open(tmp_path / "out.jpg") as out:
        assert out.info["icc_profile"] == icc
        assert out.info["dpi"] == (300, 300) and out.info["comment"] == b"a comment"
        assert out.info["xmp"] == XMP
        assert out.getexif()[0x010F] == "Camera maker" and out.getexif()[0x0110] == "Model 1"
        # default quality 95, the input's 4:4:4 sampling kept: the tables Pillow writes for them
        assert out.quantization == _quantization(95, 0)
    assert jax_resize(src, tmp_path / "q50.jpg", "--size", "30x40", "--quality", "50").returncode == 0
    with Image.open(tmp_path / "q50.jpg") as out:
        assert out.quantization == _quantization(50, 0)


def test_png_webp_tiff_metadata_and_save_options(tmp_path):
    icc = srgb_profile()
    exif = Image.Exif()
    exif[0x010F] = "Camera maker"
    text = PngImagePlugin.PngInfo()
    text.add_text("Title", "a title")
    text.add_itxt("XML:com.adobe.xmp", XMP.decode())
    Image.fromarray(photo()).save(tmp_path / "in.png", icc_profile=icc, exif=exif, dpi=(200, 200), pnginfo=text)
    assert jax_resize(tmp_path / "in.png", tmp_path / "out.png", "--size", "30x40").returncode == 0
    with Image.open(tmp_path / "out.png") as out:
        assert out.info["icc_profile"] == icc and round(out.info["dpi"][0]) == 200
        assert out.getexif()[0x010F] == "Camera maker"
        assert out.text["Title"] == "a title" and out.text["XML:com.adobe.xmp"] == XMP.decode()

    Image.fromarray(photo()).save(tmp_path / "in.webp", icc_profile=icc, exif=exif, xmp=XMP, lossless=True)
    lossless = jax_resize(tmp_path / "in.webp", tmp_path / "out.webp", "--size", "30x40", "--save-option", "lossless=1")
    assert lossless.returncode == 0
    assert jax_resize(tmp_path / "in.webp", tmp_path / "out.png", "--size", "30x40", "--overwrite").returncode == 0
    with Image.open(tmp_path / "out.webp") as out, Image.open(tmp_path / "out.png") as png:
        assert out.info["icc_profile"] == icc and out.info["xmp"] == XMP
        assert out.getexif()[0x010F] == "Camera maker"
        np.testing.assert_array_equal(np.asarray(out), np.asarray(png))  # lossless=1 was passed through

    tags = {270: "a description", 305: "scanner software"}
    Image.fromarray(photo()).save(
        tmp_path / "in.tif", compression="tiff_lzw", icc_profile=icc, dpi=(600, 600), tiffinfo=tags
    )
    assert jax_resize(tmp_path / "in.tif", tmp_path / "out.tif", "--size", "30x40").returncode == 0
    with Image.open(tmp_path / "out.tif") as out:
        assert out.info["compression"] == "tiff_lzw" and out.info["dpi"] == (600, 600)
        assert out.info["icc_profile"] == icc
        assert out.tag_v2[270] == "a description" and out.tag_v2[305] == "scanner software"
    option = jax_resize(
        tmp_path / "in.tif",
        tmp_path / "deflate.tif",
        "--size",
        "30x40",
        "--save-option",
        "compression=tiff_adobe_deflate",
    )
    assert option.returncode == 0
    with Image.open(tmp_path / "deflate.tif") as out:
        assert out.info["compression"] == "tiff_adobe_deflate"


# -- bit depth ----------------------------------------------------------------------------------


def gradient16(h=48, w=64):
    """A 0..65535 gradient, ``[h, w]`` uint16."""
    return np.rint(np.linspace(0, 65535, h * w).reshape(h, w)).astype(np.uint16)


@pytest.mark.parametrize("suffix", [".png", ".tif"])
def test_16_bit_grey_stays_16_bit(tmp_path, suffix):
    grey = gradient16()
    src = tmp_path / f"in{suffix}"
    Image.fromarray(grey).save(src)
    result = jax_resize(src, tmp_path / f"out{suffix}", "--size", "24x32")
    assert result.returncode == 0, result.stderr
    with Image.open(tmp_path / f"out{suffix}") as out:
        assert out.mode == "I;16" and out.size == (32, 24)
        got = np.asarray(out).astype(np.int64)
    assert_reference_uint(got, grey, (24, 32))
    assert got.max() > 60000  # not clipped to 8 bits


@pytest.mark.parametrize("suffix", [".png", ".tif"])
def test_16_bit_colour_stays_16_bit(tmp_path, suffix):
    cv2 = pytest.importorskip("cv2")
    g = gradient16()
    rgb = np.stack([g, g[::-1], 65535 - g], axis=-1)
    src = tmp_path / f"in{suffix}"
    assert cv2.imwrite(str(src), rgb[..., ::-1])  # OpenCV stores BGR
    result = jax_resize(src, tmp_path / f"out{suffix}", "--size", "24x32", "--mode", "cubic")
    assert result.returncode == 0, result.stderr
    got = cv2.imread(str(tmp_path / f"out{suffix}"), cv2.IMREAD_UNCHANGED)[..., ::-1].astype(np.int64)
    assert got.shape == (24, 32, 3)
    # 16-bit cubic: the derived window (<= 0.12 here) covers about a fifth of the outputs
    assert_reference_uint(got, rgb, (24, 32), mode="cubic", cubic_coeff_a=-0.75, exact_share=0.75)
    assert got.max() > 60000


def test_16_bit_into_an_8_bit_format_is_converted_and_reported(tmp_path):
    grey = gradient16()
    Image.fromarray(grey).save(tmp_path / "in.png")
    result = jax_resize(tmp_path / "in.png", tmp_path / "out.jpg", "--size", "24x32", "--quality", "100")
    assert result.returncode == 0 and "16-bit values written as round(v / 257)" in result.stderr
    with Image.open(tmp_path / "out.jpg") as out:
        got = np.asarray(out).astype(np.int64)
    want = np.rint(reference_uint(grey, (24, 32)) / 257)  # not clipped white
    assert out.mode == "L" and np.max(np.abs(got - want)) <= 2


# -- alpha --------------------------------------------------------------------------------------


def edge_rgba(h=24, w=32):
    """Opaque red on the left, fully transparent green on the right (the classic fringe test)."""
    rgba = np.zeros((h, w, 4), np.uint8)
    rgba[:, : w // 2] = (255, 0, 0, 255)
    rgba[:, w // 2 :] = (0, 255, 0, 0)
    return rgba


def test_rgba_resampled_premultiplied(tmp_path):
    src = tmp_path / "in.png"
    Image.fromarray(edge_rgba()).save(src)
    for mode in ("linear", "cubic", "lanczos3", "pil_bicubic"):
        out = tmp_path / f"{mode}.png"
        assert jax_resize(src, out, "--size", "11x13", "--mode", mode).returncode == 0
        with Image.open(out) as img:
            rgba = np.asarray(img)
        visible = rgba[..., 3] > 0
        # no green bleeds from the transparent side into visible pixels
        assert img.mode == "RGBA" and visible.any() and rgba[visible][:, 1].max() == 0, mode
    # linear: the premultiplied resize computed with the ONNX reference. Colour: opaque red over
    # transparent, so colour / alpha is 1 in both computations: exactly (255, 0, 0) wherever alpha
    # is > 0. Alpha: the resize of the alpha plane (no premultiplication), judged as integers.
    rgba_in = np.asarray(Image.open(src))
    rgba = rgba_in.astype(np.float64)
    a = rgba[..., 3:] / 255
    premultiplied = np.concatenate([rgba[..., :3] * a, rgba[..., 3:]], -1)
    y = reference_resize(premultiplied, sizes=[11, 13], axes=[0, 1], mode="linear", antialias=1)
    ya = y[..., 3:]
    colour = np.where(ya > 0, y[..., :3] * 255 / np.where(ya > 0, ya, 1), 0)
    got = np.asarray(Image.open(tmp_path / "linear.png"))
    np.testing.assert_array_equal(got[..., :3], np.clip(np.rint(colour), 0, 255))
    # the edge column's alpha is 127.5 in float64 (the halves meet there), off the dyadic grid: the
    # tie window takes that column (11 of 143), the rest is judged exactly
    assert_reference_uint(got[..., 3], rgba_in[..., 3], (11, 13), exact_share=0.9)


def test_la_pil_mode_is_pillow_exact(tmp_path):
    rng = np.random.default_rng(3)
    la = np.stack([photo()[..., 1], rng.integers(0, 256, (60, 80), dtype=np.uint8)], -1)
    Image.fromarray(la).save(tmp_path / "in.png")
    assert (
        jax_resize(tmp_path / "in.png", tmp_path / "out.png", "--size", "23x31", "--mode", "pil_lanczos").returncode
        == 0
    )
    with Image.open(tmp_path / "in.png") as img, Image.open(tmp_path / "out.png") as out:
        assert out.mode == "LA"
        np.testing.assert_array_equal(np.asarray(out), np.asarray(img.resize((31, 23), Image.Resampling.LANCZOS)))


def test_alpha_into_jpeg_is_an_error_or_flattened(tmp_path):
    src = tmp_path / "in.png"
    Image.fromarray(edge_rgba()).save(src)
    refused = jax_resize(src, tmp_path / "out.jpg", "--size", "12x16")
    assert refused.returncode == 1 and not (tmp_path / "out.jpg").exists()
    assert (
        f"skipped {src}: RGBA image: JPEG has no alpha channel" in refused.stderr and "--background" in refused.stderr
    )
    # --background composites over the colour; a lossless format without alpha shows the exact pixels
    assert jax_resize(src, tmp_path / "rgba.png", "--size", "12x16").returncode == 0
    assert jax_resize(src, tmp_path / "flat.ppm", "--size", "12x16", "--background", "#0000ff").returncode == 0
    with Image.open(tmp_path / "rgba.png") as rgba, Image.open(tmp_path / "flat.ppm") as flat:
        want = Image.alpha_composite(Image.new("RGBA", rgba.size, (0, 0, 255, 255)), rgba).convert("RGB")
        assert flat.mode == "RGB"
        # Pillow's integer over-an-opaque-colour rule is round((c * a + bg * (255 - a)) / 255), which
        # never sits on a .5 tie: it equals the command's float64 rint for every (c, a, bg) byte triple
        np.testing.assert_array_equal(np.asarray(flat), np.asarray(want))
    assert jax_resize(src, tmp_path / "flat.jpg", "--size", "12x16", "--background", "white").returncode == 0


# -- frames -------------------------------------------------------------------------------------


def test_animated_gif_every_frame_and_durations(tmp_path):
    # flat colour blocks and nearest: the palette holds every colour, so pixels compare exactly
    colours = np.array([[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]], np.uint8)
    frames = [colours[np.roll(np.arange(4), k)].repeat(10, 0).reshape(4, 10, 3).repeat(8, 0) for k in range(3)]
    images = [Image.fromarray(np.ascontiguousarray(f.transpose(1, 0, 2))) for f in frames]  # 10 x 32
    src = tmp_path / "anim.gif"
    images[0].save(src, save_all=True, append_images=images[1:], duration=[100, 200, 300], loop=0)
    result = jax_resize(src, tmp_path / "out.gif", "--size", "5x16", "--mode", "pil_nearest")
    assert result.returncode == 0, result.stderr
    with Image.open(tmp_path / "out.gif") as out, Image.open(src) as img:
        assert out.n_frames == 3 and out.info.get("loop") == 0
        for k in range(3):
            out.seek(k), img.seek(k)
            assert out.info["duration"] == 100 * (k + 1)
            want = img.convert("RGB").resize((16, 5), Image.Resampling.NEAREST)
            np.testing.assert_array_equal(np.asarray(out.convert("RGB")), np.asarray(want))


def test_multipage_tiff_every_page_and_gif_in_directories(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    pages = [Image.fromarray(photo()[..., k]) for k in range(3)]
    pages[0].save(src / "scan.tif", save_all=True, append_images=pages[1:])
    pages[0].save(src / "anim.gif", save_all=True, append_images=pages[1:], duration=50)
    result = jax_resize(src, tmp_path / "dst", "--size", "30x40", "--mode", "pil_bilinear")
    assert result.returncode == 0, result.stderr
    with Image.open(tmp_path / "dst" / "scan.tif") as out:
        assert out.n_frames == 3
        for k in range(3):
            out.seek(k)
            want = pages[k].resize((40, 30), Image.Resampling.BILINEAR)
            np.testing.assert_array_equal(np.asarray(out), np.asarray(want))
    with Image.open(tmp_path / "dst" / "anim.gif") as out:
        assert out.n_frames == 3 and out.size == (40, 30)


def test_frames_into_a_one_frame_format_are_reported(tmp_path):
    pages = [Image.fromarray(photo()[..., k]) for k in range(3)]
    pages[0].save(tmp_path / "scan.tif", save_all=True, append_images=pages[1:])
    result = jax_resize(tmp_path / "scan.tif", tmp_path / "first.jpg", "--size", "30x40")
    assert result.returncode == 0 and "only the first of 3 frames written" in result.stderr


# -- not overwriting the input ------------------------------------------------------------------


def test_refuses_to_overwrite_the_input(tmp_path):
    src = tmp_path / "photo.png"
    Image.fromarray(photo()).save(src)
    before = src.read_bytes()
    same = jax_resize(src, src, "--scale", "0.5")
    into_dir = jax_resize(src, tmp_path, "--scale", "0.5")
    whole_dir = jax_resize(tmp_path, tmp_path, "--scale", "0.5")
    for result in (same, into_dir, whole_dir):
        assert result.returncode == 2 and "overwritten" in result.stderr and "--overwrite" in result.stderr
    assert src.read_bytes() == before
    assert jax_resize(src, src, "--scale", "0.5", "--overwrite").returncode == 0
    with Image.open(src) as img:
        assert img.size == (40, 30)


# -- bad files ----------------------------------------------------------------------------------


def test_corrupt_and_non_image_files_are_skipped(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    Image.fromarray(photo()).save(src / "good.png")
    Image.fromarray(photo()).save(src / "truncated.jpg")
    (src / "truncated.jpg").write_bytes((src / "truncated.jpg").read_bytes()[:200])
    (src / "notes.txt").write_text("not an image")
    (src / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")  # hidden files are not images of the folder
    result = jax_resize(src, tmp_path / "dst", "--size", "30x40")
    assert result.returncode == 1
    assert f"skipped {src / 'truncated.jpg'}: " in result.stderr
    assert f"skipped {src / 'notes.txt'}: not an image" in result.stderr
    assert "resized 1 of 3 files" in result.stderr and "2 skipped" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in (tmp_path / "dst").iterdir()) == ["good.png"]


# -- output size limit --------------------------------------------------------------------------


def test_output_pixel_limit(tmp_path):
    """A 100x upscale (2.7e9 pixels) is skipped with the size and the flag, by a command capped at
    6 GiB of address space and 30 s of CPU (``conftest.run_capped``: resizing first would die
    there; the refusal takes ~0.8 s of CPU, jax's import included); the limit can be lowered and
    raised."""
    src = tmp_path / "photo.jpg"
    Image.fromarray(np.asarray(load_photo("astronaut.png").convert("RGB").resize((640, 427)))).save(src)
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    result = run_capped(JAX_RESIZE_MAIN, src, tmp_path / "huge.png", "--scale", "100", env=env, cwd=tmp_path)
    assert not capped_failure(result), capped_failure(result)
    assert result.returncode == 1 and not (tmp_path / "huge.png").exists(), result.stderr[-2000:]
    assert "42700x64000 = 2,732,800,000 pixels" in result.stderr and "--max-output-pixels" in result.stderr
    assert "Traceback" not in result.stderr
    small = jax_resize(src, tmp_path / "x2.png", "--scale", "2", "--max-output-pixels", "1000000")
    assert small.returncode == 1 and "above the limit of 1,000,000" in small.stderr
    raised = jax_resize(src, tmp_path / "x2.png", "--scale", "2", "--max-output-pixels", "1100000")
    assert raised.returncode == 0 and Image.open(tmp_path / "x2.png").size == (1280, 854)


# -- options and defaults -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,message",
    [
        (["--mode", "lanczos3", "--coordinate-transformation-mode", "asymmetric"], "does not apply to --mode lanczos3"),
        (["--mode", "linear", "--cubic-coeff-a", "-0.5"], "--cubic-coeff-a does not apply to --mode linear"),
        (["--mode", "pil_bilinear", "--exclude-outside"], "--exclude-outside does not apply to --mode pil_bilinear"),
    ],
)
def test_options_that_do_not_apply(tmp_path, args, message):
    Image.fromarray(photo()).save(tmp_path / "in.png")
    result = jax_resize(tmp_path / "in.png", tmp_path / "out.png", "--size", "30x40", *args)
    assert result.returncode == 2 and message in result.stderr and not (tmp_path / "out.png").exists()


def test_defaults_antialias_when_shrinking_and_cubic_meaning(tmp_path):
    image = photo()
    Image.fromarray(image).save(tmp_path / "in.png")
    for mode, attrs in (("linear", {}), ("cubic", dict(cubic_coeff_a=-0.75))):
        assert (
            jax_resize(tmp_path / "in.png", tmp_path / f"{mode}.png", "--size", "20x27", "--mode", mode).returncode == 0
        )
        got = np.asarray(Image.open(tmp_path / f"{mode}.png")).astype(np.int64)
        assert_reference_uint(got, image, (20, 27), mode=mode, **attrs)
        off = jax_resize(tmp_path / "in.png", tmp_path / "off.png", "--size", "20x27", "--mode", mode, "--no-antialias")
        assert off.returncode == 0
        got = np.asarray(Image.open(tmp_path / "off.png")).astype(np.int64)
        assert_reference_uint(got, image, (20, 27), mode=mode, antialias=0, **attrs)
    help_text = jax_resize("--help").stdout
    assert "a = --cubic-coeff-a, default -0.75" in " ".join(help_text.split())
