"""Writes the Colab notebooks in this folder from the cell sources below (run after editing).

Notebooks use only the public API; ``tests/test_notebooks.py`` executes each one top to bottom.
"""

import pathlib

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = pathlib.Path(__file__).parent

INSTALL = """# Installs jax_resize only when running in Colab (locally, install the repo with pip first).
import sys, subprocess
if "google.colab" in sys.modules:
    SOURCE = "jax_resize"  # or "git+https://github.com/<you>/jax_resize" for a fork
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", SOURCE, "matplotlib"], check=True)"""

PHOTO = """import importlib.resources
import numpy as np
from PIL import Image
with importlib.resources.as_file(importlib.resources.files("jax_resize") / "data" / "astronaut.png") as p:
    photo = np.asarray(Image.open(p).convert("RGB"))   # 512 x 512 x 3 uint8, public domain (NASA)
photo.shape, photo.dtype"""

QUICKSTART = [
    new_markdown_cell(
        "# jax_resize quickstart\n\nResize a real photo with every mode, look at the "
        "weight matrices, and use `jit`, `vmap` and `grad`."
    ),
    new_code_cell(INSTALL),
    new_code_cell(
        "import jax, jax.numpy as jnp\nimport matplotlib\nimport matplotlib.pyplot as plt\n"
        "import jax_resize\nprint(jax_resize.__version__, jax.default_backend())"
    ),
    new_code_cell(PHOTO),
    new_markdown_cell("## Every mode on a 48 px crop, upscaled x4"),
    new_code_cell("""crop = photo[80:128, 200:248]
modes = [("nearest", {}), ("linear", {}), ("cubic", {}), ("cubic a=-0.5", dict(cubic_coeff_a=-0.5)),
         ("linear align_corners", dict(coordinate_transformation_mode="align_corners"))]
fig, axes = plt.subplots(1, len(modes), figsize=(3 * len(modes), 3.3))
for ax, (name, opts) in zip(axes, modes):
    mode = name.split()[0]
    up = jax_resize.onnx_resize(crop, sizes=[192, 192], axes=[0, 1], mode=mode, **opts)
    ax.imshow(np.asarray(up)); ax.set_title(name); ax.axis("off")
plt.show()"""),
    new_markdown_cell("## Downscaling: antialias on and off"),
    new_code_cell("""fig, axes = plt.subplots(1, 4, figsize=(12, 3.3))
for ax, (mode, aa) in zip(axes, [("linear", 0), ("linear", 1), ("cubic", 0), ("cubic", 1)]):
    small = jax_resize.onnx_resize(photo, sizes=[96, 96], axes=[0, 1], mode=mode, antialias=aa)
    ax.imshow(np.asarray(small), interpolation="nearest"); ax.set_title(f"{mode}, antialias={aa}"); ax.axis("off")
plt.show()"""),
    new_markdown_cell("## The weight matrices of one axis (`[out, in]`, rows sum to 1)"),
    new_code_cell("""fig, axes = plt.subplots(1, 3, figsize=(12, 3.5))
for ax, (title, W) in zip(axes, [
        ("linear 12 -> 30", jax_resize.weight_matrix(12, 30, mode="linear")),
        ("cubic 12 -> 30", jax_resize.weight_matrix(12, 30, mode="cubic")),
        ("linear antialias 30 -> 12", jax_resize.weight_matrix(30, 12, mode="linear", antialias=True))]):
    ax.imshow(W, cmap="RdBu_r", vmin=-1, vmax=1); ax.set_title(title); ax.set_xlabel("in"); ax.set_ylabel("out")
plt.show()
print("row sums:", np.round(jax_resize.weight_matrix(12, 30, mode="cubic").sum(1)[:5], 12))"""),
    new_markdown_cell("## `jit`, `vmap`, `grad`"),
    new_code_cell("""x = jnp.asarray(photo, jnp.float32) / 255
resize = jax.jit(lambda v: jax_resize.onnx_resize(v, sizes=[224, 224], axes=[0, 1], mode="cubic", antialias=1))
print(resize(x).shape, resize(x).dtype)"""),
    new_code_cell("""batch = jnp.stack([x, x[::-1], x[:, ::-1]])
batched = jax.vmap(lambda v: jax_resize.resize(v, (128, 128, 3), "linear"))(batch)
print(batched.shape, float(jnp.abs(batched[0] - jax_resize.resize(x, (128, 128, 3), "linear")).max()))"""),
    new_code_cell("""# gradient of a loss through the resize, with respect to the image and to a crop box (roi)
loss = lambda img, roi: jax_resize.onnx_resize(img, roi, sizes=[32, 32], axes=[0, 1], mode="linear",
                                                 coordinate_transformation_mode="tf_crop_and_resize").mean()
g_img, g_roi = jax.grad(loss, argnums=(0, 1))(x, jnp.array([0.2, 0.3, 0.6, 0.7]))
print(g_img.shape, g_roi)"""),
]

