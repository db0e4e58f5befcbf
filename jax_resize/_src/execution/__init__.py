"""The execution layer: records -> plans -> one jitted program.

Modules, siblings under one decision: :mod:`.tuning` (the per-backend tuning table),
:mod:`.decide` (every choice), :mod:`.strategies` (the registry of plans and how a pass is
applied), :mod:`.apply` (:func:`~.apply.run`, the front ends' entry point), and the
implementations :mod:`.banded`, :mod:`.polyphase`, :mod:`.chain` on the linear-map primitive
(:mod:`.primitive`) with host-transposed taps (:mod:`.transpose`).
"""
