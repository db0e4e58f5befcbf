"""jax_resize.flax: the nnx and linen layers equal jax_resize.resize and train inside a model.

Oracles: ``jax.image.resize`` (the layers' default semantics) and the ONNX reference evaluator
(for the ONNX options: nearest modes, coordinate modes, cubic coefficient, exclude_outside).
"""

import inspect
import pydoc
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

flax = pytest.importorskip("flax")
optax = pytest.importorskip("optax")
from conftest import reference_resize  # noqa: E402
from flax import nnx  # noqa: E402

import jax_resize  # noqa: E402
from jax_resize.flax import LinenResize, Resize, output_shape  # noqa: E402

RNG = np.random.default_rng(0)


def _jax_image(method, antialias=True):
    return lambda x, out: jax.image.resize(x, out, method, antialias=antialias)


def _onnx(**attrs):
    """The ONNX reference evaluator resizing the spatial axes (1 .. rank - 2) to ``out``."""

    def oracle(x, out):
        axes = list(range(1, x.ndim - 1))
        return reference_resize(np.asarray(x), sizes=[out[a] for a in axes], axes=axes, **attrs)

    return oracle


@pytest.mark.parametrize(
    "kwargs,shape,oracle",
    [
        (dict(scale=2), (2, 10, 12, 3), _jax_image("linear")),
        (dict(scale=(0.5, 1.5), method="cubic"), (2, 10, 12, 3), _jax_image("cubic")),
        (dict(size=(7, 5), method="lanczos3", antialias=False), (2, 10, 12, 3), _jax_image("lanczos3", False)),
        (
            dict(
                size=4, method="nearest", nearest_mode="round_prefer_ceil", coordinate_transformation_mode="asymmetric"
            ),
            (1, 9, 9, 2),
            _onnx(mode="nearest", nearest_mode="round_prefer_ceil", coordinate_transformation_mode="asymmetric"),
        ),
        (dict(scale=3, method="linear"), (2, 5, 4), _jax_image("linear")),  # [N, L, C]
        (
            dict(size=(3, 4, 5), method="cubic", cubic_coeff_a=-0.75, exclude_outside=False),
            (1, 6, 6, 6, 2),
            _onnx(mode="cubic", cubic_coeff_a=-0.75, exclude_outside=0, antialias=1),
        ),
    ],
    ids=["linear-x2", "cubic-scales", "lanczos3-size", "nearest-onnx-options", "linear-1d", "cubic-onnx-options-3d"],
)
def test_layer_equals_resize_and_the_oracle(kwargs, shape, oracle):
    """The nnx layer (eager and jitted) and the linen layer give jax.image.resize's values, or the
    ONNX reference's where ONNX options are set (nearest: exactly), and equal jax_resize.resize."""
    x = jnp.asarray(RNG.standard_normal(shape), jnp.float32)
    out_shape = output_shape(shape, size=kwargs.get("size"), scale=kwargs.get("scale"))
    want = np.asarray(oracle(x, out_shape))
    assert want.shape == out_shape
    atol = 0 if kwargs.get("method") == "nearest" else 5e-6
    layer = Resize(**kwargs)
    np.testing.assert_allclose(np.asarray(jax.jit(lambda v: layer(v))(x)), want, rtol=0, atol=atol)
    layer_kwargs = {k: v for k, v in kwargs.items() if k not in ("method", "antialias")}
    options = {k: v for k, v in layer_kwargs.items() if k not in ("size", "scale")}
    linen = LinenResize(
        size=kwargs.get("size"),
        scale=kwargs.get("scale"),
        method=kwargs.get("method", "linear"),
        antialias=kwargs.get("antialias", True),
        options=options,
    )
    np.testing.assert_allclose(np.asarray(linen.apply({}, x)), want, rtol=0, atol=atol)
    # the layers are jax_resize.resize (resize_with_onnx_attributes where ONNX attributes are set) with
    # the output shape worked out: the same values, bit for bit
    method, antialias = kwargs.get("method", "linear"), kwargs.get("antialias", True)
    if options:
        function = jax_resize.resize_with_onnx_attributes(x, out_shape, method, antialias=antialias, **options)
    else:
        function = jax_resize.resize(x, out_shape, method, antialias)
    np.testing.assert_array_equal(layer(x), function)
    np.testing.assert_array_equal(linen.apply({}, x), function)


