"""The one place that decides how a resize runs, from records, plans and a :class:`~.tuning.Tuning`.

Contract: every choice of the execution layer is a function here, of the plans' capabilities
(``fusable``, ``linear``, ``taps``, ...) and one backend's tuning row; implementations ask, they
do not decide. Choices on shapes known only when a program is traced (``vmap`` adds axes) are
asked at trace time: :func:`loop_form`, :func:`row_loop`, :func:`chain_form`.
"""

from __future__ import annotations

import itertools
import math
import os

import numpy as np

from .. import records as _records
from ..host import HOST
from .tuning import Tuning

#: What a requested strategy tries, in order; ``"auto"`` comes from the tuning row.
REQUESTED = {"dense": ("dense",), "banded": ("banded",), "polyphase": ("polyphase", "banded")}
#: Accepted values of the ``strategy=`` argument of the front ends.
STRATEGY_NAMES = ("auto", "dense", "banded", "polyphase")


def strategies(record, requested: str, tuning: Tuning) -> tuple[str, ...]:
    """The strategies a record tries, in order: nearest records gather; a filter record takes the
    requested strategy (with polyphase falling back to banded), or the tuning row's ``auto`` —
    banded first for a constant filter of at least ``wide_min_taps`` taps."""
    if requested == "bucketed":
        return ("bucketed",)
    if isinstance(record, _records.Gather):
        return ("gather",)
    if requested != "auto":
        return REQUESTED[requested]
    wide = tuning.wide_min_taps is not None and record.constant and record.width >= tuning.wide_min_taps
    return ("banded",) if wide else tuning.auto


def bucket(ops, requested: str, calls: int, tuning: Tuning) -> bool:
    """Whether an eager call runs bucketed (:mod:`.buckets`): the row has a grid, the strategy is
    ``"auto"`` or ``"banded"`` (never dense first), every record is constant, and the call's
    signature was met fewer than ``exact_after`` times (``calls`` counts this one)."""
    constant = all(isinstance(r.index, np.ndarray) and (isinstance(r, _records.Gather) or r.constant) for _, r in ops)
    return (
        tuning.bucket_ratio is not None
        and (requested == "banded" or (requested == "auto" and tuning.auto[0] != "dense"))
        and constant
        and calls < tuning.exact_after
    )


def shareable(plans, exact, tuning: Tuning) -> bool:
    """Whether a shared program (:mod:`.buckets`: a padded band per filter) reproduces the
    arithmetic of ``plans`` bit for bit: every pass a gather, exact int32 fixed point (``exact``:
    any form adds the same integers), or an unrolled band of host taps — the shared program's own
    form. Polyphase, dense, looped and shared-band float passes sum in another order."""
    for p, is_exact in zip(plans, exact):
        if p.gathers or is_exact:
            continue
        if p.strategy != "banded" or p.row_class is not None or not p.constant or not unrolled(p.taps, tuning):
            return False
    return True


def first_pass_loops(plans, shape, tuning: Tuning, *, separate: bool) -> bool:
    """Whether the application of ``plans`` on an input of ``shape`` runs its first pass as the
    CPU row loop (:func:`groups`, :func:`first_pass`, then :func:`row_loop`): what a shared program
    of the same call must do, since the loop may contract multiply-adds differently."""
    passes = groups(plans, tuning, separate=separate)
    first = passes[0]
    if tuning.row_loop_min_taps is None or len(first) != 1 or not first[0].fusable:
        return False
    p = first[0]
    return row_loop(shape, p.axis, p.taps, int(p.index.shape[0]), next_band_taps(passes), tuning)


def bucket_size(n: int, tuning: Tuning) -> int:
    """The smallest size of the row's grid ``>= n``: ``bucket_min * bucket_ratio**j`` (rounded up)
    up to ``bucket_large``, then ``bucket_ratio_large`` times the last."""
    size = tuning.bucket_min
    while size < n:
        ratio = tuning.bucket_ratio if size < tuning.bucket_large else tuning.bucket_ratio_large
        size = math.ceil(size * (ratio or 2.0))
    return size


def bucket_out_size(n: int, tuning: Tuning, *, shrink: bool = False) -> int:
    """The outputs a shared program computes for ``n``: the smallest size ``>= n`` of the grid 1,
    2, 3, ... ``ceil(size * ratio)`` (at most ``ratio`` times ``n``: a small axis stays small), the
    ratio ``bucket_out_ratio_shrink`` for an axis that shrinks (``shrink``), else ``bucket_out_ratio``."""
    ratio = tuning.bucket_out_ratio_shrink if shrink else tuning.bucket_out_ratio
    size = 1
    while size < n:
        size = math.ceil(size * ratio)
    return size


def bucket_taps(k: int, widest: int) -> int:
    """Taps of a shared program's band of ``k`` taps: the next power of two, or the ``widest``
    already met among bands that sum alike (:func:`taps_class`)."""
    return max(1 << max(k - 1, 0).bit_length(), widest)


