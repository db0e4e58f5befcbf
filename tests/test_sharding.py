"""Multi-device (SPMD) resizing on 8 forced host devices, in a subprocess.

A batch ``[8, H, W, C]`` sharded over a ``Mesh`` of 8 devices on the batch axis must resize with
no communication: the output keeps the batch sharding, equals the single-device result, and the
compiled HLO has no all-gather / all-to-all / collective-permute (nor any all-reduce with the
default banded strategy; ``strategy="dense"``'s NaN/Inf check adds a one-byte ``pred[]``
all-reduce). A spatially (H) sharded input must still give the right values; the collectives XLA
inserts there are printed and recorded in docs/notes/sharding.md.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(r"""
    import json, re
    import jax, numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    import jax_resize

    assert jax.device_count() == 8, jax.devices()
    mesh = Mesh(np.array(jax.devices()), ("d",))
    x = np.random.default_rng(0).standard_normal((8, 16, 24, 3)).astype(np.float32)
    CASES = {
        "onnx_linear": lambda v, s: jax_resize.onnx_resize(v, sizes=[32, 36], axes=[1, 2], mode="linear", strategy=s),
        "onnx_cubic": lambda v, s: jax_resize.onnx_resize(v, sizes=[32, 36], axes=[1, 2], mode="cubic", strategy=s),
        "onnx_nearest": lambda v, s: jax_resize.onnx_resize(v, scales=[1, 2, 1.5, 1], mode="nearest", strategy=s),
        "resize_linear_aa_down": lambda v, s: jax_resize.resize(v, (8, 7, 10, 3), "linear", strategy=s),
        "resize_cubic_up": lambda v, s: jax_resize.resize(v, (8, 32, 48, 3), "cubic", strategy=s),
    }
    COLLECTIVE = re.compile(
        r"= (.*?) (all-gather|all-reduce|all-to-all|collective-permute|reduce-scatter)(?:-start)?\("
    )
    single = jax.devices()[0]
    results = []
    for spec_name, spec in (("batch", P("d")), ("height", P(None, "d"))):
        xs = jax.device_put(x, NamedSharding(mesh, spec))
        for name, f in CASES.items():
            for strategy in ("auto", "dense"):
                fn = jax.jit(lambda v, f=f, s=strategy: f(v, s))
                out = fn(xs)
                want = jax.jit(lambda v, f=f, s=strategy: f(v, s))(jax.device_put(x, single))
                hlo = fn.lower(xs).compile().as_text()
                collectives = [(m.group(2), m.group(1)) for m in COLLECTIVE.finditer(hlo)]
                results.append(dict(
                    spec=spec_name, case=name, strategy=strategy,
                    out_spec=str(out.sharding.spec),
                    keeps_input_sharding=out.sharding.is_equivalent_to(xs.sharding, out.ndim),
                    max_abs_err=float(np.max(np.abs(np.asarray(out) - np.asarray(want)))),
                    collectives=collectives))
    print("RESULTS" + json.dumps(results))
""")


@pytest.fixture(scope="module")
def results():
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    proc = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    line = next(row for row in proc.stdout.splitlines() if row.startswith("RESULTS"))
    return json.loads(line[len("RESULTS") :])


def _select(results, spec):
    rows = [r for r in results if r["spec"] == spec]
    assert len(rows) == 10
    return rows


def test_batch_sharded_resize_is_local(results):
    for r in _select(results, "batch"):
        where = f"{r['case']} strategy={r['strategy']}"
        assert r["keeps_input_sharding"], f"{where}: output sharding {r['out_spec']}"
        assert r["max_abs_err"] <= 1e-5, where
        kinds = {kind for kind, _ in r["collectives"]}
        assert not kinds & {"all-gather", "all-to-all", "collective-permute", "reduce-scatter"}, (
            where,
            r["collectives"],
        )
        if r["strategy"] == "auto":  # banded on CPU: no communication at all
            assert not r["collectives"], (where, r["collectives"])
        else:  # dense: only the scalar all-finite check of apply.py's lax.cond is reduced
            assert all(kind == "all-reduce" and shape == "pred[]" for kind, shape in r["collectives"]), (
                where,
                r["collectives"],
            )


def test_height_sharded_resize_values(results):
    for r in _select(results, "height"):
        assert r["max_abs_err"] <= 1e-5, f"{r['case']} strategy={r['strategy']}"
    # What XLA inserts there depends on its SPMD partitioner and is recorded, not asserted
    # (docs/notes/sharding.md): with jax 0.10 a masked local gather + all-reduce of the resampled
    # array, the output replicated.
    for r in _select(results, "height"):
        print(r["case"], r["strategy"], r["out_spec"], sorted({kind for kind, _ in r["collectives"]}))
