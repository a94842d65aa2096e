"""Each peg's colour against the local board, and the evidence it gives for every class.

Clipped channels are bounds, not colours, and glints are left out; each class is compared as it
would look washed out by added white light (:func:`veiled`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.peg_disk.pixels import SATURATED, glints, weighted_mean
from vision.peg_disk.rim import BoardFit

LUMINANCE_WEIGHT = 0.5
"""How much overall brightness counts against colour: shadows change it, paint does not."""
SHADED_LUMINANCE_WEIGHT = 0.1
"""The same, when the rim shows a shadow across the board."""
MAX_LOCAL_LIGHT = 1.3
"""Light at a peg may be this many times what the rim's board surface says there (a hot patch of
glare the rim does not see); a white peg where the board is dimmer than the clipping level by
more than this is under a saturated patch: its colour is unknown."""
CLIPPED_SHARE = 0.25
"""A peg's channel clipped on more than this share of its points is a lower bound."""
BRIGHTEST_LEFT_OUT = 3
"""How many of a peg's 16 colour samples, the brightest, are left out (glint halos)."""
MAX_OVER_EXPOSURE = 1.6
"""Clipped light is taken to be at most this many times the clipping level (brighter than that
and nearly everything in the frame would be white)."""
VEILS = np.array([0.0, 0.05, 0.1, 0.15, 0.2, 0.25])
"""Veils of white light a class is compared under: added grey as a share of the board's
brightest channel (glare of 10-60 grey levels on a board seen at 200-255)."""
COLOUR_SIGMA = 0.12
"""Spread (log colour distance) of a peg's colour about its class's, frame to frame and peg to
peg: the scale of the per-class log likelihoods (:attr:`Reading.log_likelihood`)."""
UNSEEN_DISTANCE = 0.45
"""Colour distance from every class at which a peg is as likely to show none of them (a hand,
a held cog, something on the board): the "unseen" log likelihood."""
LOOKALIKE_SHARE = 1.0
"""Likelihood factor of "something over the peg that looks like a class" (an arm the colour of
the board, a held cog of a cog's colour) against that class seated with its centre in sight:
it explains the colour as well and a hidden centre fully, so a peg whose centre is out of sight
is likelier covered than its class (by ``-log(seen)``: over a frame's hidden margin when less
than about a seventh of the centre shows)."""
CENTRE_FLOOR = 0.05
"""Likelihood factor of a class whose centre (pin or seated hub) is not in sight at all."""
UNIFORM_FLOOR = 0.05
"""Likelihood factor of every class at a peg whose colour is far from uniform."""


@dataclass(frozen=True)
class PegColour:
    """Per peg: log colour relative to the local board (55, 3), its spread over the peg (55,),
    which channels are known only as a lower or an upper bound (clipped), (55, 3), and
    whether its colour is unknown (saturated where the board is not), (55,)."""

    features: np.ndarray
    spread: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    unknown: np.ndarray


def peg_colour(samples: np.ndarray, board: BoardFit) -> PegColour:
    """Colour, spread and clipping of every peg from its (55, 16, 3) samples.

    Glints are left out, and so are the :data:`BRIGHTEST_LEFT_OUT` brightest
    points (a glint's halo only adds light); a channel clipped on a quarter of a peg's points is
    known only to be at least what is seen, and where the board itself is
    clipped the peg's colour relative to it is known only to be at most that.
    Where both are clipped the peg is taken to be as bright as the board (the
    most likely, and what an empty peg under over-exposed light looks like).
    A peg clipped white where the board around it is clearly dimmer (by more
    than :data:`MAX_LOCAL_LIGHT` in some channel) is under a saturated patch:
    no cog is white, and an empty peg is as bright as the board, so its colour
    is unknown.
    """
    weights = (~glints(samples, board.clipped.all(axis=1))).astype(np.float32)
    brightest = np.argsort(samples.sum(axis=2), axis=1)[:, -BRIGHTEST_LEFT_OUT:]
    np.put_along_axis(weights, brightest, 0.0, axis=1)
    mean = weighted_mean(samples, weights)
    logs = np.log(samples + 30.0)
    centred = logs - weighted_mean(logs, weights)[:, None]
    spread = np.sqrt(weighted_mean(centred**2, weights)).mean(axis=1)
    clipped_share = weighted_mean((samples >= SATURATED).astype(np.float32), weights)
    peg_clipped = clipped_share > CLIPPED_SHARE
    board_clipped = board.at_pegs >= np.log(SATURATED - 3.0)
    lower = peg_clipped & ~board.clipped
    upper = board_clipped & ~peg_clipped
    features = np.where(peg_clipped & board.clipped, 0.0, np.log(mean + 1.0) - board.at_pegs)
    dim_board = board.at_pegs < np.log(SATURATED / MAX_LOCAL_LIGHT)
    unknown = peg_clipped.all(axis=1) & dim_board.any(axis=1)
    return PegColour(features, spread, lower, upper, unknown)


