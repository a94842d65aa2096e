"""Read every peg of the disk in one frame: empty, red, blue or gold, with a confidence.

The reader finds the markers, projects a small ring of sample points around
every peg and a ring of points on the bare board outside the peg triangle (the
*rim*, where no cog can ever stand). The rim shows the board colour under this
frame's light: a smooth per-channel surface fitted to it gives the local board
colour at every peg, so each peg is compared with the board right around it,
not with fixed thresholds. Anything on the rim that is not board (an arm, its
shadow) marks the frame as covered; when all of it is board of the same hue,
only darker or lighter, it is flagged as possibly a shadow (a lamp), which the
settling filter accepts once it stays put.

Each peg's centre must also be in sight as calibration saw it: the pin of an
empty peg, or the hub of a cog seated on it (dark or bright metal: calibration
learns which). A cog held above a peg is larger, off-centre and blurred, so
its hub is not where the peg is: it is read with low confidence. Cog tops stand
above the board, so a tilted camera sees them displaced; the hubs of a few cogs
show where, and cogs are sampled on the plane of their tops
(:mod:`vision.peg_disk.parallax`). Clipped channels are bounds, not colours, and glints
(points saturated in every channel) are left out. Under glare a saturated pixel
is unknown: a peg clipped white where the board around it is not has no known
colour, a clipped channel never argues against a hub or a glint on the rim (a
small glint there is local, not something over the board), and each class is
compared as it would look washed out by added white light. Sample points are
read in bilinear passes (``cv2.remap``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

import cv2
import numpy as np

from vision.frame import BAD_FRAME, NO_BOARD, NO_CAMERA, OK, check_frame
from vision.markers import MIN_MARKERS, MarkerDetector, project
from vision.peg_disk.calibration import Calibration
from vision.peg_disk.geometry import PEGS, BoardGeometry, Position
from vision.peg_disk.parallax import (
    MIN_HUB_CONTRAST,
    Parallax,
    fit_parallax,
    hub_offsets,
    hub_scores,
    search_offsets,
    spread_choice,
)
from vision.peg_disk.parallax import (
    NONE as NO_PARALLAX,
)
from vision.sharpness import BLUR_LIMIT, edge_width
from vision.surface import fit_lighting, only_shade

MIN_CONFIDENCE = 0.5
"""A peg read with less confidence than this makes the whole frame uncertain."""
RIM_TOLERANCE = 0.14
"""Largest log-colour difference between a rim point and the fitted board surface."""
LUMINANCE_WEIGHT = 0.5
"""How much overall brightness counts against colour: shadows change it, paint does not."""
SHADED_LUMINANCE_WEIGHT = 0.1
"""The same, when the rim shows a shadow across the board."""
PIN_CLUSTER, HUB_RING, BODY_RING = 0.035, 0.09, 0.22
"""Radii (in peg pitches) of the points on a pin, the ring over a cog's hub and over its body."""
CENTRE_SHARE = {False: (0.08, 0.16), True: (0.12, 0.2)}
"""Empty peg / cog: share of the calibrated centre contrast seen, (none, enough)."""
MIN_CENTRE_CONTRAST = 0.4
"""A class whose calibrated centre contrast is weaker than this (log) is not checked: a metal
pin about as bright as the board is lost in noise and blur in a small or soft frame."""
NEAR_PITCHES = 2.5
"""Pegs within this many pitches of each other are near: under about the same light."""
MIN_NEAR_COGS = 3
"""Fewest cogs near a peg whose hubs it is compared with (else with all the cogs)."""
HUB_RATIO = (0.35, 0.55)
"""A cog's hub contrast over the median of the cogs near it: (surely not seated, surely seated)."""
SATURATED = 250
"""A channel at or above this is clipped: its true value is unknown (at least this)."""
GLINT_LEVEL = 245
"""A point at or above this in every channel is a glint (or white): not colour."""
MAX_LOCAL_LIGHT = 1.3
"""Light at a peg may be this many times what the rim's board surface says there (a hot patch of
glare the rim does not see); a white peg where the board is dimmer than the clipping level by
more than this is under a saturated patch: its colour is unknown."""
CLIPPED_SHARE = 0.25
"""A peg's channel clipped on more than this share of its points is a lower bound."""
STEADY_PIXELS = 0.5
"""A homography whose probe points moved less than this (pixels) is the same camera pose."""
RUN_TOLERANCE = 0.06
"""A rim point off the board's surface by this much (log) is faintly off..."""
RIM_NOISE_FACTOR = 4.0
"""On a noisy frame a rim point is off the board only beyond this many times the rim's own
noise (:func:`_rim_noise`), when that is more than :data:`RIM_TOLERANCE`..."""
RUN_NOISE_FACTOR = 2.5
"""...and faintly off beyond this many times it, when that is more than RUN_TOLERANCE: a
cheap webcam's noise is not an arm (a clean frame keeps the fixed tolerances)."""
RUN_LENGTH = 3
"""...and this many faintly-off rim points in a row are something over the board."""
RIM_GLINT = 0.05
"""A rim point brighter (log) than the board by this in every channel may be a glint."""
GLINT_RUN = 2
"""Longest run of glinting rim positions that is a glint and not something over the board."""
NEAR_CLIPPED = 236
"""Board predicted this bright (or brighter) in a channel may be clipped there: a clipped peg
then counts as the board's colour (an upper bound on the peg needs the board at 247)."""
BRIGHTEST_LEFT_OUT = 3
"""How many of a peg's 16 colour samples, the brightest, are left out (glint halos)."""
WHITISH = 200
"""A centre point at least this bright in every channel is whitish: a glint, or white metal."""
SPECULAR = 0.3
"""A dark pin or hub seen this much brighter (log) than around it in some channel, and no more
than this darker in any, has a glint on it."""
MIN_RIM_POINTS = 12
"""Fewest unclipped rim points a channel of the board surface is fitted to."""
MAX_OVER_EXPOSURE = 1.6
"""Clipped light is taken to be at most this many times the clipping level (brighter than that
and nearly everything in the frame would be white)."""
ADAPT_RATE = 0.05
"""Share of the way a committed reading moves the class colours (see BoardReader.adapt)."""
ADAPT_LIMIT = 0.15
"""Farthest (log colour, per channel) adaptation takes a class colour from calibration."""
CLOSENESS = 0.55
"""Colour distance to the nearest class at which a peg's closeness falls to 1/e (veiling light
from a lamp shining on the board washes colours out by about this much)."""
MIN_SECOND_DISTANCE = 0.2
"""The margin is measured against at least this distance to the second class (so two classes
that both fit, as clipped channels allow, give no margin)."""
COG_DISTANCE = 0.3
"""Colour distance from a peg's empty colour beyond which it is sampled as a cog."""
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
MIN_CENTRE_PIXELS = 2.0
"""Hub ring radius (pixels) below which a missing centre is no sign of something over the peg:
a hub or pin a pixel or two across is lost in a noisy webcam's grain on its own."""
CENTRE_FLOOR = 0.05
"""Likelihood factor of a class whose centre (pin or seated hub) is not in sight at all."""
UNIFORM_FLOOR = 0.05
"""Likelihood factor of every class at a peg whose colour is far from uniform."""
SHADE_PER_COG = 0.12
"""How much darker (log) an empty peg may look for each cog next to it (their shade), when
calibration could not measure it (:attr:`vision.peg_disk.calibration.Calibration.shade`)."""
PROBE_POINTS = np.array([[-100.0, -100.0], [100.0, 100.0], [100.0, -100.0]])
"""Board points (mm) the settling filter watches to tell that the board or the camera moved."""


