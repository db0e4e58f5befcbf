"""The banded contraction on wide filters (more than ``max_unrolled_taps`` taps: large shrinks),
applied in a loop instead of one op per tap; and the CPU row loop (:func:`~jax_resize._src.banded.row_loop`)
of a large shrink's first pass over long rows.

Contract: the looped contraction gives the same values as the filter it applies, keeps NaN/Inf
local, differentiates, and its program does not grow with the tap count. The row loop is taken
only where it is eligible (first pass, taps, row length, threads), gives the filter's values
(Pillow-exact uint8 included), its gradients, under ``vmap`` too, and keeps NaN/Inf local.

Oracles: ``jax.image.resize`` / ``jax.image.scale_and_translate`` (values and gradients, on the
same filters), ``PIL.Image.resize`` (bit exact uint8), numpy sums of gathered rows, the count of
equations in the jaxpr and of while loops in the compiled program.
"""

import os

import jax
import jax.extend.core
import jax.numpy as jnp
import numpy as np
import pytest
from PIL import Image

from jax_resize import resize
from jax_resize._src.execution import banded as _banded
from jax_resize._src.execution import decide as _decide
from jax_resize._src.execution.tuning import TUNING

RNG = np.random.default_rng(7)


def _taps(in_size: int, out_size: int, method: str) -> int:
    """Taps per output of an antialiased shrink: the filter's support times the stretch, both sides."""
    support = {"linear": 1, "cubic": 2, "lanczos3": 3}[method]
    return 2 * support * in_size // out_size


@pytest.mark.parametrize("method", ["linear", "cubic", "lanczos3"])
@pytest.mark.parametrize("shape,out", [((1000, 40, 3), (7, 40, 3)), ((30, 2000), (30, 9)), ((100000,), (3,))])
def test_wide_antialiased_shrinks_match_jax_image(method, shape, out):
    x = RNG.standard_normal(shape).astype(np.float32)
    axis = next(a for a in range(len(shape)) if shape[a] != out[a])
    assert _taps(shape[axis], out[axis], method) > TUNING["cpu"].max_unrolled_taps  # the looped path
    want = np.asarray(jax.image.resize(x, out, method, antialias=True))
    got = np.asarray(resize(x, out, method, antialias=True))
    np.testing.assert_allclose(got, want, atol=2e-6 if len(shape) < 3 else 1e-5, rtol=0)
    jitted = np.asarray(jax.jit(lambda v: resize(v, out, method, antialias=True))(x))
    np.testing.assert_allclose(jitted, want, atol=1e-5, rtol=0)


@pytest.mark.parametrize("shape,out", [((1000, 5), (7, 5)), ((100000,), (3,))])
def test_wide_filters_keep_nan_local(shape, out):
    # both forms of the loop: a large gather per tap, and one [out, c] gather per iteration
    x = RNG.standard_normal(shape).astype(np.float32)
    want = np.asarray(jax.image.resize(x, out, "linear", antialias=True))  # the clean image
    x[0] = np.nan  # only the first output's window holds input 0
    got = np.asarray(resize(x, out, "linear", antialias=True))
    assert np.isnan(got[0]).all()
    np.testing.assert_allclose(got[1:], want[1:], atol=2e-6, rtol=0)


def test_wide_filter_gradient_matches_jax_image():
    x = RNG.standard_normal((600, 4)).astype(np.float32)
    g = RNG.standard_normal((5, 4)).astype(np.float32)

    def loss(fn):
        return jax.grad(lambda v: jnp.sum(fn(v) * g))(jnp.asarray(x))

    want = loss(lambda v: jax.image.resize(v, (5, 4), "lanczos3", antialias=True))
    got = loss(lambda v: resize(v, (5, 4), "lanczos3", antialias=True))
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), atol=1e-6, rtol=0)


@pytest.mark.parametrize(
    "method,pil", [("pil_lanczos", Image.Resampling.LANCZOS), ("pil_bicubic", Image.Resampling.BICUBIC)]
)
def test_wide_pillow_filters_are_bit_exact(method, pil):
    a = RNG.integers(0, 256, (3, 5000, 3), dtype=np.uint8)
    want = np.asarray(Image.fromarray(a).resize((40, 3), pil))
    np.testing.assert_array_equal(np.asarray(resize(a, (3, 40, 3), method)), want)