CONFORMANCE = [
    new_markdown_cell(
        "# ONNX conformance\n\nRuns every Resize case of the ONNX backend node tests and a "
        "random sweep against `onnx.reference.ReferenceEvaluator`, and shows the results as tables."
    ),
    new_code_cell(INSTALL.replace('SOURCE, "matplotlib"', 'SOURCE, "onnx"')),
    new_code_cell("""import warnings, numpy as np, jax_resize, onnx
from onnx import helper, TensorProto
from onnx.backend.test.case.node import collect_testcases
from onnx.reference import ReferenceEvaluator
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    cases = [c for c in collect_testcases("Resize") if c.model is not None and c.kind == "node"]
rows = []
for case in sorted(cases, key=lambda c: c.name):
    (node,) = case.model.graph.node
    opset = next(o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx"))
    names = [vi.name for vi in case.model.graph.input]
    for inputs, (expected,) in case.data_sets:
        feeds = dict(zip(names, inputs))
        got = np.asarray(jax_resize.onnx_node_resize(node, *[feeds[n] if n else None for n in node.input], opset=opset))
        err = float(np.max(np.abs(got.astype(float) - expected.astype(float)))) if got.shape == expected.shape else float("inf")
        rows.append((case.name, got.shape == expected.shape and err <= 1e-5, err))
print(f"{sum(ok for _, ok, _ in rows)} / {len(rows)} backend cases agree")
print("\\n".join(f"{'ok ' if ok else 'BAD'} {err:9.2e}  {name}" for name, ok, err in rows))"""),
    new_code_cell("""def reference(x, scales=None, sizes=None, **attrs):
    node = helper.make_node("Resize", ["X", "", "scales" if scales is not None else "", "sizes" if sizes is not None else ""], ["Y"], **attrs)
    inputs = [helper.make_tensor_value_info("X", TensorProto.FLOAT, None)]
    feeds = {"X": x}
    if scales is not None:
        inputs.append(helper.make_tensor_value_info("scales", TensorProto.FLOAT, None)); feeds["scales"] = np.asarray(scales, np.float32)
    if sizes is not None:
        inputs.append(helper.make_tensor_value_info("sizes", TensorProto.INT64, None)); feeds["sizes"] = np.asarray(sizes, np.int64)
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    return ReferenceEvaluator(model).run(None, feeds)[0]

rng = np.random.default_rng(0)
table = {}
for i in range(150):
    rank = int(rng.integers(1, 4)); shape = tuple(int(s) for s in rng.integers(2, 7, rank))
    x = rng.standard_normal(shape).astype(np.float32)
    mode = str(rng.choice(["nearest", "linear", "cubic"]))
    ctm = str(rng.choice(["half_pixel", "half_pixel_symmetric", "align_corners", "asymmetric"]))
    attrs = dict(mode=mode, coordinate_transformation_mode=ctm)
    if mode != "nearest":
        attrs.update(antialias=int(rng.integers(2)), exclude_outside=int(rng.integers(2)))
    sizes = [int(s) for s in rng.integers(1, 12, rank)]
    ok = np.allclose(jax_resize.onnx_resize(x, sizes=sizes, **attrs), reference(x, sizes=sizes, **attrs), rtol=1e-4, atol=1e-4)
    key = (mode, ctm)
    agree, total = table.get(key, (0, 0)); table[key] = (agree + ok, total + 1)
print(f"{'mode':8} {'coordinate_transformation_mode':24} agree/total")
for (mode, ctm), (agree, total) in sorted(table.items()):
    print(f"{mode:8} {ctm:24} {agree}/{total}")"""),
]

