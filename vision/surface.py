"""What every printed surface shares: its lighting fit, the shadow test and sample rings.

A reader fits a smooth lighting surface through the bare paper it can see (a
log-colour per point against a small basis), calls the points far from that
surface outliers, and asks :func:`only_shade` whether they are all paper of
unchanged hue: a shadow or a lamp, not something lying on the paper.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

SHADE_CHROMA = 0.08
"""Largest change of hue (log-colour) of a bare point that is only in shadow."""


def fit_lighting(
    basis: np.ndarray, values: np.ndarray, weights: np.ndarray | None = None, ridge: float = 1e-6
) -> np.ndarray:
    """Least-squares coefficients (basis columns, channels) of ``values`` on ``basis``.

    With ``weights`` (n, channels) of 0 or 1 each channel is fitted on its own
    points only (a clipped channel drops out); a tiny ridge keeps it solvable.
    """
    regular = ridge * np.eye(basis.shape[1])
    if weights is None:
        return np.linalg.solve(basis.T @ basis + regular, basis.T @ values)
    columns = []
    for channel in range(values.shape[1]):
        weighted = basis * weights[:, channel : channel + 1]
        columns.append(
            np.linalg.solve(weighted.T @ basis + regular, weighted.T @ values[:, channel])
        )
    return np.column_stack(columns)


def only_shade(residuals: np.ndarray) -> bool:
    """True when there are outliers and every one is paper of unchanged hue (a shadow, a lamp).

    A shadow only changes brightness; the fitted surface may follow the shaded
    part, so the lit part can be the brighter outlier.
    """
    if len(residuals) == 0:
        return False
    luminance = residuals.mean(axis=1, keepdims=True)
    return bool((np.abs(residuals - luminance).max(axis=1) < SHADE_CHROMA).all())


def rings(radii: Sequence[float], counts: Sequence[int], stagger_even: bool = False) -> np.ndarray:
    """(N, 2) points on circles of ``radii`` around the origin, ``counts`` on each.

    ``stagger_even`` turns a ring with an even count by half a step, so rings of
    even counts do not line their points up along the axes.
    """
    points = []
    for radius, count in zip(radii, counts, strict=True):
        for step in range(count):
            angle = 2 * np.pi * (step + 0.5 * (stagger_even and count % 2 == 0)) / count
            points.append((radius * np.cos(angle), radius * np.sin(angle)))
    return np.array(points)
