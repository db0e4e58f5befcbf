"""``openvino_interpolate`` against the OpenVINO runtime and OpenVINO's own test tables.

Oracles (never our own output):
  * the reference implementation (REF): ``Node.evaluate`` on an ``opset11.interpolate`` node,
    which is what constant folding runs and what follows the spec;
  * the CPU plugin (compiled with ``INFERENCE_PRECISION_HINT=f32``) in its standard layouts;
    where it departs from the reference (``_CPU_RULES``), the case is judged against REF instead
    and the plugin is asserted to equal REF run with the plugin's rule (how it departs);
  * the expected values of OpenVINO's reference tests (``op_reference/interpolate.cpp``), and
    hand-computed cases for the CPU plugin's documented deviations.

Known runtime defects avoided by the case generators (openvino 2026.4; each crashes the process
or returns wrong values, see ``docs/notes/openvino_pillow_semantics.md``): REF with a zero-size
output (crash); REF ``*_pillow`` with axes in descending order (uninitialised values, crash);
REF ``linear_onnx`` at rank >= 4 when axis 0/1 changes or a spatial axis is the identity (wrong
values, heap corruption); CPU outside the standard layouts listed in ``_cpu_case``.
"""

import jax
import numpy as np
import pytest
from jax.test_util import check_grads

import jax_resize

ov = pytest.importorskip("openvino")
from openvino import opset11  # noqa: E402

MODES = ["nearest", "linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"]
CTMS = ["half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners"]
NEAREST_MODES = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple"]
_CORE = ov.Core()
_TYPES = {np.dtype(np.float32): ov.Type.f32, np.dtype(np.uint8): ov.Type.u8, np.dtype(np.int32): ov.Type.i32}


def _node(x, values, axes, kw):
    param = opset11.parameter(list(x.shape), _TYPES[x.dtype])
    scales = kw["shape_calculation_mode"] == "scales"
    vals = opset11.constant(np.array(values, np.float32 if scales else np.int64))
    ax = None if axes is None else opset11.constant(np.array(axes, np.int64))
    attrs = dict(kw)
    attrs["pads_begin"] = list(attrs.get("pads_begin", [0]))
    attrs["pads_end"] = list(attrs.get("pads_end", [0]))
    return param, opset11.interpolate(param, vals, axes=ax, **attrs)


def ov_shape(x, values, axes, **kw):
    """The output shape from OpenVINO's shape inference."""
    return tuple(_node(np.asarray(x), values, axes, kw)[1].get_output_partial_shape(0).to_shape())