FLAX = [
    new_markdown_cell(
        "# Batched, jitted preprocessing with the Flax layer\n\nA TPU/GPU/CPU input "
        "pipeline: decode real photos once, then resize + crop + normalise a batch in one "
        "jitted function built from `jax_resize.flax.Resize`, and time it on the available "
        "backend. (In Colab pick a TPU or GPU runtime; it runs unchanged on CPU.)"
    ),
    new_code_cell(INSTALL.replace('SOURCE, "matplotlib"', 'SOURCE, "flax", "optax", "matplotlib"')),
    new_code_cell(
        "import time, jax, jax.numpy as jnp\nfrom flax import nnx\nimport matplotlib.pyplot as plt\n"
        "import jax_resize\nfrom jax_resize.flax import Resize\nprint(jax.default_backend(), jax.devices())"
    ),
    new_code_cell(PHOTO),
    new_code_cell("""# A batch of 32 different 512x512 crops/flips of the photo (stand-ins for decoded JPEGs)
rng = np.random.default_rng(0)
frames = np.stack([np.roll(photo, int(rng.integers(0, 512)), axis=int(rng.integers(0, 2)))[:, :: (1 if i % 2 else -1)]
                   for i in range(32)])
frames.shape, frames.dtype"""),
    new_code_cell('''class Preprocess(nnx.Module):
    """uint8 [N, 512, 512, 3] -> float32 [N, 224, 224, 3]: antialiased resize to 256, centre crop, normalise."""
    def __init__(self):
        self.resize = Resize(size=(256, 256), method="linear", antialias=True)
        self.mean = jnp.array([0.485, 0.456, 0.406]); self.std = jnp.array([0.229, 0.224, 0.225])
    def __call__(self, images):
        x = self.resize(images.astype(jnp.float32) / 255.0)
        x = x[:, 16:240, 16:240, :]
        return (x - self.mean) / self.std

pre = Preprocess()
step = nnx.jit(lambda m, x: m(x))
t0 = time.perf_counter(); out = step(pre, frames).block_until_ready(); first = time.perf_counter() - t0
times = []
for _ in range(5):
    t0 = time.perf_counter(); step(pre, frames).block_until_ready(); times.append(time.perf_counter() - t0)
print(f"{out.shape} {out.dtype}; first call {first:.2f} s, then median {1e3 * np.median(times):.1f} ms per batch "
      f"of {len(frames)} on {jax.default_backend()}")'''),
    new_code_cell("""# Same values as calling jax_resize.resize directly
direct = jax_resize.resize(frames.astype(np.float32) / 255.0, (32, 256, 256, 3), "linear", antialias=True)
print(float(jnp.abs(pre.resize(frames.astype(np.float32) / 255.0) - direct).max()))
fig, axes = plt.subplots(1, 4, figsize=(12, 3.3))
for ax, img in zip(axes, out[:4]):
    ax.imshow(np.clip(np.asarray(img) * 0.226 + 0.449, 0, 1)); ax.axis("off")
plt.show()"""),
]