def test_program_size_does_not_grow_with_taps():
    def lines(n):  # of the lowered program (the taps are applied when the primitive is lowered)
        x = jnp.zeros((n, 3), jnp.float32)
        return len(jax.jit(lambda v: resize(v, (4, 3), "lanczos3", antialias=True)).lower(x).as_text().splitlines())

    small, large = lines(4 * 80), lines(4 * 8000)  # ~120 and ~12000 taps per output
    assert large <= small + 16, (small, large)


def test_wide_scale_and_translate_matches_jax_image():
    from jax_resize import scale_and_translate

    x = RNG.standard_normal((2000, 3)).astype(np.float32)
    args = ((9, 3), (0,), jnp.array([9 / 2000 * 0.9]), jnp.array([0.3]))
    want = jax.image.scale_and_translate(x, *args, "lanczos3", antialias=True)
    got = scale_and_translate(x, *args, "lanczos3", antialias=True)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), atol=2e-6, rtol=0)


# --- shared bands: rows repeating a few patterns, applied without expanding them ----------------


def _shared_plan(x, out, method, antialias):
    """The record and plan of the one resized axis of ``resize(x, out, method)`` (auto strategy)."""
    from jax_resize._src.execution import apply, strategies

    records = []
    run = apply.run

    def spy(v, ops, **kw):
        records.extend(ops)
        return run(v, ops, **kw)

    apply.run = spy
    try:
        y = resize(x, out, method, antialias=antialias)
    finally:
        apply.run = run
    ((axis, record),) = records
    plans, _ = apply._plans(tuple(records), "auto", np.dtype(y.dtype), apply._rounding.FINAL_HALF_EVEN, TUNING["cpu"])
    (plan,) = plans.host
    assert isinstance(plan, strategies.BandedPlan)
    return y, record, plan


def test_shared_band_is_applied_without_expanding_its_rows():
    from jax_resize._src import records

    x = RNG.standard_normal((40000,)).astype(np.float32)
    y, record, plan = _shared_plan(x, (10,), "lanczos3", True)  # a ratio of 4000: one interior phase
    assert isinstance(record, records.SharedBand) and record.table.shape[0] < record.out_size
    assert plan.row_class is not None and plan.weight.shape == record.table.shape
    assert not record._expanded  # index and weight were never built
    want = np.asarray(jax.image.resize(x, (10,), "lanczos3", antialias=True))
    np.testing.assert_allclose(np.asarray(y), want, atol=2e-6, rtol=0)
    jitted = jax.jit(lambda v: resize(v, (10,), "lanczos3", antialias=True))(x)
    np.testing.assert_allclose(np.asarray(jitted), want, atol=2e-6, rtol=0)
    batch = np.stack([x, -x])
    mapped = jax.vmap(lambda v: resize(v, (10,), "lanczos3", antialias=True))(batch)
    np.testing.assert_allclose(np.asarray(mapped[1]), -want, atol=2e-6, rtol=0)


def test_shared_band_sums_equal_the_expanded_taps():
    # the same record applied as a shared band and as its expanded taps: the same sums, in the
    # same order (both forms of the loop: one large gather per tap, one [out, c] gather per chunk)
    from jax_resize._src import records
    from jax_resize._src.execution import apply

    for shape, out in (((30000,), (10,)), ((6000, 3), (6, 3))):  # ratios 3000 and 1000
        x = RNG.standard_normal(shape).astype(np.float32)
        _, record, _ = _shared_plan(x, out, "cubic", True)
        assert isinstance(record, records.SharedBand)
        plain = records.Taps(np.array(record.index), np.array(record.weight), record.in_size)
        shared = np.asarray(apply.run(x, [(0, record)], strategy="banded"))
        np.testing.assert_array_equal(shared, np.asarray(apply.run(x, [(0, plain)], strategy="banded")))


def test_shared_band_gradient_and_nan_locality():
    x = RNG.standard_normal((40000, 2)).astype(np.float32)
    g = RNG.standard_normal((10, 2)).astype(np.float32)
    _, record, plan = _shared_plan(x, (10, 2), "linear", True)
    assert plan.row_class is not None

    def grad(fn):
        return np.asarray(jax.grad(lambda v: jnp.sum(fn(v) * g))(jnp.asarray(x)))

    want = grad(lambda v: jax.image.resize(v, (10, 2), "linear", antialias=True))
    got = grad(lambda v: resize(v, (10, 2), "linear", antialias=True))
    np.testing.assert_allclose(got, want, atol=1e-7, rtol=1e-5)
    clean = np.asarray(jax.image.resize(x, (10, 2), "linear", antialias=True))
    x[-1, 0] = np.nan  # read by the last output only
    y = np.asarray(resize(x, (10, 2), "linear", antialias=True))
    assert np.isnan(y[-1, 0]) and not np.isnan(np.delete(y, -1, axis=0)).any()
    np.testing.assert_allclose(y[:-1], clean[:-1], atol=2e-6, rtol=0)


