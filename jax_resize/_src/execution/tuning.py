"""The tuning table: every threshold of the execution layer, one frozen row per backend.

Contract: :data:`TUNING` maps a backend (``"cpu"``, ``"gpu"``, ``"tpu"``) to a :class:`Tuning`;
:func:`tuning_for` resolves a jax backend name to its row. :mod:`.decide` reads these rows and
nothing else reads a threshold. The host-side limits, which do not depend on the device, are
``host.HOST`` (below this layer: the weights layer reads them too). Each field says what
it bounds and why; the measurements that set it are in ``benchmarks/RESULTS.md`` or its dated
log (``benchmarks/results/``, indexed there) under the section named in its comment.

A value not measured on a backend is listed in that row's ``not_measured``; such rows never turn
on a CPU-only form (row loops, row blocks, the fused two-axis decimation, CPU compiler options).
A new backend is one new row.
"""

from __future__ import annotations

import dataclasses

#: CPU, GPU, TPU: the strategies ``"auto"`` tries for a filter record, in order.
_SLICES_FIRST = ("polyphase", "banded")


@dataclasses.dataclass(frozen=True)
class Tuning:
    """One backend's thresholds (hashable: a static argument of the jitted application)."""

    backend: str
    #: What set the row: the machine it was measured on.
    measured_on: str
    #: Fields whose value was not measured on this backend (copied from the CPU row or a default).
    not_measured: tuple[str, ...] = ()

    # -- strategy (decide.strategies) --
    #: Strategies ``"auto"`` tries for a filter record; the first eligible that does not decline
    #: wins. Dense leads on TPU (matmul units); elsewhere slices and gathers do less work.
    #: RESULTS.md "Photos after polyphase integer decimation", "GPU: NVIDIA H200".
    auto: tuple[str, ...] = _SLICES_FIRST
    #: Constant filters of at least this many taps per output go banded first (its CPU row loop
    #: wins on large shrinks); ``None``: no such rule. RESULTS.md "Row loop for a large shrink".
    wide_min_taps: int | None = 12
    #: Polyphase plans take ``min_phases..max_phases`` phases and at most ``max_terms`` slice terms
    #: (compile time grows with the terms). RESULTS.md "Photos after polyphase integer decimation".
    polyphase_min_phases: int = 1
    polyphase_max_phases: int = 8
    polyphase_max_terms: int = 32
    #: A shrinking axis (step > phases) takes polyphase only within at most this many phases
    #: (``None``: as above) and with bands of at least this many taps; elsewhere banded does.
    #: GPU row: one-phase bands of at least 8 taps (RESULTS.md "GPU: the polyphase rule for
    #: shrinks"). Upsampling keeps the general range.
    polyphase_shrink_max_phases: int | None = None
    polyphase_shrink_min_taps: int = 1

    # -- pass order and grouping (decide.pass_order, decide.groups) --
    #: Pass order costs a gather along an axis whose contiguous run is shorter than ``short_run``
    #: at ``short_run_cost`` times an outer-axis tap (a short run gathers element by element).
    #: RESULTS.md "Irregular-ratio photo rows".
    short_run: int = 16
    short_run_cost: float = 2.5
    #: Up to this many resampled axes every pass order is costed; beyond, shrink-first.
    max_costed_axes: int = 4
    #: Consecutive constant bands share one pass while their tap counts multiply to at most this.
    #: RESULTS.md "Passes that XLA fused back together".
    fuse_max_taps: int = 16

    # -- the summation and the looped form (banded) --
    #: Interleaved partial sums of a band's terms (no chain of k - 1 dependent adds).
    #: RESULTS.md "Dependent adds".
    sum_chains: int = 4
    #: Above this many taps on one axis the taps run in a loop (compile time stops growing).
    max_unrolled_taps: int = 64
    #: Unrolled taps per loop iteration along a short-run axis / a long-run axis (row copies: a
    #: smaller body compiles faster for the same speed). RESULTS.md "Extreme shrinks".
    loop_chunk: int = 8
    loop_chunk_long_runs: int = 2
    #: A tap's gather of fewer than ``small_tap`` elements is batched: ``loop_elements`` gathered
    #: elements per iteration (10**6 -> 3 shrinks: the loop overhead would dominate).
    small_tap: int = 4096
    loop_elements: int = 1 << 22

    # -- CPU row loop (decide.row_loop); None: never --
    #: A first-pass band of at least this many taps over runs of at least ``row_loop_min_run``
    #: elements runs one output row per iteration, where XLA has at most ``row_loop_max_threads``
    #: threads (the loop is one thread; the gather splits across threads).
    #: RESULTS.md "Row loop for a large shrink's first pass".
    row_loop_min_taps: int | None = None
    row_loop_min_run: int = 1024
    row_loop_max_threads: int = 2
    #: XLA's CPU fusion copies a producer into a consumer indexing it at most this many times
    #: (``kAllowedCodeDuplication``): a first pass read by such a band becomes a row loop from
    #: ``row_loop_min_taps_before_band`` taps when it does at least ``row_loop_before_band_min_work``
    #: multiply-adds (the loop compiles longer). RESULTS.md "Passes that XLA fused back together".
    xla_max_duplication: int = 15
    row_loop_min_taps_before_band: int = 2
    row_loop_before_band_min_work: int = 1 << 22

    # -- CPU row blocks and the fused decimation (decide.chain_form); None: never --
    #: A chain whose first pass's output takes at least this many bytes (glibc's largest mmap
    #: threshold) runs in blocks of about ``block_bytes`` of it. RESULTS.md "Large intermediates".
    #: A per-pass integer result this large is kept in the output dtype ("8-bit intermediates").
    block_min_bytes: int | None = None
    block_bytes: int = 4 << 20
    #: Two one-phase polyphase passes of at most this many terms together, above
    #: ``block_min_bytes``, run as one pass over both axes. RESULTS.md "Two decimations as one pass".
    fused_max_terms: int | None = None

    # -- shape buckets (decide.bucket); None: never --
    #: Until a call's signature was met ``exact_after`` times, eager calls pad each resized input
    #: axis to the grid ``bucket_min * bucket_ratio**j`` (``bucket_ratio_large`` from
    #: ``bucket_large``, where a padded run costs more) and each band to the widest power-of-two
    #: taps met there: one program per class. RESULTS.md "Streams of distinct shapes".
    bucket_ratio: float | None = 3.0
    bucket_min: int = 64
    bucket_large: int = 1728
    bucket_ratio_large: float = 1.5
    exact_after: int = 4
    #: Output sizes of a shared program: a grid of ratio ``bucket_out_ratio`` from 1 (the rows
    #: past a call's own are computed and cut), ``bucket_out_ratio_shrink`` along an axis that
    #: shrinks (its padded rows cost less than the compilations a coarser grid saves).
    #: RESULTS.md "Shared programs with the own program's bits", "A coarser output grid for shrinks".
    bucket_out_ratio: float = 1.25
    bucket_out_ratio_shrink: float = 2.0
    #: Larger padded inputs (elements) get their own program: their run outweighs a compilation.
    bucket_max_elements: int = 1 << 27

    # -- compilation (decide.compiler_options) --
    #: XLA options of an eager call's own compilation (not for polyphase plans; never inside a
    #: caller's trace). RESULTS.md "First calls".
    compiler_options: tuple[tuple[str, object], ...] = ()