def ov_cpu(x, values, axes=None, **kw):
    x = np.asarray(x)
    param, node = _node(x, values, axes, kw)
    compiled = _CORE.compile_model(ov.Model([node], [param]), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return compiled([x])[0]


def ov_ref(x, values, axes=None, **kw):
    """OpenVINO's reference implementation, through ``Node.evaluate``."""
    x = np.asarray(x)
    _, node = _node(x, values, axes, kw)
    out = ov.Tensor(node.get_output_element_type(0), list(node.get_output_partial_shape(0).to_shape()))
    scales = kw["shape_calculation_mode"] == "scales"
    inputs = [ov.Tensor(x), ov.Tensor(np.array(values, np.float32 if scales else np.int64))]
    if axes is not None:
        inputs.append(ov.Tensor(np.array(axes, np.int64)))
    assert node.evaluate([out], inputs), "Node.evaluate failed"
    return out.data.copy()


def ours(x, values, axes=None, **kw):
    return np.asarray(jax_resize.openvino_interpolate(x, values, axes, **kw))


# --------------------------------------------------------------------------------------------
# random cases


def _values(rng, scm, padded, axes):
    if scm == "scales":
        pool = [0.25, 0.5, 0.6, 0.7, 0.75, 0.8, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 0.333]
        return [float(np.float32(rng.choice(pool) if rng.random() < 0.7 else rng.uniform(0.3, 3.2))) for _ in axes]
    return [int(rng.integers(1, 13)) for _ in axes]


def _attrs(rng, mode, scm, rank, pads):
    pb = [int(v) for v in rng.integers(0, 3, rank)] if pads and rng.random() < 0.5 else [0]
    pe = [int(v) for v in rng.integers(0, 3, rank)] if pads and rng.random() < 0.5 else [0]
    return dict(
        mode=mode,
        shape_calculation_mode=scm,
        coordinate_transformation_mode=str(rng.choice(CTMS)),
        nearest_mode=str(rng.choice(NEAREST_MODES)),
        antialias=bool(rng.random() < 0.5),
        pads_begin=pb,
        pads_end=pe,
        cube_coeff=float(rng.choice([-0.75, -0.5, -0.6])),
    )


def _padded(shape, kw):
    pb, pe = kw["pads_begin"] + [0] * len(shape), kw["pads_end"] + [0] * len(shape)
    return [s + pb[i] + pe[i] for i, s in enumerate(shape)]


def _ref_case(rng, mode):
    """A case for REF: any rank 2-5, axes in any order (ascending for *_pillow), pads."""
    while True:
        rank = int(rng.integers(2, 6)) if mode != "linear_onnx" else int(rng.integers(2, 4))
        shape = [int(v) for v in rng.integers(1, 9, rank)]
        if mode.endswith("_pillow"):
            axes = sorted(int(a) for a in rng.permutation(rank)[:2])
        elif mode == "linear_onnx":
            axes = list(range(rank))
        else:  # REF's linear costs prod(window sizes) per output: at most 3 axes
            count = int(rng.integers(1, (rank if mode != "linear" else min(rank, 3)) + 1))
            axes = [int(a) for a in rng.permutation(rank)[:count]]
        scm = str(rng.choice(["scales", "sizes"]))
        kw = _attrs(rng, mode, scm, rank, pads=True)
        values = _values(rng, scm, _padded(shape, kw), axes)
        if 0 not in ov_shape(np.zeros(shape, np.float32), values, axes, **kw):
            return shape, values, axes, kw


def _cpu_case(rng, mode):
    """A case in the CPU plugin's standard layouts: rank 2 (any axes), rank 4 NCHW (axes within
    {2, 3}) or NHWC (within {1, 2}, no pads: CPU gets NHWC pads' output shapes wrong) and rank 5
    (within {2, 3, 4}), pads on the resized axes. Every other attribute is kept as drawn: where
    the plugin departs from the reference (``_cpu_rules``) the case is judged against REF and the
    plugin's departure is asserted instead."""
    while True:
        rank = int(rng.choice([2, 4, 4, 5]))
        shape = [int(v) for v in rng.integers(1, 9, rank)]
        if rank == 2:
            space = [0, 1]
        elif rank == 4:
            space = [2, 3] if rng.random() < 0.6 else [1, 2]
        else:
            space = [2, 3, 4]
        if mode.endswith("_pillow"):  # either order at rank 2 and NCHW, else ascending
            axes = [int(a) for a in (rng.permutation(space[-2:]) if space[-1] == rank - 1 < 4 else space[-2:])]
        else:
            axes = [int(a) for a in rng.permutation(space)[: int(rng.integers(1, len(space) + 1))]]
        scm = str(rng.choice(["scales", "sizes"]))
        kw = _attrs(rng, mode, scm, rank, pads=True)
        for key in ("pads_begin", "pads_end"):  # pads only on resized axes, and not in NHWC
            kw[key] = [p if i in axes and space[-1] == rank - 1 else 0 for i, p in enumerate(kw[key] + [0] * rank)][
                :rank
            ]
        values = _values(rng, scm, _padded(shape, kw), axes)
        if 0 not in ov_shape(np.zeros(shape, np.float32), values, axes, **kw):
            return shape, values, axes, kw


def _round_half_away(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


# OpenVINO computes integer results in double (REF) or in float32 in its own order (CPU), we in
# float32: a result within this distance of a .5 tie may round to either side.
_TIE_SLACK = 1e-3


def _near_tie(v):
    return np.abs(v - np.floor(v) - 0.5) < _TIE_SLACK


def _pillow_passes(x, values, axes, kw, lo, hi):
    """REF's ``*_pillow`` on integer data, pass by pass, each pass run by REF itself on float32
    data: the second of the two axes first, then the first (REF's order), rounding half away from
    zero and clipping to ``[lo, hi]`` after each pass. Returns ``(result, near)``: the integer
    result and where it sits on a near tie (in the second pass, or fed by one of the first)."""
    axes = list(range(x.ndim)) if axes is None else list(axes)
    scales = kw["shape_calculation_mode"] == "scales"
    padded = _padded(
        list(x.shape), dict(kw, pads_begin=list(kw.get("pads_begin", [0])), pads_end=list(kw.get("pads_end", [0])))
    )
    f1 = ov_ref(x.astype(np.float32), [1.0 if scales else padded[axes[0]], values[1]], axes, **kw)
    mid = np.clip(_round_half_away(f1.astype(np.float64)), lo, hi)
    kw2 = dict(kw, pads_begin=[0], pads_end=[0])
    second = [values[0], 1.0 if scales else mid.shape[axes[1]]]
    f2 = ov_ref(mid.astype(np.float32), second, axes, **kw2).astype(np.float64)
    fed = ov_ref(_near_tie(f1.astype(np.float64)).astype(np.float32), second, axes, **kw2) != 0
    return np.clip(_round_half_away(f2), lo, hi), _near_tie(f2) | fed


def _integer_expectation(oracle, x, values, axes, kw):
    """The oracle's integer result and where it may differ from ours by 1: OpenVINO's own float
    result (same oracle, float32 data; *_pillow pass by pass) within _TIE_SLACK of a .5 tie."""
    want = oracle(x, values, axes, **kw)
    info = np.iinfo(x.dtype)
    if kw["mode"].endswith("_pillow"):
        emulated, near = _pillow_passes(x, values, axes, kw, info.min, info.max)
        # the pass-by-pass emulation is REF's computation: equal to it away from near ties
        np.testing.assert_array_equal(emulated[~near], want[~near].astype(np.float64))
    else:
        near = _near_tie(oracle(x.astype(np.float32), values, axes, **kw).astype(np.float64))
    return want, near


# --------------------------------------------------------------------------------------------
# the CPU plugin's departures from the reference (docs/notes/openvino_pillow_semantics.md)

_CPU_RULES = {
    "linear_ignores_antialias": "linear at rank <= 4 runs linear_onnx: antialias has no effect",
    "linear_always_antialiases": "linear at rank 5 uses a = s whenever antialias is set, even if nothing downsamples",
    "bicubic_pillow_ignores_cube_coeff": "bicubic_pillow at rank <= 4 uses a = -0.5 whatever cube_coeff is",
    "align_corners_order": "nearest align_corners coordinate evaluated as o * ((in - 1) / (out - 1))",
    "casts_integers": "linear and cubic at rank 5 cast integer results (truncate toward zero, wrap around)",
}


def _axis_geometry(x, values, axes, kw):
    """``(padded, outs, scales)``: padded input shape, output length and float32 scale of each axis
    in ``axes``, as OpenVINO defines them (sizes: ``f32(out) / f32(padded in)``)."""
    padded = _padded(
        list(x.shape), dict(kw, pads_begin=list(kw.get("pads_begin", [0])), pads_end=list(kw.get("pads_end", [0])))
    )
    out = ov_shape(x, values, axes, **kw)
    outs = [out[a] for a in axes]
    if kw["shape_calculation_mode"] == "scales":
        scales = [np.float32(v) for v in values]
    else:
        scales = [np.float32(o) / np.float32(padded[a]) for a, o in zip(axes, outs)]
    return padded, outs, scales


def _nearest_index(n, out, s, nearest_mode, order):
    """The spec's nearest source index of every output of one align_corners axis, float32, with
    the coordinate evaluated in ``order``: ``"ref"`` ``(o * (in - 1)) / (out - 1)`` (REF) or
    ``"cpu"`` ``o * ((in - 1) / (out - 1))`` (the CPU plugin)."""
    if out == n or s == np.float32(1):
        return np.arange(n)  # the identity shortcut (x = o)
    o = np.arange(out, dtype=np.float32)
    if out == 1:
        x = np.zeros(1, np.float32)
    elif order == "ref":
        x = (o * np.float32(n - 1)) / np.float32(out - 1)
    else:
        x = o * (np.float32(n - 1) / np.float32(out - 1))
    x = x.astype(np.float64)  # exact: every rounding below is of the float32 value
    half_away = np.floor(x + 0.5)  # x >= 0 here
    rounded = {
        "round_prefer_floor": np.where(x == np.trunc(x) + 0.5, np.floor(x), half_away),
        "round_prefer_ceil": half_away,
        "floor": np.floor(x),
        "ceil": np.ceil(x),
        "simple": np.ceil(x) if s < 1 else np.trunc(x),
    }[nearest_mode]
    return np.clip(rounded, 0, n - 1).astype(np.int64)


def _cpu_rules(x, values, axes, kw):
    """The departures in ``_CPU_RULES`` that apply to this case (empty: the plugin follows REF).
    A rule is listed only where it touches a resized axis (align_corners: where the two orders
    give different indices); it can still leave the result unchanged (symmetric taps)."""
    rank, mode = x.ndim, kw["mode"]
    padded, outs, scales = _axis_geometry(x, values, axes, kw)
    resized = [o != padded[a] for a, o in zip(axes, outs)]
    downsampling = any(s < 1 for s in scales)
    rules = []
    if mode == "linear" and kw["antialias"] and downsampling and rank <= 4:
        rules.append("linear_ignores_antialias")
    if mode == "linear" and kw["antialias"] and not downsampling and rank == 5 and any(resized):
        rules.append("linear_always_antialiases")
    if mode == "bicubic_pillow" and kw["cube_coeff"] != -0.5 and rank <= 4 and any(resized):
        rules.append("bicubic_pillow_ignores_cube_coeff")
    if mode == "nearest" and kw["coordinate_transformation_mode"] == "align_corners":
        nm = kw["nearest_mode"]
        if any(
            not np.array_equal(_nearest_index(padded[a], o, s, nm, "ref"), _nearest_index(padded[a], o, s, nm, "cpu"))
            for a, o, s in zip(axes, outs, scales)
        ):
            rules.append("align_corners_order")
    if np.issubdtype(x.dtype, np.integer) and mode in ("linear", "cubic") and rank == 5 and any(resized):
        rules.append("casts_integers")
    return rules


def _ref_float(x, values, axes, kw):
    """REF on float32 data; the Pillow modes with their axes ascending (REF returns uninitialised
    values for descending ones; in float the pass order changes nothing beyond rounding)."""
    x = np.asarray(x, np.float32)
    if kw["mode"].endswith("_pillow") and list(axes) != sorted(axes):
        order = np.argsort(axes)
        axes, values = [axes[i] for i in order], [values[i] for i in order]
    return ov_ref(x, values, axes, **kw)


def _integer_result(f, info, casts):
    """Integer result of float result ``f`` and where it may be off by one: rounded half to even
    and saturated (ours), or cast (truncated and wrapped, the CPU's rank-5 linear/cubic); a value
    within _TIE_SLACK of a .5 tie (rounding) or of an integer (truncation) may fall either side."""
    f = f.astype(np.float64)
    if casts:
        low, span = int(info.min), int(info.max) + 1 - int(info.min)
        wrapped = (np.trunc(f).astype(np.int64) - low) % span + low
        return wrapped, np.abs(f - np.rint(f)) < _TIE_SLACK
    return np.clip(np.rint(f), info.min, info.max), _near_tie(f)


def _reference_expectation(x, values, axes, kw):
    """What the reference says for this case, and where an integer result may be off by one
    (float data: an empty mask). Integer nearest is REF's own copy; the integer filters are REF's
    float result rounded once, half to even, and saturated (REF itself truncates and wraps)."""
    integer = np.issubdtype(x.dtype, np.integer)
    if integer and kw["mode"] == "nearest":
        want = ov_ref(x, values, axes, **kw)
        return want, np.zeros(want.shape, bool)
    want = _ref_float(x, values, axes, kw)
    if not integer:
        return want, np.zeros(want.shape, bool)
    return _integer_result(want, np.iinfo(x.dtype), casts=False)


def _cpu_model(x, values, axes, kw, rules):
    """The CPU plugin's result under ``rules``, computed by REF (or, for the align_corners order,
    the spec's nearest gather written out above) with the plugin's rule in place of the spec's."""
    if "align_corners_order" in rules:
        pb, pe = [list(kw.get(k, [0])) + [0] * x.ndim for k in ("pads_begin", "pads_end")]
        y = np.pad(x, [(pb[i], pe[i]) for i in range(x.ndim)])
        padded, outs, scales = _axis_geometry(x, values, axes, kw)
        for a, o, s in zip(axes, outs, scales):
            y = np.take(y, _nearest_index(padded[a], o, s, kw["nearest_mode"], "cpu"), axis=a)
        return y, np.zeros(y.shape, bool)
    model = dict(kw)
    if "linear_ignores_antialias" in rules:
        model["antialias"] = False  # linear without antialias is linear_onnx
    if "bicubic_pillow_ignores_cube_coeff" in rules:
        model["cube_coeff"] = -0.5
    if "linear_always_antialiases" in rules:
        # REF's antialias switch is global: one more axis that downsamples two equal copies of the
        # data turns a = s on for every axis and leaves the values as they are.
        scales_mode = kw["shape_calculation_mode"] == "scales"
        twice = np.stack([np.asarray(x, np.float32)] * 2, axis=-1)
        f = ov_ref(twice, list(values) + [0.5 if scales_mode else 1], list(axes) + [x.ndim], **model)[..., 0]
    else:
        f = _ref_float(x, values, axes, model)
    if not np.issubdtype(x.dtype, np.integer):
        return f, np.zeros(f.shape, bool)
    return _integer_result(f, np.iinfo(x.dtype), casts="casts_integers" in rules)


def _float_tol(mode, want):
    return (2e-5 if mode == "cubic" else 2e-6) * max(1.0, float(np.abs(want).max()))


def _assert_integer(got, want, near, what):
    diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
    # exact, except by 1 where the float result is a near tie (or, cast, near an integer)
    assert diff.max(initial=0) <= 1 and not diff[~near].any(), (what, np.argwhere((diff > 0) & ~near)[:5])


def _judge_cpu_departure(x, values, axes, kw, got, rules):
    """A case the CPU plugin does not follow REF on: ours is judged against REF, and the plugin
    against ``_cpu_model`` (how it departs); where the departure changes the result, the plugin
    must really differ from REF. Returns ``(err, differs)``: our float error and whether it did."""
    case = (x.shape, values, axes, kw, rules)
    want, near = _reference_expectation(x, values, axes, kw)
    cpu = ov_cpu(x, values, axes, **kw)
    model, model_near = _cpu_model(x, values, axes, kw, rules)
    assert got.shape == want.shape == cpu.shape == model.shape and got.dtype == cpu.dtype == x.dtype, case
    if np.issubdtype(x.dtype, np.integer):
        _assert_integer(got, want, near, ("ours vs REF", case))
        _assert_integer(cpu, model, model_near, ("CPU vs its rule", case))
        settled = ~near & ~model_near
        differs = bool((model != want)[settled].any())
        if differs:
            assert (cpu != want)[settled].any(), ("the CPU plugin follows REF", case)
        return 0.0, differs
    tol = _float_tol(kw["mode"], want)
    err = float(np.abs(got.astype(np.float64) - want).max())
    assert err <= tol, ("ours vs REF", err, case)
    cpu_err = float(np.abs(cpu.astype(np.float64) - model).max())
    assert cpu_err <= _float_tol(kw["mode"], model), ("CPU vs its rule", cpu_err, case)
    differs = float(np.abs(model.astype(np.float64) - want).max()) > 2 * tol
    if differs:
        assert float(np.abs(cpu.astype(np.float64) - want).max()) > tol, ("the CPU plugin follows REF", case)
    return err, differs


def _check(oracle, make_case, mode, seed, count, dtype=np.float32, departures=None):
    """``count`` seeded cases of ``mode`` against ``oracle``; returns the max abs error (float).
    With the CPU plugin as ``oracle``, a case it departs from REF on is judged by
    ``_judge_cpu_departure``; ``departures`` (a dict) then counts, per rule, the cases drawn and
    those where the plugin really differed."""
    rng = np.random.default_rng(seed)
    worst = 0.0
    for _ in range(count):
        shape, values, axes, kw = make_case(rng, mode)
        if dtype == np.uint8:
            x = rng.integers(0, 256, shape).astype(np.uint8)
        else:
            x = rng.standard_normal(shape).astype(np.float32)
        got = ours(x, values, axes, **kw)
        rules = _cpu_rules(x, values, axes, kw) if oracle is ov_cpu else []
        if rules:
            err, differs = _judge_cpu_departure(x, values, axes, kw, got, rules)
            worst = max(worst, err)
            if departures is not None:
                for rule in rules:
                    drawn, seen = departures.get(rule, (0, 0))
                    departures[rule] = (drawn + 1, seen + int(differs))
            continue
        if dtype == np.uint8:
            want, near = _integer_expectation(oracle, x, values, axes, kw)
            assert got.shape == want.shape and got.dtype == want.dtype, (shape, values, axes, kw)
            _assert_integer(got, want, near, (shape, values, axes, kw))
            continue
        want = oracle(x, values, axes, **kw)
        assert got.shape == want.shape and got.dtype == want.dtype, (shape, values, axes, kw)
        err = float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max())
        assert err <= _float_tol(mode, want), (err, shape, values, axes, kw)
        worst = max(worst, err)
    return worst


_REF_ROW = "`openvino_interpolate` vs OpenVINO {version}'s reference implementation"
_CPU_ROW = "vs the OpenVINO CPU plugin in its standard layouts"
_REF_SEEDS, _REF_COUNT, _CPU_COUNT = (0, 1), 16, 16


def _readme_bound(first: str, mode: str, worst: float) -> None:
    """The README row's stated bound holds for this mode (nearest: exactly 0)."""
    import readme

    first = first.format(version=".".join(ov.get_version().split(".")[:2]))
    if mode == "nearest":
        assert worst == 0.0 and "max error 0 for nearest" in readme.row(first)[1]
    assert worst <= readme.bound(first, 1), (mode, worst, readme.row(first))


def test_readme_sweep_counts():
    """The README's case counts are the sweeps' (each case is asserted by the tests below)."""
    import readme

    for first, n in ((_REF_ROW, len(_REF_SEEDS) * _REF_COUNT), (_CPU_ROW, _CPU_COUNT)):
        first = first.format(version=".".join(ov.get_version().split(".")[:2]))
        total = n * len(MODES)
        assert readme.row(first)[0].endswith(f"{len(MODES)} modes × {n}"), readme.row(first)
        assert readme.row(first)[1].startswith(f"**{total} / {total}**"), readme.row(first)


@pytest.mark.parametrize("seed", _REF_SEEDS)
@pytest.mark.parametrize("mode", MODES)
def test_random_vs_reference(mode, seed):
    _readme_bound(_REF_ROW, mode, _check(ov_ref, _ref_case, mode, seed, _REF_COUNT))


def _assert_departures_real(departures):
    """Every CPU departure the sweep drew changed the plugin's result in at least one case (a
    listed rule can leave one case unchanged, e.g. symmetric Pillow taps)."""
    for rule, (drawn, seen) in departures.items():
        assert seen > 0, (rule, _CPU_RULES[rule], drawn)


@pytest.mark.parametrize("mode", MODES)
def test_random_vs_cpu_plugin(mode):
    departures = {}
    _readme_bound(_CPU_ROW, mode, _check(ov_cpu, _cpu_case, mode, 10, _CPU_COUNT, departures=departures))
    _assert_departures_real(departures)


@pytest.mark.parametrize("mode", MODES)
def test_random_uint8(mode):
    # *_pillow: REF rounds half away from zero after each pass, as we do; nearest copies. The
    # other filters: REF casts (truncates, and wraps around for cubic overshoot); we round once
    # and saturate, like the CPU plugin at rank <= 4 (at rank 5 its linear and cubic cast: those
    # cases are judged against REF's float result, see _cpu_rules). Exact everywhere except at
    # near ties of OpenVINO's own float result, where float32 (ours) and double, or half-to-even
    # and half-away, may split.
    if mode.endswith("_pillow") or mode == "nearest":
        _check(ov_ref, _ref_case, mode, 20, 6, dtype=np.uint8)
    if not mode.endswith("_pillow"):
        departures = {}
        _check(ov_cpu, _cpu_case, mode, 21, 12, dtype=np.uint8, departures=departures)
        _assert_departures_real(departures)
        if mode in ("linear", "cubic"):  # the seeded draw holds rank-5 cases: the cast is judged
            assert departures.get("casts_integers", (0, 0))[1] > 0, departures


# --------------------------------------------------------------------------------------------
# exhaustive small axes: indices and weight matrices of one axis against REF


def test_nearest_indices_exhaustive():
    # REF on arange data returns the source indices. Every coordinate mode x rounding mode, in
    # 1..16 x out 1..24 (sizes) and 18 scales x in 1..16 (scales): float32 ties must agree.
    from jax_resize._src.peers import openvino as _ov

    checked = 0
    for ctm in CTMS:
        for nm in NEAREST_MODES:
            for n in range(1, 17):
                x = np.arange(n, dtype=np.float32)
                cases = [("sizes", o) for o in range(1, 25)] + [
                    ("scales", s)
                    for s in (
                        0.1,
                        0.2,
                        0.25,
                        0.3,
                        0.333,
                        0.4,
                        0.5,
                        0.6,
                        0.7,
                        0.75,
                        0.8,
                        0.9,
                        1.1,
                        1.25,
                        1.5,
                        2.0,
                        2.5,
                        3.3,
                    )
                ]
                for scm, v in cases:
                    kw = dict(
                        mode="nearest", shape_calculation_mode=scm, coordinate_transformation_mode=ctm, nearest_mode=nm
                    )
                    if ov_shape(x, [v], [0], **kw)[0] == 0:
                        continue
                    want = ov_ref(x, [v], [0], **kw)
                    if scm == "sizes":
                        o, s = v, np.float32(v) / np.float32(n)
                    else:
                        o, s = _ov.output_length_from_scale(n, v), np.float32(v)
                    if o == n:  # the identity, in REF and in ours
                        np.testing.assert_array_equal(want, x)
                        np.testing.assert_array_equal(ours(x, [v], [0], **kw), want, err_msg=f"{ctm} {nm} {scm}={v}")
                        continue
                    idx = _ov.axis_record("nearest", n, o, s, coordinate_transformation_mode=ctm, nearest_mode=nm).index
                    np.testing.assert_array_equal(idx, want, err_msg=f"{ctm} {nm} in={n} {scm}={v}")
                    checked += 1
    import readme

    readme.assert_row(
        "nearest indices, every coordinate mode × nearest_mode, exhaustive small sizes (in 1–16; 24 sizes, 18 scales)",
        f"{checked} axes, 0 mismatches",
    )


@pytest.mark.parametrize("mode", ["linear", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"])
def test_weight_matrices_exhaustive(mode):
    # REF applied to eye(in) along axis 0 is that axis's weight matrix W: [out, in].
    from jax_resize._src import records
    from jax_resize._src.peers import openvino as _ov

    for ctm in CTMS if not mode.endswith("_pillow") else ["half_pixel"]:
        for n in range(1, 13):
            eye = np.eye(n, dtype=np.float32)
            for o in range(1, 17):
                kw = dict(
                    mode=mode, shape_calculation_mode="sizes", coordinate_transformation_mode=ctm, cube_coeff=-0.6
                )
                want = ov_ref(eye, [o, n], [0, 1], **kw)
                if o == n:  # the identity, in REF (its cubic weights sum to 1 in float32 only) and ours
                    np.testing.assert_allclose(want, eye, atol=1e-5)
                    np.testing.assert_allclose(ours(eye, [o, n], [0, 1], **kw), want, atol=1e-5, err_msg=f"{ctm} {n}")
                    continue
                taps = _ov.axis_record(
                    mode, n, o, np.float32(o) / np.float32(n), coordinate_transformation_mode=ctm, cube_coeff=-0.6
                )
                # REF evaluates cubic in float32
                np.testing.assert_allclose(
                    records.record_matrix(taps), want, atol=1e-5 if mode == "cubic" else 1e-6, err_msg=f"{ctm} {n}->{o}"
                )


def test_output_length_in_scales_mode_is_the_runtimes():
    # int(f32(in) * (f32(s) + 1e-6f)); floor(in * s) in float64 disagrees e.g. for in=10, s=0.7.
    from jax_resize._src.peers.openvino import output_length_from_scale

    rng = np.random.default_rng(7)
    scales = [0.7, 0.1, 0.3, 0.6, 1.1, 1.7, 2.3, 0.9999999, 1.0] + list(rng.uniform(0.05, 4, 40))
    for n in [1, 2, 3, 5, 7, 10, 13, 17, 29, 100, 333]:
        for s in scales:
            want = ov_shape(np.zeros(n, np.float32), [s], [0], mode="nearest", shape_calculation_mode="scales")
            assert output_length_from_scale(n, s) == want[0], (n, s)
    assert ours(np.zeros(10, np.float32), [0.7], mode="nearest", shape_calculation_mode="scales").shape == (7,)
    assert int(np.floor(10 * np.float64(np.float32(0.7)))) == 6  # what the spec's floor would give


# --------------------------------------------------------------------------------------------
# OpenVINO's reference-test tables (op_reference/interpolate.cpp), ported values
# The tables keep the layout of OpenVINO's op_reference/interpolate.cpp.
# fmt: off
A_F = [121.14, 131.03, 193.32, 243.32, 8.92, 36.9, 210.67, 242.85, 63.8, 79.83,
       222.47, 108.37, 69.93, 211.89, 65.79, 104.75, 164.82, 140.7, 21.95, 7.06,
       221.59, 192.9, 214.5, 137.76, 209.29, 84.41, 115.89, 201.84, 31.72, 77.62]
B_F = [214.42, 66.97, 27.98, 76.41, 105.94, 208.44, 115.53, 23.53]
UP_B_BILINEAR = [214.42, 140.695, 60.47167, 34.478333, 52.195, 76.41, 203.57199, 142.34451,
                 73.72, 44.132, 53.9285, 71.122, 160.18, 148.9425, 126.71333, 82.746666,
                 60.8625, 49.97, 116.788, 155.5405, 179.70667, 121.361336, 67.7965, 28.818,
                 105.94, 157.19, 192.955, 131.015, 69.53, 23.53]
UP_B_BICUBIC = [236.49521, 146.10538, 38.218796, 17.75709, 50.332058, 85.74947, 215.93185, 148.13255,
                63.085896, 35.050694, 51.983547, 75.524284, 161.65862, 153.48294, 128.71808, 80.69401,
                56.342354, 48.53678, 107.38538, 158.83333, 194.35027, 126.33732, 60.70116, 21.549273,
                86.82202, 160.8605, 219.21736, 143.63092, 62.35265, 11.32409]
R64 = list(range(64))
R48 = list(range(48))
RAND48 = [172, 10, 127, 140, 47, 170, 196, 151, 117, 166, 22, 183, 192, 204, 33, 216,
          67, 179, 78, 154, 251, 82, 162, 219, 195, 118, 125, 139, 103, 125, 229, 216,
          9, 164, 116, 108, 211, 222, 161, 159, 21, 81, 89, 165, 242, 214, 102, 98]
U90 = [37, 244, 193, 106, 235, 128, 71, 255, 140, 47, 103, 184, 72, 20, 188,
       238, 255, 126, 7, 0, 137, 195, 204, 32, 203, 170, 101, 77, 133, 30,
       193, 255, 79, 203, 145, 37, 192, 83, 112, 60, 144, 128, 163, 23, 129,
       80, 134, 101, 204, 191, 174, 47, 71, 30, 78, 99, 237, 170, 118, 88,
       252, 121, 116, 171, 134, 141, 146, 101, 25, 125, 127, 239, 178, 228, 239,
       137, 20, 213, 167, 216, 254, 84, 80, 107, 101, 177, 50, 80, 146, 139]
C30 = [168, 92, 157, 111, 15, 138, 97, 47, 237, 25, 163, 6, 72, 118, 121,
       238, 22, 174, 182, 140, 43, 121, 158, 242, 210, 73, 113, 111, 75, 132]
C24 = [168, 92, 157, 111, 15, 138, 97, 47, 237, 25, 163, 6,
       72, 118, 121, 238, 22, 174, 182, 140, 43, 121, 158, 242]
BC_UP_U8 = [183, 94, 162, 141, 53, 141, 94, 11, 150, 93, 27, 255, 49, 105, 119, 10, 172, 0,
            165, 99, 155, 143, 55, 143, 116, 14, 152, 108, 42, 226, 64, 113, 122, 26, 170, 17,
            117, 111, 138, 148, 60, 148, 175, 22, 155, 148, 80, 143, 102, 133, 131, 69, 165, 128,
            68, 122, 121, 152, 65, 153, 233, 29, 158, 188, 118, 60, 140, 153, 140, 111, 160, 238,
            50, 127, 114, 154, 67, 155, 255, 32, 160, 203, 133, 29, 155, 161, 143, 127, 158, 255]
BC_UP_I32 = [183, 94, 162, 141, 53, 141, 94, 11, 150, 93, 27, 255, 49, 105, 119, 10, 172, -35,
             165, 99, 155, 143, 55, 143, 116, 14, 152, 108, 42, 226, 64, 113, 122, 26, 170, 8,
             117, 111, 138, 148, 60, 148, 175, 22, 155, 148, 80, 143, 102, 133, 131, 69, 165, 123,
             68, 122, 121, 152, 65, 153, 233, 29, 158, 188, 118, 60, 140, 153, 140, 111, 160, 238,
             50, 127, 114, 154, 67, 155, 255, 32, 160, 203, 133, 29, 155, 161, 143, 127, 158, 281]

# ---- float32 pillow cases (generateParamsForInterpolate_{bilinear,bicubic}_pil_float<f32>)
PIL_F32 = [
 ("bilinear.downsample_2D_sizes", [5,6], [2,4], [2,4], None, [0,1], "bilinear_pillow", "sizes", -0.75, A_F,
  [159.58046, 141.59782, 138.78581, 111.842384, 96.50358, 129.36433, 159.38596, 128.2533]),
 ("bilinear.downsample_to_2x4_2D_scales", [5,6], None, [2,4], [0.4,0.7], [0,1], "bilinear_pillow", "scales", -0.75, A_F,
  [159.58046, 141.59782, 138.78581, 111.842384, 96.50358, 129.36433, 159.38596, 128.2533]),
 ("bilinear.downsample_to_2x3_2D_scales", [5,6], None, [2,3], [0.4,0.6666], [0,1], "bilinear_pillow", "scales", -0.75, A_F,
  [158.00597, 137.05489, 121.252205, 102.18909, 147.77483, 137.24052]),
 ("bilinear.upsample_2D_sizes", [2,4], [5,6], [5,6], None, [0,1], "bilinear_pillow", "sizes", -0.75, B_F, UP_B_BILINEAR),
 ("bilinear.upsample_2D_scales", [2,4], None, [5,6], [2.5,1.5], [0,1], "bilinear_pillow", "scales", -0.75, B_F, UP_B_BILINEAR),
 ("bicubic.downsample_2D_sizes", [5,6], [2,4], [2,4], None, [0,1], "bicubic_pillow", "sizes", -0.5, A_F,
  [162.90814, 143.26627, 138.46507, 109.5325, 92.69513, 126.17204, 164.13477, 127.86513]),
 ("bicubic.downsample_to_2x4_2D_scales", [5,6], None, [2,4], [0.4,0.7], [0,1], "bicubic_pillow", "scales", -0.5, A_F,
  [162.90814, 143.26627, 138.46507, 109.5325, 92.69513, 126.17204, 164.13477, 127.86513]),
 ("bicubic.downsample_2D_scales_default_axes", [5,6], None, [2,4], [0.4,0.7], None, "bicubic_pillow", "scales", -0.5, A_F,
  [162.90814, 143.26627, 138.46507, 109.5325, 92.69513, 126.17204, 164.13477, 127.86513]),
 ("bicubic.downsample_2D_sizes_cube_coeff_ov_default", [5,6], [2,4], [2,4], None, [0,1], "bicubic_pillow", "sizes", -0.75, A_F,
  [162.548325, 144.773224, 138.243408, 110.827049, 92.899925, 125.124802, 164.711548, 129.240463]),
 ("bicubic.downsample_to_2x3_2D_scales", [5,6], None, [2,3], [0.4,0.6666], [0,1], "bicubic_pillow", "scales", -0.5, A_F,
  [162.16028, 136.76193, 118.96405, 95.98418, 151.06361, 137.54117]),
 ("bicubic.upsample_negative_out_val_2D_sizes", [2,4], [5,6], [5,6], None, [0,1], "bicubic_pillow", "sizes", -0.5,
  [0.1875, 1.1875, 10.1875, 50.1875, 100.1875, 99.1875, 999.1875, 1000.1875],
  [-9.77841, -4.4676228, -18.490986, -80.825874, -69.36307, -41.225075,
   6.6730685, 3.1702557, 15.340315, 64.80558, 98.734406, 114.720276,
   50.09375, 23.329044, 104.63187, 449.17325, 542.39703, 526.30963,
   93.51443, 43.48783, 193.92343, 833.54095, 986.0597, 937.899,
   109.96591, 51.12571, 227.75473, 979.17236, 1154.1572, 1093.8444]),
 ("bicubic.upsample_2D_sizes", [2,4], [5,6], [5,6], None, [0,1], "bicubic_pillow", "sizes", -0.5, B_F, UP_B_BICUBIC),
 ("bicubic.upsample_2D_sizes_default_axes", [2,4], [5,6], [5,6], None, None, "bicubic_pillow", "sizes", -0.5, B_F, UP_B_BICUBIC),
]

# ---- integer pillow cases (uint8 unless noted; *_int_common also run as int32 with same data)
PIL_INT = [
 ("bilinear.downsample_sizes_linear_range_h_pixel_hw_2D", [8,8], [4,4], [4,4], None, [0,1], "bilinear_pillow", "sizes", -0.75, R64,
  [7, 9, 11, 12, 21, 23, 25, 26, 37, 39, 41, 42, 51, 53, 55, 56]),
 ("bilinear.downsample_scales_linear_range_h_pixel_hw_2D_scales", [8,8], None, [4,4], [0.5,0.5], [0,1], "bilinear_pillow", "scales", -0.75, R64,
  [7, 9, 11, 12, 21, 23, 25, 26, 37, 39, 41, 42, 51, 53, 55, 56]),
 ("bilinear.downsample_scales_linear_rand_h_pixel_nhwc", [1,4,4,3], None, [1,2,2,3], [0.5,0.5], [1,2], "bilinear_pillow", "scales", -0.75, RAND48,
  [174, 97, 132, 144, 119, 173, 175, 129, 124, 160, 138, 129]),
 ("bilinear.downsample_scales_linear_range_h_pixel_nhwc", [1,4,4,3], None, [1,2,2,3], [0.5,0.5], [1,2], "bilinear_pillow", "scales", -0.75, R48,
  [11, 12, 13, 16, 17, 18, 29, 30, 31, 34, 35, 36]),
 ("bilinear.downsample_scales_linear_rand_h_pixel_nhwc_batch_2", [2,4,4,3], None, [2,2,2,3], [0.5,0.5], [1,2], "bilinear_pillow", "scales", -0.75, RAND48 + R48,
  [174, 97, 132, 144, 119, 173, 175, 129, 124, 160, 138, 129, 11, 12, 13, 16, 17, 18, 29, 30, 31, 34, 35, 36]),
 ("bilinear.downsample_sizes_nhwc_1x5x6x3_to_1x2x4x3", [1,5,6,3], [2,4], [1,2,4,3], None, [1,2], "bilinear_pillow", "sizes", -0.75, U90,
  [89, 137, 129, 138, 169, 107, 109, 140, 113, 168, 161, 95, 134, 119, 178, 171, 118, 148, 138, 130, 106, 116, 133, 120]),  # test comment: 89 /* 90 */
 ("bilinear.upsample_sizes_nhwc_1x2x4x3_to_1x5x6x3", [1,2,4,3], [5,6], [1,5,6,3], None, [1,2], "bilinear_pillow", "sizes", -0.75, U90[:24],
  [37, 244, 193, 72, 240, 161, 100, 238, 130, 77, 252, 138, 59, 179, 162, 47, 103, 184, 41, 222, 193, 80, 230, 161, 110, 235,
   130, 74, 231, 138, 63, 171, 154, 62, 113, 169, 55, 132, 191, 114, 189, 159, 150, 225, 129, 62, 148, 137, 80, 141, 124, 121, 154, 108, 69, 42, 188, 147,
   148, 157, 189, 215, 128, 49, 64, 135, 97, 110, 93, 180, 194, 47, 72, 20, 188, 155, 138, 157, 199, 212, 128, 46, 43, 135, 101, 102, 85, 195, 204, 32]),  # 41 /* 40 */
 ("bilinear.downsample_sizes_nchw_1x3x5x6_to_1x3x2x4", [1,3,5,6], [2,4], [1,3,2,4], None, [2,3], "bilinear_pillow", "sizes", -0.75,
  [37, 106, 71, 47, 72, 238, 7, 195, 203, 77, 193, 203, 192, 60, 163, 80, 204, 47, 78, 170, 252, 171, 146, 125, 178, 137, 167, 84, 101, 80,
   244, 235, 255, 103, 20, 255, 0, 204, 170, 133, 255, 145, 83, 144, 23, 134, 191, 71, 99, 118, 121, 134, 101, 127, 228, 20, 216, 80, 177, 146,
   193, 128, 140, 184, 188, 126, 137, 32, 101, 30, 79, 37, 112, 128, 129, 101, 174, 30, 237, 88, 116, 141, 25, 239, 239, 213, 254, 107, 50, 139],
  [89, 138, 109, 168, 134, 171, 138, 116, 137, 169, 140, 161, 119, 118, 130, 133, 129, 107, 113, 95, 178, 148, 106, 120]),
 ("bilinear.downsample_scales_range_h_pixel_nchw", [1,3,4,4], None, [1,3,2,2], [0.5,0.5], [2,3], "bilinear_pillow", "scales", -0.75,
  [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46,
   2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47],
  [11, 16, 29, 34, 12, 17, 30, 35, 13, 18, 31, 36]),
 ("bilinear.upsample_range_2D_scales (int8 list)", [4,4], None, [8,8], [2.0,2.0], [0,1], "bilinear_pillow", "scales", -0.75,
  [7, 9, 11, 12, 21, 23, 25, 26, 37, 39, 41, 42, 51, 53, 55, 56],
  [7, 8, 9, 10, 11, 11, 12, 12, 11, 12, 13, 14, 15, 15, 16, 16, 18, 19, 20, 21, 22, 22, 23, 23, 25, 26, 27, 28, 29, 29, 30, 30,
   33, 34, 35, 36, 37, 37, 38, 38, 41, 42, 43, 44, 45, 45, 46, 46, 48, 49, 50, 51, 52, 52, 53, 53, 51, 52, 53, 54, 55, 55, 56, 56]),
 ("bicubic.downsample_scales_2D", [8,8], None, [4,4], [0.5,0.5], [0,1], "bicubic_pillow", "scales", -0.5, R64,
  [5, 6, 9, 10, 21, 22, 25, 26, 37, 38, 41, 42, 53, 54, 57, 58]),
 ("bicubic.downsample_sizes_2D", [8,8], [4,4], [4,4], None, [0,1], "bicubic_pillow", "sizes", -0.5, R64,
  [5, 6, 9, 10, 21, 22, 25, 26, 37, 38, 41, 42, 53, 54, 57, 58]),
 ("bicubic.downsample_sizes_2D_5x6", [5,6], [2,4], [2,4], None, [0,1], "bicubic_pillow", "sizes", -0.5, C30,
  [99, 143, 105, 88, 146, 98, 123, 154]),
 ("bicubic.upsample_sizes_2D", [4,4], [8,8], [8,8], None, [0,1], "bicubic_pillow", "sizes", -0.5,
  [5, 6, 9, 10, 21, 22, 25, 26, 37, 38, 41, 42, 53, 54, 57, 58],
  [4, 4, 5, 6, 7, 8, 9, 9, 8, 8, 9, 10, 11, 12, 13, 13, 16, 16, 17, 18, 19, 20, 21, 21, 25, 25, 26, 27, 28, 29, 30, 30,
   33, 33, 34, 35, 36, 37, 38, 38, 42, 42, 43, 44, 45, 46, 47, 47, 50, 50, 51, 52, 53, 54, 55, 55, 54, 54, 55, 56, 57, 58, 59, 59]),
 ("bicubic.downsample_sizes_2D_ov_default_cube_coeff", [5,6], [2,4], [2,4], None, [0,1], "bicubic_pillow", "sizes", -0.75, C30,
  [97, 144, 106, 88, 145, 98, 121, 153]),
 ("bicubic.downsample_sizes_1x1x8x8_nchw", [1,1,8,8], [4,4], [1,1,4,4], None, [2,3], "bicubic_pillow", "sizes", -0.5, R64,
  [5, 6, 9, 10, 21, 22, 25, 26, 37, 38, 41, 42, 53, 54, 57, 58]),
 ("bicubic.downsample_sizes_1x8x8x1_nhwc", [1,8,8,1], [4,4], [1,4,4,1], None, [1,2], "bicubic_pillow", "sizes", -0.5, R64,
  [5, 6, 9, 10, 21, 22, 25, 26, 37, 38, 41, 42, 53, 54, 57, 58]),
 ("bicubic.downsample_sizes_1x5x6x3_to_1x2x4x3_nhwc", [1,5,6,3], [2,4], [1,2,4,3], None, [1,2], "bicubic_pillow", "sizes", -0.5,
  C30 + [24, 124, 104, 57, 157, 107, 7, 173, 14, 82, 162, 210, 144, 84, 177, 129, 136, 39, 95, 218, 99, 52, 75, 170, 232, 178, 213, 138, 136, 158,
         47, 20, 181, 30, 63, 43, 182, 76, 31, 125, 52, 124, 218, 202, 78, 68, 148, 25, 251, 161, 124, 160, 2, 159, 116, 78, 119, 209, 37, 219],
  [126, 125, 124, 133, 79, 181, 77, 127, 79, 95, 111, 131, 147, 178, 119, 124, 102, 144, 117, 75, 84, 135, 78, 134]),
 ("bicubic.upsample_sizes_1x2x4x3_to_1x5x6x3_nhwc (uint8; int32 variant = BC_UP_I32)", [1,2,4,3], [5,6], [1,5,6,3], None, [1,2], "bicubic_pillow", "sizes", -0.5,
  C24, BC_UP_U8),
]

# ---- a few non-pillow float cases (v4 tables, run through v11 as well)
OTHER_F32 = [
 ("cubic.resize_downsample_scales_cubic", [1,1,4,4], [3,3], [1,1,3,3], [0.8,0.8], [2,3], "cubic", "scales", "half_pixel", "round_prefer_floor",
  [float(v) for v in range(1,17)],
  [1.47119141, 2.78125, 4.08251953, 6.71142578, 8.02148438, 9.32275391, 11.91650391, 13.2265625, 14.52783203]),
 ("cubic.resize_downsample_sizes_cubic", [1,1,4,4], [3,3], [1,1,3,3], [0.75,0.75], [2,3], "cubic", "sizes", "half_pixel", "round_prefer_floor",
  [float(v) for v in range(1,17)],
  [1.63078704, 3.00462963, 4.37847222, 7.12615741, 8.5, 9.87384259, 12.62152778, 13.99537037, 15.36921296]),
 ("cubic.resize_upsample_scales_cubic_asymmetric", [1,1,4,4], [8,8], [1,1,8,8], [2.0,2.0], [2,3], "cubic", "scales", "asymmetric", "round_prefer_floor",
  [float(v) for v in range(1,17)],
  [1.0, 1.40625, 2.0, 2.5, 3.0, 3.59375, 4.0, 4.09375, 2.625, 3.03125, 3.625, 4.125, 4.625, 5.21875, 5.625, 5.71875,
   5.0, 5.40625, 6.0, 6.5, 7.0, 7.59375, 8.0, 8.09375, 7.0, 7.40625, 8.0, 8.5, 9.0, 9.59375, 10.0, 10.09375,
   9.0, 9.40625, 10.0, 10.5, 11.0, 11.59375, 12.0, 12.09375, 11.375, 11.78125, 12.375, 12.875, 13.375, 13.96875, 14.375, 14.46875,
   13.0, 13.40625, 14.0, 14.5, 15.0, 15.59375, 16.0, 16.09375, 13.375, 13.78125, 14.375, 14.875, 15.375, 15.96875, 16.375, 16.46875]),
 ("nearest.resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric", [1,1,4,4], [8,8], [1,1,8,8], [2.0,2.0], [2,3], "nearest", "sizes", "asymmetric", "round_prefer_ceil",
  [float(v) for v in range(1,17)],
  [1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 7, 7, 8, 8, 8, 5, 6, 6, 7, 7, 8, 8, 8, 9, 10, 10, 11, 11, 12, 12, 12,
   9, 10, 10, 11, 11, 12, 12, 12, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16, 13, 14, 14, 15, 15, 16, 16, 16]),
 ("linear_onnx.resize_downsample_scales_linear", [1,1,2,4], [1,2], [1,1,1,2], [0.6,0.6], [2,3], "linear_onnx", "scales", "half_pixel", "round_prefer_floor",
  [1.0,2,3,4,5,6,7,8], [2.6666665, 4.3333331]),
 ("linear_onnx.resize_downsample_sizes_linear_pytorch_half_pixel", [1,1,4,4], [3,1], [1,1,3,1], [0.75,0.25], [2,3], "linear_onnx", "sizes", "pytorch_half_pixel", "round_prefer_floor",
  [float(v) for v in range(1,17)], [1.6666666, 7.0, 12.333333]),
 ("linear_onnx.resize_upsample_scales_linear_align_corners", [1,1,2,2], [4,4], [1,1,4,4], [2.0,2.0], [2,3], "linear_onnx", "scales", "align_corners", "round_prefer_floor",
  [1.0,2,3,4], [1.0, 1.33333333, 1.66666667, 2.0, 1.66666667, 2.0, 2.33333333, 2.66666667,
                2.33333333, 2.66666667, 3.0, 3.33333333, 3.0, 3.33333333, 3.66666667, 4.0]),
 ("linear_onnx5d.resize_downsample_scales_linear", [1,1,3,2,4], [2,1,2], [1,1,2,1,2], [0.8,0.6,0.6], [2,3,4], "linear_onnx", "scales", "half_pixel", "round_prefer_floor",
  [float(v) for v in range(1,25)], [3.6666665, 5.333333, 13.666666, 15.333333]),
]
# fmt: on


def _table_args(case):
    name, in_shape, sizes, out_shape, scales, axes, mode, scm, cube_coeff, data, expected = case
    return (
        name,
        in_shape,
        sizes if scm == "sizes" else scales,
        axes,
        dict(mode=mode, shape_calculation_mode=scm, cube_coeff=cube_coeff),
        data,
        out_shape,
        expected,
    )


@pytest.mark.parametrize("case", PIL_F32, ids=lambda c: c[0])
def test_pillow_float_tables(case):
    name, in_shape, values, axes, kw, data, out_shape, expected = _table_args(case)
    x = np.array(data, np.float32).reshape(in_shape)
    got = ours(x, values, axes, **kw)
    want = np.array(expected, np.float32).reshape(out_shape)
    if name == "bicubic.upsample_negative_out_val_2D_sizes":
        # The test's expected values are off both REF and Pillow by up to 0.82 (7e-4 of the
        # largest value; the OpenVINO test's tolerance hides it); REF itself matches exactly.
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-3 * np.abs(want).max())
        np.testing.assert_allclose(got, ov_ref(x, values, axes, **kw), rtol=1e-6, atol=1e-5)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=2e-5)


# Where the OpenVINO test's expected values are not REF's: in this table they are Pillow's own
# 8-bit result (fixed-point arithmetic); REF rounds its double result half away from zero after
# each pass, which at these exact .5 ties (in one pass or the other) gives one more.
_TABLE_IS_PILLOW = {"bilinear.upsample_sizes_nhwc_1x2x4x3_to_1x5x6x3": [25, 43, 56, 60, 61, 78, 79]}


@pytest.mark.parametrize("case", PIL_INT, ids=lambda c: c[0].split(" ")[0])
def test_pillow_uint8_tables(case):
    name, in_shape, values, axes, kw, data, out_shape, expected = _table_args(case)
    name = name.split(" ")[0]
    x = np.array(data, np.uint8).reshape(in_shape)
    got = ours(x, values, axes, **kw).astype(int)
    table = np.array(expected).reshape(out_shape)
    # the oracle: OpenVINO's REF on this very input
    want, near = _integer_expectation(ov_ref, x, values, axes, kw)
    want = want.astype(int)
    diff = np.abs(got - want)
    assert got.shape == want.shape and diff.max() <= 1 and not diff[~near].any(), np.argwhere(diff > 0)
    # the ported table agrees with REF, except where it holds Pillow's values
    differs = np.flatnonzero(table.ravel() != want.ravel()).tolist()
    assert differs == _TABLE_IS_PILLOW.get(name, []), differs
    if differs:
        from PIL import Image

        img = Image.fromarray(x[0]).resize((out_shape[2], out_shape[1]), Image.Resampling.BILINEAR)
        np.testing.assert_array_equal(np.asarray(img).ravel()[differs], table.ravel()[differs])


def test_bicubic_pillow_int32_table():
    # Same data as the last uint8 case, int32: REF rounds after each pass but does not clip
    # (-35, 281 survive). Node.evaluate has no int32 Interpolate, so REF's computation is run pass
    # by pass on float32 data (validated against REF's uint8 results in test_pillow_uint8_tables).
    x = np.array(C24, np.int32).reshape(1, 2, 4, 3)
    kw = dict(mode="bicubic_pillow", shape_calculation_mode="sizes", cube_coeff=-0.5)
    got = ours(x, [5, 6], [1, 2], **kw)
    assert got.dtype == np.int32
    info = np.iinfo(np.int32)
    want, near = _pillow_passes(x, [5, 6], [1, 2], kw, info.min, info.max)
    diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
    assert diff.max() <= 1 and not diff[~near].any(), np.argwhere(diff > 0)
    # The OpenVINO test's int32 table reuses the uint8 result at element 11: 255, where the
    # unclipped value is round(257.088...) = 257.
    table = np.array(BC_UP_I32)
    assert np.flatnonzero(table != want.ravel()).tolist() == [11]
    assert table[11] == BC_UP_U8[11] == 255 and want.ravel()[11] == 257
    # The CPU plugin also gives 257 there, but it rounds once, after both passes in float: it is
    # round(REF on float32 data), and differs from REF's per-pass rounding where that matters.
    cpu = ov_cpu(x, [5, 6], [1, 2], **kw)
    single = ov_ref(x.astype(np.float32), [5, 6], [1, 2], **kw).astype(np.float64)
    single_near = _near_tie(single)
    np.testing.assert_array_equal(cpu[~single_near], _round_half_away(single)[~single_near])
    assert cpu.ravel()[11] == 257
    per_pass = np.flatnonzero(cpu.ravel() != want.ravel())
    assert len(per_pass) > 0 and np.all(np.abs(cpu.ravel() - want.ravel())[per_pass] == 1)


@pytest.mark.parametrize("case", OTHER_F32, ids=lambda c: c[0])
def test_other_float_tables(case):
    name, in_shape, sizes, out_shape, scales, axes, mode, scm, ctm, nm, data, expected = case
    x = np.array(data, np.float32).reshape(in_shape)
    got = ours(
        x,
        sizes if scm == "sizes" else scales,
        axes,
        mode=mode,
        shape_calculation_mode=scm,
        coordinate_transformation_mode=ctm,
        nearest_mode=nm,
    )
    np.testing.assert_allclose(got, np.array(expected, np.float32).reshape(out_shape), rtol=1e-6, atol=1e-6)


# --------------------------------------------------------------------------------------------
# where the CPU plugin deviates from the reference: hand-computed values


def test_linear_antialias_follows_reference_not_cpu():
    # 4x4 arange, scales 0.5, antialias: a = 0.5, x = (0 + 0.5) / 0.5 - 0.5 = 0.5; weights
    # a * tri(a * (x - j)) at j = -1..2 are 0.125, 0.375, 0.375, 0.125; j = -1 is dropped, the
    # rest renormalised: (0 * 0.375 + 1 * 0.375 + 2 * 0.125) / 0.875 = 5/7 per axis, so the
    # first output is 4 * 5/7 + 5/7 = 25/7 = 3.5714...
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    kw = dict(mode="linear", shape_calculation_mode="scales", antialias=True)
    got = ours(x, [0.5, 0.5], [2, 3], **kw)
    np.testing.assert_allclose(got[0, 0, 0, 0], 25 / 7, rtol=1e-6)
    np.testing.assert_allclose(got, ov_ref(x, [0.5, 0.5], [2, 3], **kw), rtol=1e-6)
    # the CPU plugin runs linear_onnx at rank 4: (0 + 1 + 4 + 5) / 4 = 2.5
    np.testing.assert_allclose(ov_cpu(x, [0.5, 0.5], [2, 3], **kw)[0, 0, 0, 0], 2.5, rtol=1e-6)


def test_linear_antialias_global_switch():
    # REF turns antialias on for every axis once any axis downsamples: the upsampled axis then
    # uses a = 2 (a narrower triangle); nothing downsampling leaves plain linear interpolation.
    x = np.random.default_rng(8).standard_normal((5, 4)).astype(np.float32)
    for scales in ([0.5, 2.0], [1.5, 2.0]):
        kw = dict(mode="linear", shape_calculation_mode="scales", antialias=True)
        np.testing.assert_allclose(ours(x, scales, [0, 1], **kw), ov_ref(x, scales, [0, 1], **kw), atol=2e-6)
    plain = ours(x, [1.5, 2.0], [0, 1], mode="linear_onnx", shape_calculation_mode="scales")
    np.testing.assert_allclose(
        ours(x, [1.5, 2.0], [0, 1], mode="linear", shape_calculation_mode="scales", antialias=True), plain, atol=1e-6
    )


def test_align_corners_uses_the_spec_order():
    # (o * (in - 1)) / (out - 1) in float32: in=14 -> out=23 at o=7: 7*13/22 = 4.1363..; the CPU's
    # o * (13/22) rounds differently for some outputs; REF and we agree on every index. The spec's
    # indices written out (_nearest_index) in REF's order are REF's, in the CPU's order the CPU's,
    # and _cpu_rules flags exactly the cases where the two differ.
    x = np.arange(14, dtype=np.float32)
    departed = []
    for o in range(20, 27):
        for nm in NEAREST_MODES:
            kw = dict(
                mode="nearest",
                shape_calculation_mode="sizes",
                coordinate_transformation_mode="align_corners",
                nearest_mode=nm,
            )
            want, cpu = ov_ref(x, [o], [0], **kw), ov_cpu(x, [o], [0], **kw)
            np.testing.assert_array_equal(ours(x, [o], [0], **kw), want)
            s = np.float32(o) / np.float32(14)
            np.testing.assert_array_equal(_nearest_index(14, o, s, nm, "ref"), want)
            np.testing.assert_array_equal(_nearest_index(14, o, s, nm, "cpu"), cpu)
            rules = _cpu_rules(x, [o], [0], kw)
            assert rules == (["align_corners_order"] if (cpu != want).any() else []), (o, nm)
            if rules:
                np.testing.assert_array_equal(_cpu_model(x, [o], [0], kw, rules)[0], cpu)
                departed.append((o, nm))
    assert (23, "floor") in departed and (23, "simple") in departed, departed


def test_bicubic_pillow_honours_cube_coeff():
    # REF honours cube_coeff (the table's ov_default case); the CPU plugin at rank 4 does not.
    x = np.array(A_F, np.float32).reshape(1, 1, 5, 6)
    kw = dict(mode="bicubic_pillow", shape_calculation_mode="sizes", cube_coeff=-0.75)
    got = ours(x, [2, 4], [2, 3], **kw)
    np.testing.assert_allclose(got, ov_ref(x, [2, 4], [2, 3], **kw), rtol=1e-6)
    assert np.abs(ov_cpu(x, [2, 4], [2, 3], **kw) - got).max() > 1  # the CPU's -0.5


def test_pads_hand_computed():
    # [1, 2] padded to [0, 1, 2, 0]; sizes 4 is the identity on the padded axis, sizes 2 with
    # half_pixel samples x = 0.5 and 2.5: (0 + 1) / 2 and (2 + 0) / 2.
    x = np.array([1.0, 2.0], np.float32)
    pads = dict(pads_begin=[1], pads_end=[1])
    np.testing.assert_array_equal(ours(x, [4], mode="nearest", shape_calculation_mode="sizes", **pads), [0, 1, 2, 0])
    np.testing.assert_allclose(ours(x, [2], mode="linear_onnx", shape_calculation_mode="sizes", **pads), [0.5, 1.0])
    # axes not resized are padded too
    y = ours(
        np.ones((2, 3), np.float32),
        [6],
        [1],
        mode="cubic",
        shape_calculation_mode="sizes",
        pads_begin=[1, 0],
        pads_end=[0, 0],
    )
    assert y.shape == (3, 6) and np.all(y[0] == 0) and np.allclose(y[1:], 1)
    # an empty input is all padding: zeros
    z = ours(
        np.ones((0, 3), np.uint8),
        [2.0],
        [1],
        mode="linear",
        shape_calculation_mode="scales",
        pads_begin=[2, 0],
        pads_end=[0, 0],
    )
    assert z.shape == (2, 6) and z.dtype == np.uint8 and not z.any()


def test_descending_pillow_axes_follow_the_cpu_plugin():
    # REF returns uninitialised values for descending *_pillow axes; the CPU plugin (NCHW) and
    # we resample each listed axis to its own size.
    x = np.random.default_rng(9).standard_normal((2, 3, 5, 6)).astype(np.float32)
    kw = dict(mode="bilinear_pillow", shape_calculation_mode="sizes")
    np.testing.assert_allclose(ours(x, [3, 7], [3, 2], **kw), ov_cpu(x, [3, 7], [3, 2], **kw), atol=1e-5)


def test_integer_dtypes():
    rng = np.random.default_rng(10)
    x = rng.integers(-1000, 1000, (5, 7)).astype(np.int32)
    kw = dict(mode="nearest", shape_calculation_mode="scales", nearest_mode="ceil")
    np.testing.assert_array_equal(ours(x, [1.7, 0.6], **kw), ov_cpu(x, [1.7, 0.6], **kw))
    b = x > 0
    np.testing.assert_array_equal(ours(b, [1.7, 0.6], **kw), ov_cpu(x, [1.7, 0.6], **kw) > 0)


# --------------------------------------------------------------------------------------------
# transformations and errors


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic", "bicubic_pillow"])
def test_jit_vmap_grad(mode):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((3, 5, 6)).astype(np.float32)
    kw = dict(mode=mode, shape_calculation_mode="sizes", antialias=True, pads_begin=[0, 1], pads_end=[0, 1])
    f = lambda v: jax_resize.openvino_interpolate(v, [3, 9], [0, 1], **kw)
    np.testing.assert_allclose(jax.jit(f)(x[0]), f(x[0]), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(jax.vmap(f)(x), np.stack([f(v) for v in x]), rtol=1e-6, atol=1e-6)
    if mode != "nearest":
        check_grads(f, (x[0].astype(np.float64),), order=2, modes=("fwd", "rev"), eps=1e-2)
    u = rng.integers(0, 256, (2, 5, 6)).astype(np.uint8)
    np.testing.assert_array_equal(jax.jit(jax.vmap(f))(u), np.stack([f(v) for v in u]))


def test_bad_arguments():
    x = np.ones((4, 4), np.float32)
    ok = dict(mode="linear", shape_calculation_mode="sizes")
    with pytest.raises(ValueError, match="mode='linear_onx'.*Did you mean 'linear_onnx'"):
        jax_resize.openvino_interpolate(x, [2, 2], mode="linear_onx", shape_calculation_mode="sizes")
    with pytest.raises(ValueError, match="shape_calculation_mode='size'.*Did you mean 'sizes'"):
        jax_resize.openvino_interpolate(x, [2, 2], mode="linear", shape_calculation_mode="size")
    with pytest.raises(ValueError, match="coordinate_transformation_mode='half_pixel_symmetric'"):
        jax_resize.openvino_interpolate(x, [2, 2], coordinate_transformation_mode="half_pixel_symmetric", **ok)
    with pytest.raises(ValueError, match="nearest_mode='round'"):
        jax_resize.openvino_interpolate(x, [2, 2], nearest_mode="round", **ok)
    with pytest.raises(ValueError, match="scales_or_sizes must have 1 elements"):
        jax_resize.openvino_interpolate(x, [2, 2], [1], **ok)
    with pytest.raises(ValueError, match="scales must be finite and > 0"):
        jax_resize.openvino_interpolate(x, [2.0, -1.0], mode="linear", shape_calculation_mode="scales")
    with pytest.raises(ValueError, match="sizes must be >= 0"):
        jax_resize.openvino_interpolate(x, [2, -1], **ok)
    with pytest.raises(ValueError, match="pads_begin=.*non-negative"):
        jax_resize.openvino_interpolate(x, [2, 2], pads_begin=[-1], **ok)
    with pytest.raises(ValueError, match="pads_end=.*more than the rank"):
        jax_resize.openvino_interpolate(x, [2, 2], pads_end=[0, 0, 1], **ok)
    with pytest.raises(ValueError, match="repeats an axis"):
        jax_resize.openvino_interpolate(x, [2, 2], [1, 1], **ok)
    with pytest.raises(TypeError, match="bool"):
        jax_resize.openvino_interpolate(x > 0, [2, 2], **ok)
    with pytest.raises(TypeError, match="scales_or_sizes must be static"):
        jax.jit(lambda s: jax_resize.openvino_interpolate(x, s, **ok))(np.array([2, 2]))
