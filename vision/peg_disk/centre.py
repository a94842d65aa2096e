"""Is each peg's centre in sight as calibration saw it: the pin of an empty peg, or the hub of a
cog seated on it? A cog held above a peg is larger, off-centre and blurred: its hub is not
where the peg is. Glints and clipped channels say nothing of a centre.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.peg_disk.pixels import GLINT_LEVEL, SATURATED, glints

PIN_CLUSTER, HUB_RING, BODY_RING = 0.035, 0.09, 0.22
"""Radii (in peg pitches) of the points on a pin, the ring over a cog's hub and over its body."""
CENTRE_SHARE = {False: (0.08, 0.16), True: (0.12, 0.2)}
"""Empty peg / cog: share of the calibrated centre contrast seen, (none, enough)."""
MIN_CENTRE_CONTRAST = 0.4
"""A class whose calibrated centre contrast is weaker than this (log) is not checked: a metal
pin about as bright as the board is lost in noise and blur in a small or soft frame."""
MIN_NEAR_COGS = 3
"""Fewest cogs near a peg whose hubs it is compared with (else with all the cogs)."""
HUB_RATIO = (0.35, 0.55)
"""A cog's hub contrast over the median of the cogs near it: (surely not seated, surely seated)."""
WHITISH = 200
"""A centre point at least this bright in every channel is whitish: a glint, or white metal."""
SPECULAR = 0.3
"""A dark pin or hub seen this much brighter (log) than around it in some channel, and no more
than this darker in any, has a glint on it."""
MIN_CENTRE_PIXELS = 2.0
"""Hub ring radius (pixels) below which a missing centre is no sign of something over the peg:
a hub or pin a pixel or two across is lost in a noisy webcam's grain on its own."""


def ring(radius: float, count: int, phase: float = 0.0) -> np.ndarray:
    """``count`` points evenly spaced on a circle of ``radius`` around the origin."""
    angles = phase + np.arange(count) * 2 * np.pi / count
    return radius * np.column_stack([np.cos(angles), np.sin(angles)])


def centre_offsets(pitch: float) -> np.ndarray:
    """Points that show whether a peg's centre is in sight (mm), (21, 2).

    A small cluster on the peg's very centre (the pin of an empty peg), a ring
    over the hub a seated cog has around its pin, and a ring on the cog body
    (or bare board) just outside it, at the same angles.
    """
    return np.concatenate(
        [
            np.zeros((1, 2)),
            ring(PIN_CLUSTER * pitch, 4, np.pi / 4),
            ring(HUB_RING * pitch, 8),
            ring(BODY_RING * pitch, 8),
        ]
    )


@dataclass(frozen=True)
class CentreView:
    """What the points on and around every peg's centre show (see :func:`centre_contrast`).

    ``contrast`` (55, 2, 3): log colour of the pin cluster and of the hub ring
    less the body ring; ``glinted`` (55, 3): whether the pin / the hub is
    mostly a glint or whitish (a glint's halo on a dark pin; white metal in
    bright light), and whether any point of either is; ``clipped`` (55, 2, 3):
    the channels of each contrast whose pin (or hub) or body is clipped, so
    that the contrast there is not a colour difference (it is unknown).
    """

    contrast: np.ndarray
    glinted: np.ndarray
    clipped: np.ndarray


def centre_contrast(centres: np.ndarray, white_board: np.ndarray) -> CentreView:
    """The pin, hub and body rings of every peg, (55, 21, 3) samples, as a :class:`CentreView`.

    Medians, with glints left out, so a bright spot on part of a hub does not hide it.
    """
    logs = np.log(centres + 5.0)
    white = white_board | (glints(centres[:, 13:21]).sum(axis=1) == 0) & (
        (centres[:, 13:21] >= GLINT_LEVEL).all(axis=-1).mean(axis=1) > 0.5
    )
    glinting = glints(centres, white)
    parts = (slice(0, 5), slice(5, 13), slice(13, 21))
    pin, hub, body = (_median_without(logs[:, part], glinting[:, part]) for part in parts)
    contrast = np.stack([pin - body, hub - body], axis=1)
    whitish = glinting | (centres.min(axis=-1) >= WHITISH)
    glinted = np.stack(
        [whitish[:, :5].mean(axis=1) > 0.5, whitish[:, 5:13].mean(axis=1) >= 0.5], axis=1
    )
    touched = whitish[:, :13].any(axis=1)
    level = np.log(SATURATED + 5.0)
    clipped = np.stack([pin >= level, hub >= level], axis=1) | (body >= level)[:, None]
    return CentreView(contrast, np.stack([glinted[:, 0], glinted[:, 1], touched], axis=1), clipped)


