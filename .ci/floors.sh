#!/usr/bin/env bash
# The oldest dependencies pyproject.toml declares (jax/jaxlib/numpy floors), in a fresh virtual
# environment, against a fast subset of the tests: every front end, exactness against the ONNX
# reference evaluator and jax.image, jit / vmap / grad. Light test dependencies only (no torch,
# TensorFlow, OpenVINO or onnxruntime): the subset is listed here so that nothing skips for want
# of one. jax 0.4.35 and older fail at import (register_dataclass needs data_fields/meta_fields).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.ci/venv-floors}"
PINS=("jax==0.4.36" "jaxlib==0.4.36" "numpy==1.24.0")
rm -rf "$VENV"
python3 -m venv "$VENV"
# shellcheck disable=SC1091
source "$VENV/bin/activate"
python -m pip install --quiet --upgrade pip
python -m pip install --quiet "${PINS[@]}" "pytest>=7" "pytest-xdist>=3" "hypothesis>=6" "pillow>=13,<14" "onnx>=1.19"
python -m pip install --quiet --no-deps -e .
python -m pip list 2>/dev/null | grep -i -E "^(jax|jaxlib|numpy|scipy|ml.dtypes|onnx|pillow) " || true
python -c "import jax, numpy; assert (jax.__version__, numpy.__version__) == ('0.4.36', '1.24.0'), 'floor pins not installed'"

TESTS=(
    tests/test_resize.py
    tests/test_frontend.py
    tests/test_onnx_resize.py
    tests/test_properties.py
    tests/test_jax_image.py
    tests/test_scale_and_translate.py
    tests/test_ragged.py
    tests/test_apply.py
    tests/test_validation.py
    tests/test_primitive.py
    tests/test_transpose.py
)
# Tests whose oracle or expectation needs something the floors lack, each with the reason:
DESELECT=(
    # onnxruntime is their oracle
    tests/test_onnx_resize.py::test_every_known_opset_runs_like_onnxruntime_and_the_reference
    tests/test_onnx_resize.py::test_float32_scales_tensor_gives_onnxruntimes_output_length
    tests/test_onnx_resize.py::test_half_pixel_symmetric_antialias_keep_aspect_follows_spec
    # jax.image gained "cubic-pytorch" and "area" (oracles), and jax.enable_x64, after 0.4.36
    tests/test_scale_and_translate.py::test_gradients_match_jax_image_and_finite_differences
    tests/test_scale_and_translate.py::test_edge_padding_ends_where_jax_image_ends_it
    "tests/test_ragged.py::test_equals_jax_image_per_example_on_photo_crops[True-cubic-pytorch]"
    "tests/test_ragged.py::test_equals_jax_image_per_example_on_photo_crops[True-area]"
    "tests/test_ragged.py::test_equals_jax_image_per_example_on_photo_crops[False-cubic-pytorch]"
    "tests/test_ragged.py::test_equals_jax_image_per_example_on_photo_crops[False-area]"
    # TensorFlow is its oracle
    tests/test_ragged.py::test_letterbox_equals_tensorflow_resize_with_pad
    # XLA 0.4.36 lacks the eager CPU compiler options (apply falls back, tested by
    # test_options_that_xla_does_not_know_are_dropped) and logs "Compiling _apply"
    tests/test_apply.py::test_an_error_of_the_application_is_raised_not_taken_for_a_refused_option
    # jax 0.4.36's jax.export needs absl, which the floors do not install
    tests/test_primitive.py::test_a_trace_holds_one_equation_and_the_lowering_picks_the_platforms_program
    tests/test_apply.py::test_concrete_input_inside_a_callers_jit
    tests/test_apply.py::test_eager_cpu_options_keep_results
    tests/test_apply.py::test_first_eager_call_compiles_only_the_application
    # 45 s on two cores; test_grad_order_two keeps grad covered
    tests/test_apply.py::test_grad_with_respect_to_traced_roi
)
for rank in 0 1 2 3; do
    for antialias in True False; do
        for method in area cubic-pytorch; do
            DESELECT+=("tests/test_scale_and_translate.py::test_matches_jax_image_static_and_traced[$rank-$antialias-$method]")
        done
    done
done
args=()
for t in "${DESELECT[@]}"; do args+=(--deselect "$t"); done
python -m pytest -q -n 2 -p no:cacheprovider "${args[@]}" "${TESTS[@]}"