_CPU_ONLY = (
    "row_loop_min_taps",
    "row_loop_min_run",
    "row_loop_max_threads",
    "xla_max_duplication",
    "row_loop_min_taps_before_band",
    "row_loop_before_band_min_work",
    "block_min_bytes",
    "block_bytes",
    "fused_max_terms",
    "compiler_options",
)
#: What the H200 runs varied: the strategies (dense never fastest), and which shrinks take
#: polyphase (RESULTS.md "GPU: the polyphase rule for shrinks").
_MEASURED_ON_GPU = ("auto", "polyphase_shrink_max_phases", "polyphase_shrink_min_taps")


def _unmeasured(*measured: str) -> tuple[str, ...]:
    skip = ("backend", "measured_on", "not_measured", *_CPU_ONLY, *measured)
    return tuple(f.name for f in dataclasses.fields(Tuning) if f.name not in skip)


#: The rows. CPU: measured on a 2-core x86 VM (RESULTS.md). GPU: H200 runs of
#: ``benchmarks/device_check.py`` ("GPU: NVIDIA H200"); what they did not vary is listed as not
#: measured (CPU values). Neither accelerator row turns on a CPU-only form.
TUNING: dict[str, Tuning] = {
    "cpu": Tuning(
        "cpu",
        "2-core x86 CPU (RESULTS.md)",
        row_loop_min_taps=24,
        block_min_bytes=32 << 20,
        fused_max_terms=16,
        compiler_options=(("xla_cpu_use_fusion_emitters", False),),
    ),
    "gpu": Tuning(
        "gpu",
        "NVIDIA H200, device_check runs (RESULTS.md 'GPU: NVIDIA H200', 'GPU: the polyphase rule for shrinks')",
        not_measured=_unmeasured(*_MEASURED_ON_GPU),
        polyphase_shrink_max_phases=1,
        polyphase_shrink_min_taps=8,
    ),
    # matmul units make dense cheap: dense first, and no wide-filter rule (not measured on a TPU)
    "tpu": Tuning(
        "tpu",
        "not measured",
        not_measured=_unmeasured(),
        auto=("dense", *_SLICES_FIRST),
        wide_min_taps=None,
        bucket_ratio=None,
    ),
}


def tuning_for(backend: str | None) -> Tuning:
    """The row of a jax backend name (``jax.default_backend()``: ``"cpu"``, ``"gpu"``, ``"tpu"``;
    ``"cuda"``/``"rocm"`` and other accelerators take the GPU row, which has no CPU-only form).

    Raises:
      ValueError: ``backend`` not a string.
    """
    if not isinstance(backend, str):
        raise ValueError(f"backend must be a jax backend name such as 'cpu', 'gpu' or 'tpu'; got {backend!r}.")
    return TUNING.get(backend.lower(), TUNING["gpu"])