def taps_class(k: int, tuning: Tuning) -> tuple[bool, bool]:
    """What a band of ``k`` taps must share with the bands of its shared program: its form
    (:func:`unrolled`) and whether :func:`.banded.sum_terms` adds its terms in one chain (fewer
    than ``2 * sum_chains``)."""
    return unrolled(k, tuning), k < 2 * tuning.sum_chains


def dense_fits(record) -> bool:
    """Whether a record's dense matrix stays within ``HOST.max_dense_elements``."""
    return record.out_size * record.in_size <= HOST.max_dense_elements


def lazy_transpose(record) -> bool:
    """Whether a constant band builds its transposed taps only when a gradient asks."""
    return record.out_size * record.width >= HOST.lazy_transpose_taps


def dense_order(requested: str, tuning: Tuning) -> bool:
    """Whether the pass order is costed as dense contractions (a matmul reads whole rows)."""
    return requested == "dense" or (requested == "auto" and tuning.auto[0] == "dense")


def _shrink_first(pair):
    """Shrink first; between equal upsampling ratios the inner axis first (its output
    interleaves the shortest runs, so it should write the smaller array)."""
    axis, record = pair
    ratio = record.out_size / max(record.in_size, 1)
    return (ratio, -axis if ratio > 1 else axis)


def _work(ops, shape, dense: bool, tuning: Tuning) -> float:
    """Modelled work of ``ops`` in this order: per pass, output elements x taps (``in_size`` for a
    matrix), gathers along runs shorter than ``short_run`` costed ``short_run_cost`` times."""
    shape = list(shape)
    total = 0.0
    for axis, record in ops:
        shape[axis] = record.out_size
        taps = (record.in_size if dense else record.width) if isinstance(record, _records.Taps) else 1
        run = int(np.prod(shape[axis + 1 :], dtype=np.float64))
        short = not dense and run < tuning.short_run  # a matmul does not gather
        total += float(np.prod(shape, dtype=np.float64)) * taps * (tuning.short_run_cost if short else 1.0)
    return total


def pass_order(ops, shape, tuning: Tuning, *, dense: bool = False) -> list:
    """The order of least modelled work; ties keep shrink-first; beyond ``max_costed_axes`` axes,
    shrink-first."""
    ops = sorted(ops, key=_shrink_first)
    if len(ops) > tuning.max_costed_axes:
        return ops
    return list(min(itertools.permutations(ops), key=lambda perm: _work(perm, shape, dense, tuning)))


def groups(plans, tuning: Tuning, *, separate: bool) -> list[list]:
    """The passes: consecutive fusable plans share one while their tap counts multiply to at most
    ``fuse_max_taps`` (:func:`fused_runs`; never when ``separate``: a per-pass integer policy)."""
    out: list[list] = []
    run: list = []  # consecutive fusable plans

    def close():
        out.extend([run[i] for i in indices] for indices in fused_runs([p.taps for p in run], tuning))
        run.clear()

    for p in plans:
        if not separate and p.fusable:
            run.append(p)
        else:
            close()
            out.append([p])
    close()
    return out


def fused_runs(taps, tuning: Tuning) -> list[list[int]]:
    """Indices of consecutive bands of ``taps`` taps each, grouped while their counts multiply to
    at most ``fuse_max_taps``: the passes of :func:`groups`, and of a fused group's transposed
    bands (wider when the group upsamples: a gradient's terms never multiply out across axes)."""
    out: list[list[int]] = []
    product = 0
    for i, k in enumerate(taps):
        if out and product * k <= tuning.fuse_max_taps:
            out[-1].append(i)
            product *= k
        else:
            out.append([i])
            product = k
    return out


def next_band_taps(passes) -> int:
    """The taps of the band reading the first pass's output: the product of the second pass's tap
    counts when the first pass is one plan and the second fusable bands; else 0."""
    if len(passes) < 2 or len(passes[0]) != 1 or not all(p.fusable for p in passes[1]):
        return 0
    return int(np.prod([p.taps for p in passes[1]]))


def first_pass(plan, next_taps: int, tuning: Tuning):
    """``plan`` as the first pass (it reads the row-major input): a fusable band is marked so that
    its CPU lowering may run :func:`row_loop`, where the row has one. Later passes read arrays
    whose layout XLA chooses; a row loop there made XLA transpose them."""
    if tuning.row_loop_min_taps is None or not plan.fusable:
        return plan
    return plan.as_first_pass(next_taps)


def chained(passes) -> int:
    """How many leading passes run as one chain: the longest prefix of passes that are each one
    constant linear map without extrapolated rows, if at least two (else 0)."""
    n = 0
    while n < len(passes) and all(p.linear and p.outside is None for p in passes[n]):
        n += 1
    return n if n >= 2 else 0


