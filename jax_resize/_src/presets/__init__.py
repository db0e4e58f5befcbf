"""Framework-parity presets: other libraries' resize functions, argument for argument.

Each module maps one peer's arguments onto the coordinates -> weights -> apply layers and
reproduces that peer's output (see ``jax_resize.compat``). Module names end in ``_preset`` so
that they never shadow the real packages (``torch``, ``cv2``, ...).
"""
