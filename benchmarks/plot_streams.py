"""The performance guide's stream figure, drawn from recorded numbers (no resize runs here).

``python benchmarks/plot_streams.py [--input benchmarks/results/streams_rules.json]
[--output docs/guide/streams.png]`` reads what ``python benchmarks/streams.py --rules N --record FILE``
wrote — issue 53's output rules, photo by photo — and draws one panel per rule: each photo's
milliseconds along the stream for jax_resize (compilations included), Pillow and torch uint8
(log scale), and jax_resize's programs compiled so far (right axis). The docs build runs no code,
so the PNG is committed beside the page that shows it.
"""

from __future__ import annotations

import argparse
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
INPUT = HERE / "results" / "streams_rules.json"
OUTPUT = HERE.parent / "docs" / "guide" / "streams.png"
#: series drawn per rule: record field -> (label, colour)
SERIES = {
    "jax_resize_ms": ("jax_resize", "tab:blue"),
    "pillow_ms": ("Pillow", "tab:orange"),
    "torch_ms": ("torch uint8 (channels-last)", "tab:green"),
}


def draw(recorded: dict, output: pathlib.Path) -> pathlib.Path:
    """Draws ``recorded`` (``{"meta": {...}, "rules": {name: [photo, ...]}}``) into the PNG ``output``.

    Raises:
      ValueError: ``recorded`` has no rule, or a rule has no photo.
    """
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    rules = recorded.get("rules") or {}
    if not rules or not all(rules.values()):
        raise ValueError(f"recorded: expected at least one rule with photos; got {list(rules)}")
    fig, axes = plt.subplots(len(rules), 1, figsize=(8, 2.6 * len(rules)), sharex=True, squeeze=False)
    for ax, (name, calls) in zip(axes[:, 0], rules.items()):
        n = range(1, len(calls) + 1)
        for field, (label, colour) in SERIES.items():
            ax.plot(n, [c[field] for c in calls], ".", ms=3, color=colour, label=label)
        ax.set_yscale("log")
        ax.set_ylabel("ms per photo")
        ax.set_title(name, fontsize=10)
        programs = ax.twinx()
        programs.step(n, [c["programs"] for c in calls], where="post", color="tab:red", lw=1.2, label="programs")
        programs.set_ylabel("programs compiled", color="tab:red")
        programs.set_ylim(bottom=0)
        programs.tick_params(axis="y", colors="tab:red")
    handles = axes[0, 0].get_legend_handles_labels()[0] + programs.get_lines()[:1]
    labels = [label for label, _ in SERIES.values()] + ["jax_resize programs compiled (right axis)"]
    fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=8, markerscale=3)
    axes[-1, 0].set_xlabel("photo in the stream (a new size each)")
    meta = recorded.get("meta", {})
    fig.suptitle(f"{meta.get('command', '')}\n{meta.get('date', '')}, {meta.get('process', '')}", fontsize=8)
    fig.tight_layout(rect=(0, 0.06, 1, 1))  # room for the legend below
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, dpi=90)
    plt.close(fig)
    return output


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=pathlib.Path, default=INPUT)
    parser.add_argument("--output", type=pathlib.Path, default=OUTPUT)
    args = parser.parse_args(argv)
    print(draw(json.loads(args.input.read_text()), args.output))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