@dataclass(frozen=True)
class Reading:
    """What one frame shows.

    ``status`` is OK, NO_BOARD, BAD_FRAME or NO_CAMERA; only an OK reading has
    labels. ``covered`` says something not board lies over the board (then the
    labels may be wrong and must not be committed). ``features`` are the
    per-peg colours relative to the local board, for motion detection.
    ``shaded`` says everything over the rim is board of the same hue, only
    darker or lighter (a shadow, perhaps of a lamp); ``rim`` holds the rim's log colours
    (72, 3) so the settling filter can tell a shadow that stays put.
    ``centre_contrast`` is (55, 2, 3): per peg, the log colour of its pin and
    of a cog's hub less the ring around (what calibration learns), and
    ``parallax`` where cog tops were seen; ``rim_outliers`` counts the rim points
    that were not bare board; ``missing_markers`` names markers not seen (the
    board is read from three: a hand resting on the fourth); ``edge_width`` is
    how wide (pixels) the markers' edges are (:mod:`vision.sharpness`): a frame
    blurred by a bump is a BAD_FRAME, never read.

    ``log_likelihood`` (55, 4) is the evidence of this frame for every peg and
    class (:attr:`classes`): the log likelihood of what the peg shows if it
    held that class; ``unseen`` (55,) the same if it showed none of them (a
    hand, a held cog). A commit decision sums them over a still board's frames
    (:mod:`cogtable.commit_decision`); the labels are their per-frame best.
    ``rim_shape`` (72, 3) is the rim less the smooth light through it: a shadow
    on the rim keeps its shape when the room's light changes.
    """

    status: str
    message: str = ""
    labels: tuple[str | None, ...] | None = None
    confidence: tuple[float, ...] | None = None
    covered: bool = False
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    homography: np.ndarray | None = None
    features: np.ndarray | None = None
    shaded: bool = False
    rim: np.ndarray | None = None
    centre_contrast: np.ndarray | None = None
    parallax: Parallax = NO_PARALLAX
    rim_outliers: int = 0
    missing_markers: tuple[int, ...] = ()
    edge_width: float = 0.0
    log_likelihood: np.ndarray | None = None
    unseen: np.ndarray | None = None
    rim_shape: np.ndarray | None = None

    classes: ClassVar[tuple[str | None, ...]] = (None, "red", "blue", "gold")
    """The classes of :attr:`log_likelihood`'s columns: empty, then each cog colour."""

    @property
    def ok(self) -> bool:
        """True when the board was seen and every peg read."""
        return self.status == OK

    @property
    def certain(self) -> bool:
        """An OK reading with nothing over the board and every peg confident."""
        return self.ok and not self.covered and min(self.confidence or (0.0,)) >= MIN_CONFIDENCE

    def position(self) -> Position | None:
        """The reading as plain data (peg -> colour or None), or None if not OK."""
        if self.labels is None:
            return None
        return dict(zip(PEGS, self.labels, strict=True))

    def uncertain_pegs(self) -> list[tuple[int, int]]:
        """Pegs read with less than :data:`MIN_CONFIDENCE`."""
        confidence = self.confidence or ()
        return [peg for peg, value in zip(PEGS, confidence, strict=False) if value < MIN_CONFIDENCE]

    def uncertain_places(self) -> list[str]:
        """The uncertain pegs' names ("row,column"), as the settling filter names places."""
        return [f"{row},{column}" for row, column in self.uncertain_pegs()]

    place_noun: ClassVar[str] = "peg"
    """What a place is called in messages."""

    @property
    def probe_points(self) -> np.ndarray:
        """Points (board mm) whose image shows that the board or the camera moved."""
        return PROBE_POINTS

    @property
    def places(self) -> tuple[tuple[int, int], ...]:
        """The places of :attr:`log_likelihood`'s rows: every peg."""
        return PEGS


