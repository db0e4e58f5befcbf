"""Private implementation of jax_resize: core layers (coordinates, kernels, weights, apply and its
strategies, rounding, dtypes, validation), one module per peer under ``peers/``, and the front ends
(``crop_and_resize``, ``cli``, ``demo``). See ``docs/architecture.md``."""