@pytest.mark.parametrize("method,pil", [("pil_lanczos", Image.Resampling.LANCZOS), ("pil_box", Image.Resampling.BOX)])
def test_shared_pillow_band_is_bit_exact_under_jit(method, pil):
    # Pillow's uint8 path: 22-bit weights of the patterns only, int32 sums, rows never expanded
    a = RNG.integers(0, 256, (30000, 2), dtype=np.uint8)
    y, record, plan = _shared_plan(a, (30, 2), method, False)
    assert plan.row_class is not None
    want = np.asarray(Image.fromarray(a).resize((2, 30), pil))
    np.testing.assert_array_equal(np.asarray(y), want)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: resize(v, (30, 2), method))(a)), want)


# --- the CPU row loop (a large shrink's first pass over rows of at least row_loop_min_run) ---


@pytest.fixture
def row_loop_on(tune):
    """The row loop wherever it is eligible, whatever this machine's thread count (the gather
    otherwise): fresh compilations, as eligibility is decided when a program is lowered."""
    tune(row_loop_max_threads=1 << 20)
    jax.clear_caches()
    yield
    jax.clear_caches()


def _while_loops(fn, x) -> int:
    return jax.jit(fn).lower(x).compile().as_text().count(" while(")


# [H, W, 3] with rows of W * 3 >= row_loop_min_run elements, H shrunk by ~15 (linear: ~31 taps)
PHOTO_SHAPE, PHOTO_OUT = (600, 400, 3), (40, 30, 3)


def test_row_loop_takes_only_wide_first_passes_over_long_rows(row_loop_on, tune):
    x = jnp.zeros(PHOTO_SHAPE, jnp.uint8)
    assert _while_loops(lambda v: resize(v, PHOTO_OUT, "linear", antialias=True), x) == 1
    assert _while_loops(lambda v: resize(v, (40, 400, 3), "linear", antialias=True), x) == 1
    # too few taps, rows too short, or too many threads: the gather
    assert _while_loops(lambda v: resize(v, (300, 30, 3), "linear", antialias=True), x) == 0
    short = jnp.zeros((600, 100, 3), jnp.uint8)  # rows of 300 elements
    assert _while_loops(lambda v: resize(v, (40, 100, 3), "linear", antialias=True), short) == 0
    tune(row_loop_max_threads=0)
    jax.clear_caches()
    assert _while_loops(lambda v: resize(v, PHOTO_OUT, "linear", antialias=True), x) == 0


# both axes shrunk by ~2.6: cubic bands of ~11 taps, planned as two passes (their product exceeds
# fuse_max_taps) that XLA would fuse again, recomputing the first pass once per tap of the second;
# the first pass does 460 x 2400 x 6 (linear) or 11 (cubic) multiply-adds (>= row_loop_before_band_min_work)
NARROW_SHAPE, NARROW_OUT = (1200, 800, 3), (460, 307, 3)


def test_row_loop_takes_a_narrow_first_pass_that_xla_would_fuse_into_the_next_band(row_loop_on, tune):
    x = jnp.zeros(NARROW_SHAPE, jnp.uint8)
    assert _while_loops(lambda v: resize(v, NARROW_OUT, "cubic", antialias=True), x) == 1
    assert _while_loops(lambda v: resize(v, NARROW_OUT, "linear", antialias=True), x) == 1
    # a second band wider than xla_max_duplication (XLA keeps the passes apart), no second pass,
    # or too little work to pay for the loop's longer compile: the gather below row_loop_min_taps
    assert _while_loops(lambda v: resize(v, (460, 50, 3), "cubic", antialias=True), x) == 0
    assert _while_loops(lambda v: resize(v, (460, 800, 3), "cubic", antialias=True), x) == 0
    small = jnp.zeros(PHOTO_SHAPE, jnp.uint8)  # 230 x 1200 x 11
    assert _while_loops(lambda v: resize(v, (230, 153, 3), "cubic", antialias=True), small) == 0
    tune(row_loop_before_band_min_work=1)
    jax.clear_caches()
    assert _while_loops(lambda v: resize(v, (230, 153, 3), "cubic", antialias=True), small) == 1
    tune(xla_max_duplication=0)
    jax.clear_caches()
    assert _while_loops(lambda v: resize(v, NARROW_OUT, "cubic", antialias=True), x) == 0