def compiler_options(plans, tuning: Tuning, exact: bool) -> dict | None:
    """XLA options of an eager call's own compilation, or ``None`` (XLA's defaults): the row's
    options for a program whose arithmetic is ``exact`` (gathers, int32 fixed point) unless a plan
    asks for the defaults (polyphase interleaving runs faster on the fusion emitters). Float
    programs keep XLA's defaults: a caller's ``jit`` compiles with them, and other emitters
    contract multiply-adds differently (one answer per input, eager or traced)."""
    if not exact or not tuning.compiler_options or any(p.default_compiler for p in plans):
        return None
    return dict(tuning.compiler_options)


def fetched(array, plan) -> bool:
    """Whether a caller's trace embeds a concrete plan array behind an optimization barrier rather
    than as a plain constant: from ``HOST.fetch_min_bytes``, and every array of a plan that asks
    (a shared band, whose expanded rows XLA would constant-fold at compile time)."""
    return plan.fetch_all or array.nbytes >= HOST.fetch_min_bytes


def unrolled(k: int, tuning: Tuning) -> bool:
    """Whether ``k`` taps on one axis are unrolled (else looped: compile time stops growing)."""
    return k <= tuning.max_unrolled_taps


def loop_form(shape, axis: int, out: int, k: int, tuning: Tuning) -> tuple[bool, int]:
    """``(small, c)`` of the looped form of ``k`` taps along ``axis`` of ``shape``: ``small`` when one
    tap's gather has fewer than ``small_tap`` elements (then ``c`` taps are gathered at once, up to
    ``loop_elements`` elements), else ``c`` unrolled taps per iteration (``loop_chunk``, or
    ``loop_chunk_long_runs`` along runs of at least ``short_run``)."""
    rest = int(np.prod(shape, dtype=np.int64)) // max(int(shape[axis]), 1)
    small = out * rest < tuning.small_tap
    if small:
        return True, max(1, min(k, tuning.loop_elements // max(out * rest, 1)))
    run = int(np.prod(shape[axis + 1 :], dtype=np.int64))
    return False, tuning.loop_chunk if run < tuning.short_run else tuning.loop_chunk_long_runs


def _cpu_threads() -> int:
    """The CPU threads this process may use (its affinity where the OS reports it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity API (macOS, Windows)
        return os.cpu_count() or 1


def row_loop(shape, axis: int, k: int, out: int, next_taps: int, tuning: Tuning) -> bool:
    """Whether a marked first-pass band (``k`` taps into ``out`` rows along ``axis`` of ``shape``)
    runs as the CPU row loop: runs of at least ``row_loop_min_run``, at most
    ``max_unrolled_taps`` taps and at most ``row_loop_max_threads`` threads, and at least
    ``row_loop_min_taps`` taps — ``row_loop_min_taps_before_band`` when the next band has at most
    ``xla_max_duplication`` taps and the pass does ``row_loop_before_band_min_work`` multiply-adds
    (XLA would recompute this pass once per tap of that band)."""
    if tuning.row_loop_min_taps is None:
        return False
    run = int(np.prod(shape[axis + 1 :], dtype=np.int64))
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    work = outer * out * run * k
    duplicated = 0 < next_taps <= tuning.xla_max_duplication and work >= tuning.row_loop_before_band_min_work
    least = tuning.row_loop_min_taps_before_band if duplicated else tuning.row_loop_min_taps
    return (
        least <= k <= tuning.max_unrolled_taps
        and run >= tuning.row_loop_min_run
        and int(shape[axis]) > 0
        and _cpu_threads() <= tuning.row_loop_max_threads
    )


def narrow_intermediate(nbytes: int, next_plan, tuning: Tuning) -> bool:
    """Whether a per-pass integer result of ``nbytes`` (int32, already clipped to the output
    dtype's range) is stored in the output dtype for ``next_plan``: from ``block_min_bytes``,
    where the int32 array would be freshly mapped on every call; below it the next pass's
    conversions cost more than they save (RESULTS.md "8-bit intermediates")."""
    return tuning.block_min_bytes is not None and nbytes >= tuning.block_min_bytes and next_plan.reads_integers


def chain_form(parts, first_out_bytes: int, tuning: Tuning) -> str | None:
    """How a chain of passes (``parts``: implementations) runs on CPU: ``"fused"`` — two
    one-phase polyphase passes on different axes of at most ``fused_max_terms`` terms together as
    one pass over both axes; ``"blocks"`` — the first pass in blocks of output rows when every
    later pass loops well; ``None`` — the passes in turn. Both forms need a first output of at
    least ``block_min_bytes`` (below it the loop only costs)."""
    if tuning.block_min_bytes is None or first_out_bytes < tuning.block_min_bytes:
        return None
    terms = [p.decimation_terms for p in parts]
    if (
        tuning.fused_max_terms is not None
        and len(parts) == 2
        and None not in terms
        and parts[0].axes != parts[1].axes
        and math.prod(terms) <= tuning.fused_max_terms
    ):
        return "fused"
    if len(parts) >= 2 and all(p.loops_well for p in parts[1:]):
        return "blocks"
    return None