def sample_offsets(pitch: float) -> np.ndarray:
    """Sample points around a peg centre (mm): two rings inside a cog, clear of neighbours."""
    rings = []
    for radius, phase in ((0.18, 0.0), (0.3, np.pi / 8)):
        rings.append(ring(radius * pitch, 8, phase))
    return np.concatenate(rings)


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
class RimFit:
    """The rim's log colours (72, 3), how many of them are not bare board, and each one's
    residual from the smooth light through the rim (72, 3)."""

    values: np.ndarray
    outliers: int
    residual: np.ndarray | None = None


@dataclass(frozen=True)
class BoardFit:
    """The local board colour at every peg (log, (55, 3)), which channels of it are clipped,
    the rim fit, and whether what is over the rim is only shade."""

    at_pegs: np.ndarray
    clipped: np.ndarray
    rim: RimFit
    shaded: bool


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


def _glints(values: np.ndarray, white_board: np.ndarray | None = None) -> np.ndarray:
    """Points saturated in every channel: specular glints, not colour.

    A glint is small: where most of a peg's points are white (``values`` is
    (pegs, points, 3)), or the board there is clipped white (``white_board``,
    per peg), the white is over-exposed board, not a glint.
    """
    glints = (values >= GLINT_LEVEL).all(axis=-1)
    if values.ndim == 3:
        glints &= (glints.mean(axis=1) <= 0.5)[:, None]
    if white_board is not None:
        glints &= ~white_board[:, None]
    return glints