def test_narrow_row_loop_matches_torch_and_jax_image(row_loop_on):
    torch = pytest.importorskip("torch")
    a = RNG.integers(0, 256, NARROW_SHAPE, dtype=np.uint8)
    fn = jax.jit(lambda v: resize(v, NARROW_OUT, "linear", antialias=True))
    assert _while_loops(fn, jnp.asarray(a)) == 1
    t = torch.from_numpy(a).permute(2, 0, 1)[None].float()
    want = torch.nn.functional.interpolate(t, size=NARROW_OUT[:2], mode="bilinear", antialias=True)
    # torch's float32 coordinates and weights put it 4.6e-3 to 5.8e-3 from the float64 result over six
    # draws (ours: 2.9e-5 to 3.4e-5), so against torch within 1e-2 and against float64 within 2e-4
    got = np.asarray(fn(a))
    np.testing.assert_allclose(got, want[0].permute(1, 2, 0).numpy(), atol=1e-2, rtol=0)
    with jax.enable_x64(True):
        exact = np.asarray(jax.image.resize(a.astype(np.float64), NARROW_OUT, "linear", antialias=True))
    np.testing.assert_allclose(got, exact, atol=2e-4, rtol=0)
    got = np.asarray(jax.jit(lambda v: resize(v, NARROW_OUT, "cubic", antialias=True))(a.astype(np.float32)))
    with jax.enable_x64(True):  # jax.image in float32 is itself ~3e-3 off (ours: ~5e-5)
        want = np.asarray(jax.image.resize(a.astype(np.float64), NARROW_OUT, "cubic", antialias=True))
    np.testing.assert_allclose(got, want, atol=2e-4, rtol=0)


def test_row_loop_threads_default_is_this_machines_affinity():
    threads = _decide._cpu_threads()
    assert 1 <= threads <= (os.cpu_count() or threads)
    cpu = TUNING["cpu"]
    assert _decide.row_loop((600, 1200), 0, 30, 40, 0, cpu) == (threads <= cpu.row_loop_max_threads)


@pytest.mark.parametrize(
    "method,pil", [("pil_bilinear", Image.Resampling.BILINEAR), ("pil_bicubic", Image.Resampling.BICUBIC)]
)
def test_row_loop_pillow_filters_are_bit_exact(row_loop_on, method, pil):
    # Pillow resamples horizontally first: a height-only shrink of a grayscale image has the
    # vertical pass first (an RGB image's horizontal pass runs along runs of 3: the gather)
    a = RNG.integers(0, 256, (600, 1200), dtype=np.uint8)
    out = (40, 1200)
    want = np.asarray(Image.fromarray(a).resize(out[::-1], pil))
    assert _while_loops(lambda v: resize(v, out, method), jnp.asarray(a)) == 1
    np.testing.assert_array_equal(np.asarray(resize(a, out, method)), want)  # eager
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: resize(v, out, method))(a)), want)


@pytest.mark.parametrize("method", ["linear", "cubic"])
def test_row_loop_matches_jax_image_values_and_gradients(row_loop_on, method):
    x = RNG.standard_normal((2, *PHOTO_SHAPE)).astype(np.float32)  # a batch: rows of 2 x 1200
    out = (2, *PHOTO_OUT)
    fn = jax.jit(lambda v: resize(v, out, method, antialias=True))
    assert _while_loops(fn, jnp.asarray(x)) == 1
    want = np.asarray(jax.image.resize(x, out, method, antialias=True))
    np.testing.assert_allclose(np.asarray(fn(x)), want, atol=2e-6, rtol=0)
    batched = jax.vmap(lambda v: resize(v, PHOTO_OUT, method, antialias=True))(jnp.asarray(x))
    np.testing.assert_allclose(np.asarray(batched), want, atol=2e-6, rtol=0)
    g = RNG.standard_normal(out).astype(np.float32)

    def grad(f):
        return np.asarray(jax.grad(lambda v: jnp.sum(f(v) * g))(jnp.asarray(x)))

    got = grad(lambda v: resize(v, out, method, antialias=True))
    np.testing.assert_allclose(got, grad(lambda v: jax.image.resize(v, out, method, antialias=True)), atol=2e-6)