def evidence(
    distances: np.ndarray,
    seen: np.ndarray,
    uniform: np.ndarray,
    unknown: np.ndarray,
    resolved: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Per peg and class the log likelihood of what was seen, (55, 4), and of none of them, (55,).

    A class's colour lies about :data:`COLOUR_SIGMA` from its calibrated look
    (Gaussian in the colour distance); its centre must be in sight as
    calibration saw it (``seen``, (55, 4), a factor down to
    :data:`CENTRE_FLOOR`); a peg far from uniform is likely something else
    (``uniform``, (55,)). A peg whose colour is unknown (saturated) says nothing.
    "None of them" is as likely as a colour :data:`UNSEEN_DISTANCE` from every class, or,
    when the centres are ``resolved`` (a hub ring at least :data:`MIN_CENTRE_PIXELS` across
    in this frame), as something over the peg that looks like a class
    (:data:`LOOKALIKE_SHARE`).
    """
    colour = -0.5 * (distances / COLOUR_SIGMA) ** 2
    colour += np.log(np.maximum(uniform, UNIFORM_FLOOR))[:, None]
    likelihood = colour + np.log(np.maximum(seen, CENTRE_FLOOR))
    level = -0.5 * (UNSEEN_DISTANCE / COLOUR_SIGMA) ** 2
    unseen = np.full(len(distances), level)
    if resolved:
        unseen = np.maximum(unseen, colour.max(axis=1) + np.log(LOOKALIKE_SHARE))
    likelihood = np.where(unknown[:, None], 0.0, likelihood)
    unseen = np.where(unknown, 0.0, unseen)
    return likelihood, unseen


def veiled(prototypes: np.ndarray, board: np.ndarray) -> np.ndarray:
    """Class colours (55, 4, 3) as seen under each veil of :data:`VEILS`, (veils, 55, 4, 3).

    White light added to a peg and the board around it (glare off the board,
    a lamp's veil) adds the same grey level ``W`` to every channel of both: a
    class of colour ``r`` relative to the board (linear) is then seen as
    ``r (1 - v) + v`` with ``v = W / board`` per channel (``board`` is the
    seen board's log colour at each peg, (55, 3)). ``W`` is a share of the
    board's brightest channel; the empty class stays the board's colour.
    """
    seen_board = np.exp(board)
    light = VEILS[:, None] * seen_board.max(axis=1)[None]
    share = np.minimum(light[..., None] / seen_board[None], 0.95)[:, :, None, :]
    return np.log(np.exp(prototypes)[None] * (1.0 - share) + share)


def difference_distance(difference: np.ndarray, luminance_weight: float) -> np.ndarray:
    """Length of a log-colour difference, with overall brightness down-weighted against hue."""
    luminance = difference.mean(axis=-1, keepdims=True)
    chroma = difference - luminance
    return np.sqrt((chroma**2).sum(axis=-1) + 3 * (luminance_weight * luminance[..., 0]) ** 2)


def colour_distance(
    a: np.ndarray, b: np.ndarray, luminance_weight: float = LUMINANCE_WEIGHT
) -> np.ndarray:
    """Distance of log colours, with overall brightness down-weighted against hue."""
    return difference_distance(a - b, luminance_weight)
