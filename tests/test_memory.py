"""keep_freed_memory: glibc's mallopt, checked in fresh processes (what a freed large block leaves)."""

import subprocess
import sys
import textwrap

import pytest

import jax_resize

_KEPT_MB = textwrap.dedent(
    """
    import os, sys
    import numpy as np
    import jax_resize
    if sys.argv[1] == "keep":
        assert jax_resize.keep_freed_memory()
    def rss_mb():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    before = rss_mb()
    y = np.ones((256 << 20,), np.uint8)  # a large block, as XLA:CPU's outputs
    del y
    print(rss_mb() - before)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_a_freed_large_block_stays_in_the_process():
    def kept_mb(mode):
        out = subprocess.run([sys.executable, "-c", _KEPT_MB, mode], capture_output=True, text=True, check=True)
        return float(out.stdout.strip())

    # by default glibc unmaps a freed 256 MiB block (its pages fault in again next time)
    assert kept_mb("default") < 32
    assert kept_mb("keep") > 200


def test_bad_arguments():
    with pytest.raises(TypeError, match="top_pad_bytes"):
        jax_resize.keep_freed_memory(top_pad_bytes=1.5)
    with pytest.raises(ValueError, match="top_pad_bytes"):
        jax_resize.keep_freed_memory(top_pad_bytes=-1)


def test_the_command_keeps_freed_memory_for_its_own_process(tmp_path, monkeypatch):
    import numpy as np
    from PIL import Image

    from jax_resize._src import cli

    calls = []
    monkeypatch.setattr(cli, "keep_freed_memory", lambda **kw: calls.append(kw) or True)
    monkeypatch.setenv("JAX_RESIZE_NO_CACHE", "1")
    Image.fromarray(np.zeros((8, 9, 3), np.uint8)).save(tmp_path / "a.png")
    assert cli.main([str(tmp_path / "a.png"), str(tmp_path / "b.png"), "--size", "4", "--quiet"]) == 0
    assert calls == [{}]