def test_output_shape_floor_and_errors():
    assert output_shape((2, 7, 9, 3), scale=0.5) == (2, 3, 4, 3)
    assert output_shape((2, 7, 9, 3), size=(1, 2)) == (2, 1, 2, 3)
    with pytest.raises(ValueError, match="exactly one of size and scale"):
        Resize()
    with pytest.raises(ValueError, match="exactly one of size and scale"):
        Resize(size=3, scale=2)
    with pytest.raises(ValueError, match=r"scale=\(2, 2, 2\) must be one number or 2"):
        Resize(scale=(2, 2, 2))(jnp.ones((1, 4, 4, 1)))
    with pytest.raises(ValueError, match="must be finite and > 0"):
        Resize(scale=-1)(jnp.ones((1, 4, 4, 1)))
    with pytest.raises(TypeError, match="must contain ints"):
        Resize(size=(2.5, 3))(jnp.ones((1, 4, 4, 1)))
    with pytest.raises(ValueError, match="rank >= 3"):
        Resize(scale=2)(jnp.ones((4, 4)))
    with pytest.raises(ValueError, match="method='bogus' is not supported"):
        Resize(scale=2, method="bogus")(jnp.ones((1, 4, 4, 1)))


class EncoderDecoder(nnx.Module):
    """conv -> strided-conv downsample -> conv -> Resize x2 upsample -> conv."""

    def __init__(self, rngs, method="linear"):
        self.enc = nnx.Conv(1, 8, (3, 3), rngs=rngs)
        self.down = nnx.Conv(8, 16, (3, 3), strides=(2, 2), rngs=rngs)
        self.mid = nnx.Conv(16, 8, (3, 3), rngs=rngs)
        self.up = Resize(scale=2, method=method)
        self.dec = nnx.Conv(8, 1, (3, 3), rngs=rngs)

    def __call__(self, x):
        x = nnx.relu(self.enc(x))
        x = nnx.relu(self.down(x))
        x = nnx.relu(self.mid(x))
        return self.dec(self.up(x))


@pytest.mark.parametrize("method", ["linear", "cubic"])
def test_encoder_decoder_trains(method):
    # fixed synthetic batch: learn to smooth noisy blobs
    yy, xx = np.mgrid[0:16, 0:16] / 15.0
    centres = RNG.uniform(0.2, 0.8, (8, 2))
    clean = np.exp(-((yy[None] - centres[:, :1, None]) ** 2 + (xx[None] - centres[:, 1:, None]) ** 2) / 0.05)
    noisy = clean + 0.3 * RNG.standard_normal(clean.shape)
    x, y = (jnp.asarray(a[..., None], jnp.float32) for a in (noisy, clean))

    model = EncoderDecoder(nnx.Rngs(0), method)
    assert model(x).shape == x.shape
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)

    @nnx.jit
    def step(model, optimizer, x, y):
        loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
        optimizer.update(model, grads)
        return loss

    losses = [float(step(model, optimizer, x, y)) for _ in range(40)]
    assert np.all(np.isfinite(losses))
    assert losses[-1] < 0.5 * losses[0], losses


def test_import_jax_resize_does_not_import_flax():
    code = "import sys, jax_resize; assert 'flax' not in sys.modules and 'jax_resize.flax' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_signature_is_the_constructors():
    # flax.nnx's metaclass would report (*args, **kwargs); help() and IDEs need the real arguments
    sig = inspect.signature(Resize)
    assert str(sig) == "(size=None, scale=None, *, method='linear', antialias: bool = True, precision=None, **options)"
    assert "Resize(size=None, scale=None, *, method='linear'" in pydoc.render_doc(Resize, renderer=pydoc.plaintext)
    # the signature binds exactly what the constructor accepts
    sig.bind(scale=2, method="cubic", cubic_coeff_a=-0.75)
    with pytest.raises(TypeError):
        sig.bind(4, 2, "cubic")
    with pytest.raises(TypeError):
        Resize(4, 2, "cubic")
    # a layer instance keeps the signature of its call
    assert list(inspect.signature(Resize(scale=2)).parameters) == ["x"]
