"""``python -m jax_resize`` runs the ``jax-resize`` command (see ``jax_resize._src.cli``)."""

import sys

from jax_resize._src.cli import main

sys.exit(main())