def test_row_loop_keeps_nan_local(row_loop_on):
    x = RNG.standard_normal(PHOTO_SHAPE).astype(np.float32)
    want = np.asarray(jax.image.resize(x, PHOTO_OUT, "linear", antialias=True))  # the clean image
    x[0, 7] = np.nan  # input row 0 lies in the first output row's window only
    got = np.asarray(jax.jit(lambda v: resize(v, PHOTO_OUT, "linear", antialias=True))(x))
    assert np.isnan(got[0]).any() and not np.isnan(got[1:]).any()
    np.testing.assert_allclose(got[1:], want[1:], atol=2e-6, rtol=0)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.int32])
@pytest.mark.parametrize("axis", [0, 1])
def test_row_loop_adds_the_gathers_terms_in_their_order(dtype, axis):
    # the same sums as banded_traced (the gather), clipped indices and zero weights included
    shape = [3, 70, 1100] if axis == 1 else [70, 1100]
    x = jnp.asarray(RNG.integers(0, 200, shape).astype(dtype))
    out, k = 9, 26
    index = jnp.asarray(RNG.integers(-3, 73, (out, k)), jnp.int32)  # some out of range: clamped
    w = RNG.integers(-50, 50, (out, k)) if dtype == np.int32 else RNG.standard_normal((out, k))
    w[:, 3] = 0
    weight = jnp.asarray(w.astype(np.int32 if dtype == np.int32 else np.float32))
    masked = _banded.zero_columns(np.asarray(weight))
    got = jax.jit(lambda v: _banded.row_loop(v, index, weight, axis, masked))(x)
    want = jax.jit(lambda v: _banded.banded_traced(v, [(index, weight)], [axis], [masked]))(x)
    assert got.dtype == want.dtype and got.shape == want.shape
    # numpy: [..., out, k, run] gathered rows, summed with the weights
    rows = np.take(np.asarray(x).astype(np.float64), np.clip(np.asarray(index), 0, 69), axis=axis)
    exact = np.einsum("ok,...okr->...or", w, rows)
    if dtype == np.int32:  # integer sums: exact, in any order
        np.testing.assert_array_equal(np.asarray(got), exact.astype(np.int64))
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
        return
    # float32 sums of k terms (the same terms in the same order, but XLA may contract a multiply
    # and an add into an FMA in one program and not the other): each within k roundings of the
    # largest sum of |terms| from the exact value
    bound = k * np.finfo(np.float32).eps * np.einsum("ok,...okr->...or", np.abs(w), np.abs(rows)).max()
    np.testing.assert_allclose(np.asarray(got, np.float64), exact, rtol=0, atol=bound)
    np.testing.assert_allclose(np.asarray(want, np.float64), exact, rtol=0, atol=bound)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 28])
def test_sum_terms_adds_every_term_once(n):
    # integer terms: the exact sum in any order (the fixed-point path); float terms: within float32
    # rounding of numpy's float64 sum. Each term is a power of two in its own bit, so a term dropped
    # or added twice shows in the integer result.
    ints = [jnp.full((5,), 1 << j, jnp.int32) for j in range(n)]
    assert np.asarray(_banded.sum_terms(ints, 4)).tolist() == [(1 << n) - 1] * 5
    floats = [RNG.standard_normal((3, 7)).astype(np.float32) for _ in range(n)]
    got = np.asarray(jax.jit(lambda *t: _banded.sum_terms(list(t), 4))(*floats))
    want = np.sum(np.asarray(floats, np.float64), axis=0)
    np.testing.assert_allclose(got, want, rtol=0, atol=n * 4e-7 * np.abs(floats).max())


def test_sum_terms_splits_the_dependent_adds():
    # one running sum is a chain of k - 1 dependent adds per element; ``chains`` partial sums cut it
    # to about k / chains + log2(chains) (counted on the jaxpr: the depth of nested adds)
    def depth(chains, k):
        jaxpr = jax.make_jaxpr(lambda *t: _banded.sum_terms(list(t), chains))(*[jnp.ones(3)] * k).jaxpr
        level = {v: 0 for v in jaxpr.invars}
        for eqn in jaxpr.eqns:
            d = 1 + max(level.get(v, 0) for v in eqn.invars if isinstance(v, jax.extend.core.Var))
            level.update({v: d for v in eqn.outvars})
        return level[jaxpr.outvars[0]]

    assert depth(1, 28) == 27
    assert depth(4, 28) == 6 + 2  # 7 terms per chain, then two pairwise levels
    assert depth(4, 3) == 2