RAGGED = [
    new_markdown_cell(
        "# A ragged input pipeline: photos of many sizes, one compilation\n\n"
        "Real datasets hold images of every size. `jax_resize.resize_ragged(images, sizes, shape)` "
        "takes a zero-padded batch `[N, H_max, W_max, C]` and the valid `(h, w)` of each example "
        "(`sizes`, `[N, 2]`, may be traced) and resizes each example to one static `shape`, exactly as "
        "`jax.image.resize(images[i, :h, :w], shape)` would. Because the sizes are data, not shapes, "
        "one `jax.jit` compilation serves every mix of sizes. (In Colab any runtime works; it runs on CPU.)"
    ),
    new_code_cell(INSTALL.replace('SOURCE, "matplotlib"', 'SOURCE, "flax", "matplotlib"')),
    new_code_cell(
        "import importlib.resources, pathlib, time\nimport numpy as np\nfrom PIL import Image\n"
        "import jax, jax.numpy as jnp\nfrom flax import nnx\nimport matplotlib.pyplot as plt\n"
        "import jax_resize\nprint(jax_resize.__version__, jax.default_backend())"
    ),
    new_markdown_cell(
        "## 1. Photos of different sizes\n\nThe sample photographs in `shared/data/` next to the "
        "repository (astronaut, camera — greyscale, converted to RGB — chelsea, coffee) when they are "
        "there, else the photo bundled with the package. 24 random crops with Pillow, 24 to 256 px "
        "a side, stand in for the decoded images of a real dataset."
    ),
    new_code_cell("""def load_photos():
    names = ["astronaut.png", "camera.png", "chelsea.png", "coffee.png"]
    repo = pathlib.Path(jax_resize.__file__).resolve().parents[1]  # the repository root for an editable install
    for root in (repo, pathlib.Path.cwd(), pathlib.Path.cwd().parent):
        folder = root.parent / "shared" / "data"
        if all((folder / n).is_file() for n in names):
            return [Image.open(folder / n).convert("RGB") for n in names]
    with importlib.resources.as_file(importlib.resources.files("jax_resize") / "data" / "astronaut.png") as p:
        return [Image.open(p).convert("RGB")]  # 512 x 512, public domain (NASA)

photos = load_photos()
rng = np.random.default_rng(0)
crops = []
for i in range(24):
    photo = photos[i % len(photos)]
    h, w = (min(int(v), limit) for v, limit in zip(rng.integers(24, 257, 2), (photo.height, photo.width)))
    top, left = int(rng.integers(0, photo.height - h + 1)), int(rng.integers(0, photo.width - w + 1))
    crops.append(np.asarray(photo.crop((left, top, left + w, top + h))))  # uint8 [h, w, 3]
print("photos (w, h):", [p.size for p in photos])
print(len(crops), "crops, (h, w):", [c.shape[:2] for c in crops[:8]], "...")"""),
    new_markdown_cell(
        "## 2. Pad into fixed-size batches\n\nEvery batch has the same shape, `[8, 256, 256, 3]`: each "
        "crop sits in the top-left corner of a zero canvas, and `sizes` records its valid `(h, w)`. "
        "`resize_ragged` never reads the padding."
    ),
    new_code_cell("""H_MAX, W_MAX, BATCH = 256, 256, 8

def pad_batches(crops):
    for start in range(0, len(crops), BATCH):
        group = crops[start : start + BATCH]
        batch = np.zeros((len(group), H_MAX, W_MAX, 3), np.uint8)
        sizes = np.zeros((len(group), 2), np.int32)
        for j, crop in enumerate(group):
            batch[j, : crop.shape[0], : crop.shape[1]] = crop
            sizes[j] = crop.shape[:2]
        yield batch, sizes

batches = list(pad_batches(crops))
print(len(batches), "batches of", batches[0][0].shape, batches[0][0].dtype)
print("sizes of the first batch:", batches[0][1].tolist())"""),
    new_markdown_cell(
        "## 3. One jitted step: ragged resize, then a tiny Flax model\n\n`resize_ragged` brings every "
        "example to `(64, 64, 3)` (linear, antialiased), then a small `flax.nnx` model — a strided conv, "
        "global average pool and a dense layer — gives 10 logits per image (a forward pass only). "
        "The model is split into its graph definition and parameters so the step is a plain "
        "`jax.jit` function; `traces` counts how often Python traces it (once per compilation)."
    ),
    new_code_cell('''class TinyNet(nnx.Module):
    def __init__(self, rngs):
        self.conv = nnx.Conv(3, 16, kernel_size=(3, 3), strides=(2, 2), rngs=rngs)
        self.head = nnx.Linear(16, 10, rngs=rngs)
    def __call__(self, x):
        x = nnx.relu(self.conv(x))
        return self.head(x.mean(axis=(1, 2)))  # global average pool -> logits

graphdef, params = nnx.split(TinyNet(nnx.Rngs(0)))
traces = 0

@jax.jit
def step(params, batch, sizes):
    """uint8 [8, 256, 256, 3] and int32 [8, 2] -> logits [8, 10] and the resized images [8, 64, 64, 3]."""
    global traces
    traces += 1  # runs only while tracing
    x = jax_resize.resize_ragged(batch.astype(jnp.float32) / 255, sizes, (64, 64, 3), "linear", antialias=True)
    return nnx.merge(graphdef, params)(x), x'''),
    new_markdown_cell(
        "## 4. Run every batch: one trace, then throughput\n\nThe first call compiles and is not "
        "timed; the timing covers three passes over the three batches after it. Every batch holds a "
        "different mix of sizes, yet `step` is traced once."
    ),
    new_code_cell("""logits, resized = step(params, *batches[0])
jax.block_until_ready(logits)  # the first (compiling) batch, not timed
t0, count = time.perf_counter(), 0
for _ in range(3):
    for batch, sizes in batches:
        logits, resized = step(params, batch, sizes)
        count += len(batch)
jax.block_until_ready(logits)
seconds = time.perf_counter() - t0
print(f"traces: {traces}")
assert traces == 1
print(f"throughput: {count / seconds:.0f} images/s ({count} images after the first batch, "
      f"on {jax.default_backend()}); logits {logits.shape}, resized {resized.shape}")"""),
    new_markdown_cell(
        "## 5. Same values as `jax.image.resize` of the crop\n\nExample 3 of the first batch, resized "
        "on its own from its unpadded crop, matches its row of the ragged batch (to float32 rounding)."
    ),
    new_code_cell("""i = 3
batch, sizes = batches[0]
_, resized = step(params, batch, sizes)
reference = jax.image.resize(jnp.asarray(crops[i], jnp.float32) / 255, (64, 64, 3), "linear", antialias=True)
diff = float(jnp.abs(resized[i] - reference).max())
print(f"example {i}: crop {tuple(sizes[i].tolist())} -> (64, 64, 3); max abs difference vs jax.image.resize: {diff:.2e}")
assert diff < 1e-5

fig, axes = plt.subplots(2, 4, figsize=(12, 6.3))
for j in range(4):
    axes[0, j].imshow(batch[j]); axes[0, j].set_title(f"padded, valid {tuple(sizes[j].tolist())}")
    axes[1, j].imshow(np.asarray(resized[j]).clip(0, 1)); axes[1, j].set_title("resize_ragged -> 64x64")
for ax in axes.flat:
    ax.axis("off")
plt.show()"""),
]