def _weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mean over axis 1 of (n, m, 3) values with (n, m) weights (all points when none count)."""
    weights = np.where(weights.sum(axis=1, keepdims=True) < 1, 1.0, weights)
    return (values * weights[..., None]).sum(axis=1) / weights.sum(axis=1)[:, None]


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
    weights = (~_glints(samples, board.clipped.all(axis=1))).astype(np.float32)
    brightest = np.argsort(samples.sum(axis=2), axis=1)[:, -BRIGHTEST_LEFT_OUT:]
    np.put_along_axis(weights, brightest, 0.0, axis=1)
    mean = _weighted_mean(samples, weights)
    logs = np.log(samples + 30.0)
    centred = logs - _weighted_mean(logs, weights)[:, None]
    spread = np.sqrt(_weighted_mean(centred**2, weights)).mean(axis=1)
    clipped_share = _weighted_mean((samples >= SATURATED).astype(np.float32), weights)
    peg_clipped = clipped_share > CLIPPED_SHARE
    board_clipped = board.at_pegs >= np.log(SATURATED - 3.0)
    lower = peg_clipped & ~board.clipped
    upper = board_clipped & ~peg_clipped
    features = np.where(peg_clipped & board.clipped, 0.0, np.log(mean + 1.0) - board.at_pegs)
    dim_board = board.at_pegs < np.log(SATURATED / MAX_LOCAL_LIGHT)
    unknown = peg_clipped.all(axis=1) & dim_board.any(axis=1)
    return PegColour(features, spread, lower, upper, unknown)


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
    white = white_board | (_glints(centres[:, 13:21]).sum(axis=1) == 0) & (
        (centres[:, 13:21] >= GLINT_LEVEL).all(axis=-1).mean(axis=1) > 0.5
    )
    glints = _glints(centres, white)
    parts = (slice(0, 5), slice(5, 13), slice(13, 21))
    pin, hub, body = (_median_without(logs[:, part], glints[:, part]) for part in parts)
    contrast = np.stack([pin - body, hub - body], axis=1)
    whitish = glints | (centres.min(axis=-1) >= WHITISH)
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


def _rim_noise(residual: np.ndarray, known: np.ndarray) -> float:
    """This frame's sensor noise on the bare rim (log): the robust spread (1.4826 MAD) of the
    residuals from the smooth light, the noisiest channel's (an arm over part of the rim
    moves a median little)."""
    spread = [
        1.4826 * float(np.median(np.abs(residual[known[:, c], c])))
        for c in range(residual.shape[1])
        if known[:, c].any()
    ]
    return max(spread, default=0.0)


def _median_of_three(values: np.ndarray) -> np.ndarray:
    """Element-wise median of values[0], values[1] and values[2]."""
    a, b, c = values
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def _rim_message(rim: RimFit, shaded: bool) -> str:
    if rim.outliers < 2:
        return ""
    if shaded:
        return f"a shadow or something board-coloured over the board ({rim.outliers} rim points)"
    return f"something over the board ({rim.outliers} rim points)"


def rim_basis(points: np.ndarray, radius: float) -> np.ndarray:
    """Smooth-surface basis 1, x, y, xy, x^2 - y^2 (x^2 + y^2 is constant on a circle)."""
    x, y = points[:, 0] / radius, points[:, 1] / radius
    return np.column_stack([np.ones_like(x), x, y, x * y, x * x - y * y])


def local_glints(glints: np.ndarray) -> np.ndarray:
    """The glinting rim positions that are small spots (runs of at most :data:`GLINT_RUN`).

    A specular spot on the rim is local; a long white run (a sheet of paper,
    a sleeve) is something over the board.
    """
    if not glints.any() or glints.all():
        return np.zeros_like(glints) if glints.all() else glints
    start = int(np.argmin(glints))
    rolled = np.roll(glints, -start)
    local = np.zeros_like(rolled)
    index = 0
    while index < len(rolled):
        if not rolled[index]:
            index += 1
            continue
        end = index
        while end < len(rolled) and rolled[end]:
            end += 1
        local[index:end] = end - index <= GLINT_RUN
        index = end
    return np.roll(local, start)


def _runs(flags: np.ndarray, length: int) -> np.ndarray:
    """The flags that belong to a run of at least ``length`` in a row, around a circle."""
    if flags.all():
        return flags.copy()
    count = np.zeros(len(flags), int)
    rolled = np.roll(flags, -int(np.argmin(flags)))
    run = 0
    for index, flag in enumerate(rolled):
        run = run + 1 if flag else 0
        count[index] = run
    marked = np.zeros(len(flags), bool)
    for index in np.flatnonzero(count >= length):
        marked[index - count[index] + 1 : index + 1] = True
    return np.roll(marked, int(np.argmin(flags)))


def _remap(image: np.ndarray, pixels: np.ndarray) -> np.ndarray | None:
    """Bilinear pixel values at (N, 2) pixel points, (N, 3) float32; None if any is outside."""
    pixels = pixels.astype(np.float32)
    height, width = image.shape[:2]
    if not (
        pixels.min() >= 0 and pixels[:, 0].max() <= width - 1 and pixels[:, 1].max() <= height - 1
    ):
        return None
    values = cv2.remap(
        image,
        np.ascontiguousarray(pixels[:, 0]),
        np.ascontiguousarray(pixels[:, 1]),
        cv2.INTER_LINEAR,
    )
    return values.reshape(-1, 3).astype(np.float32)


class BoardReader:
    """Reads frames of one board with one calibration (see :mod:`vision.peg_disk.calibration`)."""

    def __init__(
        self, geometry: BoardGeometry | None = None, calibration: Calibration | None = None
    ) -> None:
        self.geometry = geometry or (calibration.geometry if calibration else BoardGeometry())
        self.calibration = calibration or Calibration.reference(self.geometry)
        self.detector = MarkerDetector(self.geometry)
        pitch = self.geometry.peg_pitch
        self._pegs = self.geometry.peg_positions()
        apart = np.linalg.norm(self._pegs[:, None] - self._pegs[None], axis=2)
        self._near = apart <= NEAR_PITCHES * pitch
        offsets = sample_offsets(pitch)
        centres = centre_offsets(pitch)
        self._samples_per_peg = len(offsets)
        self._centre_points = len(centres)
        self._peg_points = (
            self._pegs[:, None, :] + np.concatenate([offsets, centres])[None]
        ).reshape(-1, 2)
        self._rim_points = self._rim_sample_points()
        self._points = np.concatenate([self._peg_points, self._rim_points])
        self._search = search_offsets(pitch)
        self._last_parallax: tuple[np.ndarray, Parallax] | None = None
        self._hub_rings = np.concatenate([ring(HUB_RING * pitch, 8), ring(BODY_RING * pitch, 8)])
        radius = self.geometry.disk_radius
        self._rim_basis = rim_basis(self.geometry.rim_points(72), radius)
        self._peg_basis = rim_basis(self._pegs, radius)
        self._calibrated_empty = np.array(self.calibration.empty)
        self._calibrated_colours = np.array(
            [self.calibration.colours[label] for label in LABEL_ORDER]
        )
        self._set_prototypes(self._calibrated_empty, self._calibrated_colours)
        self._adjacent = (apart > 0) & (apart <= 1.1 * pitch)
        self._shade = max(self.calibration.shade, SHADE_PER_COG)
        self._rim_pattern = (
            np.array(self.calibration.rim) if self.calibration.rim else np.zeros((72, 3))
        )
        self._expected_centre = np.array(
            [self.calibration.centre[name] for name in ("empty", *LABEL_ORDER)]
        )

    def _set_prototypes(self, empty: np.ndarray, colours: np.ndarray) -> None:
        """The class colours every peg is compared with: its own empty colour and the cogs'."""
        self._empty, self._colours = empty, colours
        self._prototypes = np.concatenate(
            [empty[:, None, :], np.broadcast_to(colours, (len(PEGS), 3, 3))], axis=1
        )

    @property
    def colours(self) -> dict[str, np.ndarray]:
        """The cog colours the reader compares with now (calibration's, slowly adapted)."""
        return {label: self._colours[i].copy() for i, label in enumerate(LABEL_ORDER)}

    def adapt(self, reading: Reading, rate: float = ADAPT_RATE) -> None:
        """Move the class colours a little towards what a committed reading showed.

        What drift the camera's locked exposure and white balance leave (the
        lamp warming up, daylight) is followed slowly: each committed reading
        moves every cog colour ``rate`` of the way to the median of the pegs
        read as that colour, and each empty peg's colour towards what it showed,
        never more than :data:`ADAPT_LIMIT` from calibration. An uncertain
        reading teaches nothing.
        """
        if not reading.certain or reading.features is None or reading.labels is None:
            return
        labels = np.array([CLASS_NAMES.index(label) for label in reading.labels])
        colours = self._colours.copy()
        for index in range(len(LABEL_ORDER)):
            rows = labels == index + 1
            if rows.any():
                target = np.median(reading.features[rows], axis=0)
                colours[index] += rate * (target - colours[index])
        empty = self._empty.copy()
        rows = labels == 0
        empty[rows] += rate * (reading.features[rows] - empty[rows])
        self._set_prototypes(
            _within(empty, self._calibrated_empty, ADAPT_LIMIT),
            _within(colours, self._calibrated_colours, ADAPT_LIMIT),
        )

    def _rim_sample_points(self) -> np.ndarray:
        """Three points across the rim band for each of 72 rim positions, shape (216, 2)."""
        rim = self.geometry.rim_points(72)
        unit = rim / np.linalg.norm(rim, axis=1, keepdims=True)
        step = 0.12 * self.geometry.peg_pitch
        return np.concatenate([rim - step * unit, rim, rim + step * unit])

    def read(self, frame: object) -> Reading:
        """Read one frame; never raises for bad frames, reports them instead."""
        image, problem = check_frame(frame)
        if image is None:
            return Reading(NO_CAMERA if frame is None else BAD_FRAME, problem)
        found = self.detector.locate(image)
        if found.homography is None:
            return self._no_board(found)
        width = edge_width(image, found.corners)
        if width > BLUR_LIMIT:
            message = (
                f"blurred frame (marker edges {width:.1f} px wide, sharp is under "
                f"{BLUR_LIMIT:g}): the table was bumped, or the camera is out of focus"
            )
            return Reading(BAD_FRAME, message, markers=found.corners, edge_width=width)
        reading = self.read_with_homography(image, found.homography, found.corners)
        reading = replace(reading, edge_width=width)
        if not found.missing or not reading.ok:
            return reading
        covered = ", ".join(map(str, found.missing))
        note = f"marker {covered} is covered"
        message = f"{reading.message}; {note}" if reading.message else note
        return replace(reading, message=message, missing_markers=found.missing)

    def _no_board(self, found) -> Reading:
        if len(found.corners) >= MIN_MARKERS:
            message = "markers found but they do not fit the board geometry"
        else:
            message = f"markers not found: {', '.join(map(str, found.missing))}"
        return Reading(NO_BOARD, message, markers=found.corners, missing_markers=found.missing)

    def read_with_homography(self, image, homography, markers=None) -> Reading:
        """Read the pegs once the board-to-image homography is known.

        Pegs are first sampled on the board plane; the pegs that look like
        cogs are then sampled again on the plane of the cog tops (see
        :mod:`vision.peg_disk.parallax`) when the hubs show where that is.
        """
        values = _remap(image, project(homography, self._points))
        if values is None:
            return Reading(
                NO_BOARD, "the board is partly outside the picture", markers=markers or {}
            )
        per_peg = len(PEGS) * (self._samples_per_peg + self._centre_points)
        pegs = values[:per_peg].reshape(len(PEGS), -1, 3)
        board = self._local_board(values[per_peg:])
        colour = peg_colour(pegs[:, : self._samples_per_peg], board)
        cogs = self._likely_cogs(colour)
        parallax = self._steady_parallax(image, homography, cogs, board.rim.outliers >= 2)
        if parallax is not None and cogs.any():
            lifted = homography @ parallax.matrix()
            top = _remap(image, project(lifted, self._peg_points))
            if top is not None:
                pegs = np.where(cogs[:, None, None], top.reshape(pegs.shape), pegs)
                colour = peg_colour(pegs[:, : self._samples_per_peg], board)
        weight = SHADED_LUMINANCE_WEIGHT if board.shaded else LUMINANCE_WEIGHT
        white = board.clipped.all(axis=1)
        centre = centre_contrast(pegs[:, self._samples_per_peg :], white)
        resolved = HUB_RING * self.geometry.peg_pitch * _pixels_per_mm(homography)
        labels, confidence, (likelihood, unseen) = self._classify(
            colour, centre, weight, board.at_pegs, resolved >= MIN_CENTRE_PIXELS
        )
        return Reading(
            OK,
            _rim_message(board.rim, board.shaded),
            labels,
            confidence,
            board.rim.outliers >= 2,
            markers or {},
            homography,
            colour.features,
            board.shaded,
            board.rim.values,
            centre.contrast,
            parallax or NO_PARALLAX,
            board.rim.outliers,
            log_likelihood=likelihood,
            unseen=unseen,
            rim_shape=board.rim.residual,
        )

    def _shaded_empty(self, difference: np.ndarray, colour: PegColour) -> np.ndarray:
        """Differences from the classes (..., 55, 4, 3), an empty peg's darkening by the shade
        of the cogs next to it forgiven: up to :attr:`shade` (log) per cog next to it."""
        cogs = self._likely_cogs(colour)
        allowance = self._shade * (self._adjacent & cogs[None, :]).sum(axis=1)
        empty = difference[..., 0, :]
        luminance = empty.mean(axis=-1, keepdims=True)
        lifted = np.minimum(luminance + allowance[:, None], 0.0)
        forgiven = np.where(luminance < 0, lifted, luminance) - luminance
        shaded = difference.copy()
        shaded[..., 0, :] = empty + forgiven
        return shaded

    def _likely_cogs(self, colour: PegColour) -> np.ndarray:
        """Pegs whose colour is far from their own empty colour: probably a cog."""
        distance = colour_distance(colour.features, self._empty)
        return distance > COG_DISTANCE

    def _steady_parallax(self, image: np.ndarray, homography, cogs: np.ndarray, covered: bool):
        """The parallax: found again only when the camera moved since it was last found.

        It depends only on the camera's pose and the cogs' height, so a camera
        that stays put (the homography within :data:`STEADY_PIXELS`) keeps it;
        but only one found in a frame with nothing over the board: hubs searched
        under a hand are the hand's, and a still camera would keep that wrong
        parallax after the hand left (every later frame then doubts a cog).
        """
        if self._last_parallax is not None:
            before, parallax = self._last_parallax
            moved = np.abs(project(homography, PROBE_POINTS) - project(before, PROBE_POINTS))
            if moved.max() < STEADY_PIXELS:
                return parallax
        parallax = self._parallax(image, homography, cogs)
        kept = parallax is not None and not covered
        self._last_parallax = (homography, parallax) if kept else None
        return parallax

    def _parallax(self, image: np.ndarray, homography, cogs: np.ndarray) -> Parallax | None:
        """Where cog tops are seen, from the hubs of a few cogs spread over the board."""
        indices = np.flatnonzero(cogs)
        if len(indices) < 3:
            return None
        chosen = indices[spread_choice(self._pegs[indices])]
        places = self._pegs[chosen, None, None, :] + self._search[None, :, None, :]
        points = places + self._hub_rings[None, None]
        values = _remap(image, project(homography, points.reshape(-1, 2)))
        if values is None:
            return None
        logs = np.log(values.reshape(len(chosen), len(self._search), -1, 3) + 5.0)
        found, strength = hub_offsets(hub_scores(logs), self._search)
        clear = strength >= MIN_HUB_CONTRAST
        return fit_parallax(self._pegs[chosen][clear], found[clear], self.geometry.peg_pitch)

    def _local_board(self, rim: np.ndarray) -> BoardFit:
        """The local board colour at every peg, fitted to the rim, and what is over the rim.

        The smooth surface is fitted, channel by channel, to the rim points that
        agree with it (clipped values as they are: a clipped peg then compares
        with clipped board); a rim point that disagrees is something over the
        rim (and so are :data:`RUN_LENGTH` neighbours in a row that disagree only
        faintly: an arm whose skin is about the colour of the board), unless it
        is a small glint: saturated, or brighter than the board
        in every channel (white light added; a clipped channel is unknown, at
        least the clipping level, so it never says a point is not brighter),
        and at most :data:`GLINT_RUN` rim positions long. When
        every such point is only darker board (same hue), it may be a shadow,
        which the settling filter learns to live with if it stays put. Where a
        channel of the board is clipped the peg colours relative to it are
        bounds (see :func:`peg_colour`).
        """
        raw = _median_of_three(rim.reshape(3, -1, 3))
        values = np.log(raw + 1.0) - np.where(raw < SATURATED, self._rim_pattern, 0.0)
        glints = local_glints(_glints(raw))
        known = np.broadcast_to(~glints[:, None], values.shape)
        coefficients, residual, keep = self._rim_fit(values, known)
        noise = _rim_noise(residual, known)
        if noise * RIM_NOISE_FACTOR > RIM_TOLERANCE:
            tolerance = noise * RIM_NOISE_FACTOR
            coefficients, residual, keep = self._rim_fit(values, known, tolerance)
        at_pegs = self._peg_basis @ coefficients
        fitted = (keep[:, None] & known).sum(axis=0) >= MIN_RIM_POINTS
        at_pegs = np.where(fitted, at_pegs, np.log(256.0))
        clipped = (at_pegs >= np.log(NEAR_CLIPPED + 1.0)) | ~fitted
        brighter = ~keep & ((residual > RIM_GLINT) | (raw >= SATURATED)).all(axis=1)
        run_tolerance = max(RUN_TOLERANCE, RUN_NOISE_FACTOR * noise)
        faint = _runs(np.abs(residual).max(axis=1) >= run_tolerance, RUN_LENGTH)
        outliers = (~keep | faint) & ~local_glints(_glints(raw) | brighter)
        fit = RimFit(values, int(outliers.sum()), residual)
        return BoardFit(at_pegs, clipped, fit, only_shade(residual[outliers]))

    def _rim_fit(self, values: np.ndarray, known: np.ndarray, tolerance: float = RIM_TOLERANCE):
        """The smooth surface through the rim's log colours (72, 3): coefficients, every
        point's residual from it (0 where not ``known``), and the points that agree with it
        (within ``tolerance``)."""
        keep = np.ones(len(values), bool)
        for _ in range(2):
            coefficients = fit_lighting(
                self._rim_basis, values, (keep[:, None] & known).astype(float), ridge=1e-9
            )
            residual = np.where(known, values - self._rim_basis @ coefficients, 0.0)
            keep = np.abs(residual).max(axis=1) < tolerance
            if keep.sum() < 12:
                break
        return coefficients, residual, keep

    def rim_residual(self, rim: np.ndarray) -> np.ndarray:
        """How far each rim position's log colour (a reading's ``rim``, (72, 3)) lies from the
        smooth surface through the rim: the board's own pattern, when the rim is bare."""
        return self._rim_fit(rim, np.ones(rim.shape, bool))[1]

    def _classify(
        self,
        colour: PegColour,
        centre: CentreView,
        luminance_weight: float,
        board: np.ndarray,
        resolved: bool = True,
    ):
        """Nearest prototype (the peg's own empty colour or a cog colour) and a confidence.

        Each class is compared as it would look under any veil of white light
        up to :data:`VEILS` (``board`` is the local board's log colour at every
        peg, (55, 3)): glare adds light, which washes a cog out towards the
        board's colour without changing which cog it is.

        The confidence is high only when the colour is close to one class and
        far from the others, uniform over the peg, and the peg's centre is in
        sight as calibration saw it: the pin of an empty peg, or the hub of a
        cog seated on it (a cog held above a peg shows neither: it is larger,
        off-centre and blurred). Under a shadow the board's brightness at a peg
        is unknown, so brightness then counts for little (hue separates the
        classes). A clipped channel counts only where the class's colour lies
        beyond what could be behind the clipping (light at most
        :data:`MAX_OVER_EXPOSURE` times the clipping level).
        """
        difference = colour.features[:, None, :] - veiled(self._prototypes, board)
        over = np.log(MAX_OVER_EXPOSURE)
        lower = np.minimum(np.maximum(difference, 0.0), difference + over)
        upper = np.maximum(np.minimum(difference, 0.0), difference - over)
        difference = np.where(colour.lower[:, None], lower, difference)
        difference = np.where(colour.upper[:, None], upper, difference)
        difference = self._shaded_empty(difference, colour)
        distances = _difference_distance(difference, luminance_weight).min(axis=0)
        order = np.argsort(distances, axis=1)
        nearest = np.take_along_axis(distances, order[:, :2], axis=1)
        margin = (nearest[:, 1] - nearest[:, 0]) / np.maximum(nearest[:, 1], MIN_SECOND_DISTANCE)
        closeness = np.exp(-((nearest[:, 0] / CLOSENESS) ** 2))
        uniform = np.exp(-((np.maximum(colour.spread - 0.12, 0) / 0.15) ** 2))
        seen_by_class = np.stack(
            [
                centre_in_sight(
                    centre.contrast,
                    np.full(len(PEGS), index),
                    self._expected_centre,
                    centre.glinted,
                    clipped=centre.clipped,
                    near=self._near,
                    cogs=order[:, 0] > 0,
                )
                for index in range(len(CLASS_NAMES))
            ],
            axis=1,
        )
        seen = np.take_along_axis(seen_by_class, order[:, :1], axis=1)[:, 0]
        confidence = np.clip(np.minimum(2 * margin, 1.0) * closeness * uniform * seen, 0, 1)
        confidence = np.where(colour.unknown, 0.0, confidence)
        labels = tuple(CLASS_NAMES[i] for i in order[:, 0])
        evidence = _evidence(distances, seen_by_class, uniform, colour.unknown, resolved)
        return labels, tuple(np.round(confidence, 3).tolist()), evidence


