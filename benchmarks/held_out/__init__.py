"""Held-out evaluation frames: a table drawn apart from the readers, each frame with its truth.

Written by someone who does not work on the readers and does not read their
code or our own renderers. Readers never tune on these frames or on their
seeds (9_000_000 and up); see README.md. One module per surface:
:mod:`~benchmarks.held_out.peg_disk`, :mod:`~benchmarks.held_out.cards`,
:mod:`~benchmarks.held_out.parts`.
"""

from benchmarks.held_out.optics import HELD_OUT_SEED_MIN, SIZES

__all__ = ["HELD_OUT_SEED_MIN", "SIZES"]