GRAIN = [
    new_markdown_cell(
        "# Training a Flax model from a grain input pipeline\n\n"
        "A toy image classifier fed by [grain](https://github.com/google/grain) with the transforms of "
        "`jax_resize.grain`: JPEG bytes of mixed sizes are decoded (`DecodeImage`), randomly cropped and "
        "resized for training (`RandomResizedCrop`), resized and centre-cropped for evaluation "
        "(`Resize(72, crop=64)`), batched, and fed to a tiny `flax.nnx` CNN trained with optax. "
        "Everything runs on CPU in well under a minute (in Colab any runtime works)."
    ),
    new_code_cell(
        INSTALL.replace('"jax_resize"  # or "git+', '"jax_resize[grain,flax]"  # or "jax_resize[grain,flax] @ git+')
    ),
    new_code_cell(
        "import importlib.resources, io, time\nimport numpy as np\nfrom PIL import Image\n"
        "import grain, jax, jax.numpy as jnp, optax\nfrom flax import nnx\nimport matplotlib.pyplot as plt\n"
        "import jax_resize\nfrom jax_resize.grain import CenterCrop, DecodeImage, RandomResizedCrop, Resize, "
        "ResizeWithPad\nprint(jax_resize.__version__, jax.default_backend())"
    ),
    new_markdown_cell(
        "## 1. A toy dataset of JPEG bytes\n\nFour classes, one per quarter of the photo bundled with "
        "the package (the flag, the shuttle, the suit, the helmet). Each record is a random square "
        "crop of its quarter, stretched to a random size from 56 to 160 px a side and encoded as JPEG "
        'in memory, with its label: `{"image": bytes, "label": int}`, as a real dataset stores them. '
        "64 records for training, 32 others for evaluation."
    ),
    new_code_cell("""with importlib.resources.as_file(importlib.resources.files("jax_resize") / "data" / "astronaut.png") as p:
    photo = Image.open(p).convert("RGB")  # 512 x 512, public domain (NASA)
CLASSES = ["flag", "shuttle", "suit", "helmet"]
QUARTERS = [(0, 0, 256, 256), (256, 0, 512, 256), (0, 256, 256, 512), (256, 256, 512, 512)]  # (left, top, right, bottom)

def make_records(count, seed):
    rng = np.random.default_rng(seed)
    records = []
    for i in range(count):
        label = i % len(CLASSES)
        side = int(rng.integers(128, 257))
        left, top = (int(v) for v in rng.integers(0, 257 - side, 2))
        width, height = (int(v) for v in rng.integers(56, 161, 2))
        image = photo.crop(QUARTERS[label]).crop((left, top, left + side, top + side)).resize((width, height))
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=90)
        records.append({"image": buffer.getvalue(), "label": label})
    return records

train_records, eval_records = make_records(64, seed=0), make_records(32, seed=1)
sizes = [Image.open(io.BytesIO(r["image"])).size for r in train_records]
print(len(train_records), "training and", len(eval_records), "evaluation JPEGs,",
      f"{sum(len(r['image']) for r in train_records) // 1024} KiB; (w, h) of the first six: {sizes[:6]}")"""),
    new_markdown_cell(
        "## 2. The grain pipelines\n\n`grain.MapDataset` is lazy and indexable: the training pipeline "
        "shuffles the records (a new order each epoch), repeats them for 6 epochs, decodes, draws a random "
        "crop of 25-100% of the area resized to 64x64, and batches 16 examples. `random_map` gives each "
        "element its own `rng` derived from the seed and its index, so the augmentations are reproducible. "
        "Evaluation resizes the shorter edge to 72 and keeps the centre 64x64 (`Resize(72, crop=64)`, "
        'computed as one resize of the crop). Every batch is `{"image": uint8 [16, 64, 64, 3], '
        '"label": int [16]}`.'
    ),
    new_code_cell("""EPOCHS, BATCH = 6, 16
train_ds = (
    grain.MapDataset.source(train_records)
    .shuffle(seed=0)
    .repeat(EPOCHS)
    .map(DecodeImage(key="image"))
    .random_map(RandomResizedCrop(64, scale=(0.25, 1.0), key="image"), seed=1)
    .batch(BATCH, drop_remainder=True)
)
eval_ds = (
    grain.MapDataset.source(eval_records)
    .map(DecodeImage(key="image"))
    .map(Resize(72, crop=64, key="image"))
    .batch(BATCH)
)
batch = train_ds[0]
print(len(train_ds), "training batches,", len(eval_ds), "evaluation batches")
print({k: (v.shape, v.dtype) for k, v in batch.items()}, "labels:", batch["label"].tolist())"""),
    new_code_cell("""# Six records: as decoded, two random crops (two seeds), the evaluation view, and letterboxed
show = grain.MapDataset.source(train_records[:6]).map(DecodeImage(key="image"))
augment = RandomResizedCrop(64, scale=(0.25, 1.0), key="image")
rows = [("decoded", show),
        ("RandomResizedCrop, seed 1", show.random_map(augment, seed=1)),
        ("RandomResizedCrop, seed 2", show.random_map(augment, seed=2)),
        ("Resize(72, crop=64)", show.map(Resize(72, crop=64, key="image"))),
        ("ResizeWithPad(64)", show.map(ResizeWithPad(64, key="image")))]
fig, axes = plt.subplots(len(rows), len(show), figsize=(2 * len(show), 2.2 * len(rows)))
for r, (title, ds) in enumerate(rows):
    for c, element in enumerate(ds):
        image = np.asarray(element["image"])
        axes[r, c].imshow(image.astype(np.uint8)); axes[r, c].axis("off")
        label = f"{CLASSES[element['label']]} {image.shape[1]}x{image.shape[0]}"
        axes[r, c].set_title(label if r == 0 else title, fontsize=8)
plt.tight_layout(); plt.show()"""),
    new_markdown_cell(
        '## Which library\'s pixels?\n\nWith the default `preset="torchvision"` the pixels are torchvision '
        "v2's, bit for bit on uint8 images: `Resize(72, crop=64)` equals `v2.CenterCrop(64)(v2.Resize(72)(x))` "
        "(bilinear, antialiased), and `RandomResizedCrop(64)` draws its box with torchvision's algorithm "
        "(from grain's per-element `rng`, not torch's random stream) and resizes it as "
        "`v2.functional.resized_crop` does, so a model trained on a torchvision v2 pipeline sees the same "
        "kind of inputs here. To match another library, pass `preset=` with that library's method names: "
        '`"pillow"` (`PIL.Image.resize`, uint8), `"tf"` (`tf.image.resize`, float32 out), '
        '`"opencv"` (`cv2.resize`: `method="linear", antialias=False`, uint8) or `"jax"` '
        '(`jax.image.resize`, `method="linear"`, float32 out). None of those libraries is needed: the transforms '
        "compute their arithmetic in JAX. Below, one evaluation image through each preset."
    ),
    new_code_cell("""element = DecodeImage(key="image").map(eval_records[0])
reference = Resize(72, crop=64, key="image").map(element)["image"]
# Resize(72, crop=64) is Resize(72) then CenterCrop(64), computed in one step
assert np.array_equal(reference, CenterCrop(64, key="image").map(Resize(72, key="image").map(element))["image"])
presets = {"torchvision": {}, "pillow": {}, "tf": {}, "opencv": dict(method="linear", antialias=False),
           "jax": dict(method="linear")}
for preset, options in presets.items():
    out = Resize(72, crop=64, key="image", preset=preset, **options).map(element)["image"]
    diff = np.abs(np.asarray(out, np.float32) - reference).max()
    print(f"{preset:12} {str(out.dtype):8} {out.shape}  max |difference| from torchvision: {diff:.2f}")"""),
    new_markdown_cell(
        "## 3. A tiny `flax.nnx` CNN, trained under `nnx.jit`\n\nThe model takes the uint8 batch as it "
        "comes from grain and converts it to float itself, so the host never holds float images. "
        "Two strided convolutions, global average pooling and a linear layer; Adam on the softmax "
        "cross-entropy. Every batch has the same shape, so `train_step` compiles once."
    ),
    new_code_cell('''class TinyCNN(nnx.Module):
    def __init__(self, num_classes, rngs):
        self.conv1 = nnx.Conv(3, 16, kernel_size=(3, 3), strides=(2, 2), rngs=rngs)
        self.conv2 = nnx.Conv(16, 32, kernel_size=(3, 3), strides=(2, 2), rngs=rngs)
        self.head = nnx.Linear(32, num_classes, rngs=rngs)

    def __call__(self, images):
        """uint8 [N, 64, 64, 3] -> logits [N, num_classes]."""
        x = images.astype(jnp.float32) / 255.0 - 0.5
        x = nnx.relu(self.conv2(nnx.relu(self.conv1(x))))
        return self.head(x.mean(axis=(1, 2)))

model = TinyCNN(len(CLASSES), nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)

@nnx.jit
def train_step(model, optimizer, images, labels):
    def loss_fn(model):
        return optax.softmax_cross_entropy_with_integer_labels(model(images), labels).mean()
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss

@nnx.jit
def predict(model, images):
    return model(images).argmax(axis=-1)'''),
    new_code_cell("""t0, losses = time.perf_counter(), []
for step, batch in enumerate(train_ds):  # in-process: grain decodes and resizes as the loop asks
    losses.append(float(train_step(model, optimizer, batch["image"], batch["label"])))
    if step % 4 == 0 or step == len(train_ds) - 1:
        print(f"step {step:2d}  loss {losses[-1]:.3f}")
print(f"{len(losses)} steps ({EPOCHS} epochs of {len(train_records)} images) in {time.perf_counter() - t0:.1f} s")
correct = sum(int((np.asarray(predict(model, b["image"])) == b["label"]).sum()) for b in eval_ds)
accuracy = correct / len(eval_records)
print(f"evaluation accuracy: {correct}/{len(eval_records)} = {accuracy:.0%} (chance: {1 / len(CLASSES):.0%})")
assert np.mean(losses[-4:]) < np.mean(losses[:4]) and accuracy > 0.5"""),
    new_markdown_cell(
        "## Worker processes\n\nAbove, grain runs the transforms in the notebook's own process, which "
        "is enough for a toy. To decode and resize in parallel, hand the same dataset to worker "
        "processes: `train_ds.to_iter_dataset().mp_prefetch(grain.MultiprocessingOptions(num_workers=4))` "
        "(or `grain.DataLoader(data_source=train_records, sampler=grain.samplers.IndexSampler(...), "
        'operations=[DecodeImage(key="image"), RandomResizedCrop(64, key="image"), '
        "grain.transforms.Batch(16)], worker_count=4)`, where each worker batches its own share, so "
        "the last batches can be short unless `drop_remainder=True`). In a notebook:\n\n"
        "- grain's workers read absl flags, which nothing parses in a notebook: call "
        "`absl.flags.FLAGS.mark_as_parsed()` first, or iterating fails with `UnparsedFlagAccessError` "
        "(in a script, `absl.app.run(main)` parses them).\n"
        "- Workers are *spawned* and receive the pipeline with cloudpickle, so functions defined in the "
        "notebook work; each worker starts a fresh Python and imports JAX (a few seconds).\n"
        "- Pin the workers' JAX to the CPU (`worker_init_fn` below) so that they do not try to open the "
        "GPU or TPU that the notebook's process holds.\n\n"
        "Because each element's `rng` comes from the seed and its index, the workers produce exactly "
        "the batches of the in-process loop."
    ),
    new_code_cell("""from absl import flags
if not flags.FLAGS.is_parsed():
    flags.FLAGS.mark_as_parsed()

def cpu_only(worker_index, worker_count):
    jax.config.update("jax_platforms", "cpu")

t0 = time.perf_counter()
options = grain.MultiprocessingOptions(num_workers=2)
got = list(train_ds[:2].to_iter_dataset().mp_prefetch(options, worker_init_fn=cpu_only))
same = all(np.array_equal(a["image"], train_ds[i]["image"]) and np.array_equal(a["label"], train_ds[i]["label"])
           for i, a in enumerate(got))
print(f"{len(got)} batches from 2 worker processes in {time.perf_counter() - t0:.1f} s; same as in-process: {same}")
assert len(got) == 2 and same"""),
]


def write(name, cells):
    nb = new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3"},
            "accelerator": "GPU" if "tpu" in name else None,
        },
    )
    nb.metadata.pop("accelerator", None)
    nbformat.write(nb, HERE / name)


if __name__ == "__main__":
    write("quickstart.ipynb", QUICKSTART)
    write("onnx_conformance.ipynb", CONFORMANCE)
    write("flax_tpu_preprocessing.ipynb", FLAX)
    write("ragged_pipeline.ipynb", RAGGED)
    write("grain_training.ipynb", GRAIN)