def _evidence(
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


def _pixels_per_mm(homography: np.ndarray) -> float:
    """The image scale at the board centre (square root of the homography's Jacobian)."""
    points = project(homography, np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
    (ax, ay), (bx, by) = points[1] - points[0], points[2] - points[0]
    return float(np.sqrt(abs(ax * by - ay * bx)))


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


def _within(values: np.ndarray, centre: np.ndarray, limit: float) -> np.ndarray:
    """``values`` clipped to ``centre`` plus or minus ``limit``."""
    return np.clip(values, centre - limit, centre + limit)


LABEL_ORDER = ("red", "blue", "gold")
CLASS_NAMES: tuple[str | None, ...] = (None, *LABEL_ORDER)


def _difference_distance(difference: np.ndarray, luminance_weight: float) -> np.ndarray:
    """Length of a log-colour difference, with overall brightness down-weighted against hue."""
    luminance = difference.mean(axis=-1, keepdims=True)
    chroma = difference - luminance
    return np.sqrt((chroma**2).sum(axis=-1) + 3 * (luminance_weight * luminance[..., 0]) ** 2)


def colour_distance(
    a: np.ndarray, b: np.ndarray, luminance_weight: float = LUMINANCE_WEIGHT
) -> np.ndarray:
    """Distance of log colours, with overall brightness down-weighted against hue."""
    return _difference_distance(a - b, luminance_weight)