def _median_without(values: np.ndarray, left_out: np.ndarray) -> np.ndarray:
    """Median over axis 1 of (n, m, 3) values, leaving out points marked in (n, m).

    Rows with every point left out take the median of all of them.
    """
    left_out = left_out & ~left_out.all(axis=1, keepdims=True)
    ordered = np.sort(np.where(left_out[..., None], np.inf, values), axis=1)
    count = (~left_out).sum(axis=1)
    low = np.take_along_axis(ordered, ((count - 1) // 2)[:, None, None], axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None, None], axis=1)[:, 0]
    return (low + high) / 2


def centre_in_sight(
    contrast: np.ndarray,
    classes: np.ndarray,
    expected: np.ndarray,
    glinted: np.ndarray | None = None,
    *,
    clipped: np.ndarray | None = None,
    near: np.ndarray | None = None,
    cogs: np.ndarray | None = None,
) -> np.ndarray:
    """Per peg, 0..1: is its centre seen as calibration saw it (the pin, or a seated cog's hub)?

    ``contrast`` is :func:`centre_contrast`'s (55, 2, 3), ``classes`` the class
    each peg reads as (0 empty, 1..3 a cog colour), ``expected`` the centre
    contrast calibration learned per class (4, 3): a dark pin or a bright metal
    one, a dark hub or a metal one. The contrast must point the learned way and
    be a fair share as strong, in the channels where neither the centre nor
    the ring around it is clipped (``clipped``, (55, 2, 3): a clipped channel
    shows no contrast, whatever is there). A cog's hub must also be about as
    distinct as the hubs of the other cogs ``near`` it ((55, 55); all the cogs
    when few are near): a cog held above a peg is blurred and off-centre, so its
    hub fades, while glare fades every hub under its patch. A class whose centre calibration could
    not tell from around it is not checked, nor a pin or hub hidden by a glint:
    mostly glint (``glinted``, (55, 3)), a dark one with a whitish point (a dark
    pin or hub is never white: a glint is on it), or a dark one seen clearly brighter than
    what is around it and nowhere darker (white light added: a specular spot;
    a blurred hub only fades towards its surroundings). A
    specular spot on metal is no reason for doubt. ``cogs`` are the pegs read
    as cogs, whose hubs are compared (default: where ``classes`` says a cog).
    """
    cog = classes > 0
    cogs = cog if cogs is None else cogs
    measured = np.where(cog[:, None], contrast[:, 1], contrast[:, 0])
    wanted = expected[classes]
    strength = (wanted**2).sum(axis=1)
    whole = (measured * wanted).sum(axis=1) / np.maximum(strength, 1e-9)
    known = _known_channels(cog, wanted, clipped)
    share = (known * measured * wanted).sum(axis=1) / np.maximum(
        (known * wanted**2).sum(axis=1), 1e-9
    )
    low = np.where(cog, CENTRE_SHARE[True][0], CENTRE_SHARE[False][0])
    high = np.where(cog, CENTRE_SHARE[True][1], CENTRE_SHARE[False][1])
    seen = np.clip((share - low) / (high - low), 0.0, 1.0)
    seen = np.where(strength < MIN_CENTRE_CONTRAST**2, 1.0, seen)
    brighter = (measured.max(axis=1) > SPECULAR) & (measured.min(axis=1) > -SPECULAR)
    dark = (wanted < 0).all(axis=1)
    specular = dark & brighter
    if glinted is not None:
        specular |= np.where(cog, glinted[:, 1], glinted[:, 0]) | (dark & glinted[:, 2])
    if cog.any() and cogs.sum() >= 3:
        typical = np.maximum(_typical_share(whole, cogs, near), 1e-3)
        sharp = np.clip((whole / typical - HUB_RATIO[0]) / (HUB_RATIO[1] - HUB_RATIO[0]), 0.0, 1.0)
        seen = np.where(cog, np.minimum(seen, sharp), seen)
    return np.where(specular, 1.0, seen)


def _typical_share(share: np.ndarray, cog: np.ndarray, near: np.ndarray | None) -> np.ndarray:
    """Per peg, the median hub share of the other cogs near it (``near``, (55, 55)), or of all
    the cogs when fewer than :data:`MIN_NEAR_COGS` are near.

    Light varies over the board (a hot patch of glare washes hubs out where it
    falls), so a hub is compared with the hubs around it, under the same light.
    """
    everywhere = float(np.median(share[cog]))
    if near is None:
        return np.full(len(share), everywhere)
    around = near & cog[None, :] & ~np.eye(len(share), dtype=bool)
    enough = around.sum(axis=1) >= MIN_NEAR_COGS
    ordered = np.sort(np.where(around, share[None, :], np.inf), axis=1)
    count = around.sum(axis=1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[:, None] // 2, axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None], axis=1)[:, 0]
    return np.where(enough, (low + high) / 2, everywhere)


def _known_channels(cog: np.ndarray, wanted: np.ndarray, clipped: np.ndarray | None) -> np.ndarray:
    """Per peg, 1.0 for the channels whose centre contrast is a colour difference, (55, 3).

    A channel clipped on the pin (or hub) or on the ring around it says nothing
    of their contrast; it is left out of the check unless it leaves too little
    of the calibrated contrast to check (then the clipped channels count as
    seen, which only ever makes the centre look less like calibration's).
    """
    if clipped is None:
        return np.ones_like(wanted)
    unknown = np.where(cog[:, None], clipped[:, 1], clipped[:, 0])
    known = (~unknown).astype(float)
    enough = (known * wanted**2).sum(axis=1) >= MIN_CENTRE_CONTRAST**2
    return np.where(enough[:, None], known, 1.0)
