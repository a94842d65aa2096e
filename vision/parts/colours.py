"""Colour arithmetic of the parts reader: colours relative to the local paper, and votes.

A colour is read as the log of its ratio to the paper right around it (per
channel), so the light's brightness and colour cast cancel; the darkest
shades are pressed together, since there a channel is mostly noise. A place
is read by letting each of its sample points vote for the nearest colour it
could show; :func:`vote` counts the votes and :func:`decide` names the winner
and how sure it is.

>>> round(float(abs(relative_log(np.array(PAPER_BGR, np.float32))).max()), 6)
0.0
>>> absolute(relative_log(np.array([40.0, 190.0, 235.0]))).round(1).tolist()
[40.0, 190.0, 235.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.part_sheet import PAPER_BGR
from vision.parts.tiles import BGR, TileLook

DARK_FLOOR = 0.08
"""Colour ratios to the paper below about this are pressed together (see :func:`compressed`)."""
MATCH_DISTANCE = 0.42
"""A sample point farther than this from every colour a place can show matches none."""
EDGE_SUPPORT = 0.1
"""Edge colours count for a thing on a place showing at least this share of its own colour."""
LOG_PAPER = np.log(np.array(PAPER_BGR, np.float32) + 1.0)
"""log(v + 1) of the printed paper, per channel."""
TILE_CLASSES = ("", "face", "wild", "star")
"""What a tile place can show by colour (a face-up tile's letter comes from the classifier)."""
EDGE = -1
"""The class of an edge colour: it belongs to whatever the place shows (see :func:`vote`)."""


def compressed(ratio: np.ndarray) -> np.ndarray:
    """Log of a colour's ratio to the local paper, with the darkest shades pressed together.

    A channel far below the paper's is mostly noise (and JPEG's doing), so its
    log would swing wildly: :data:`DARK_FLOOR` bounds the swing. The paper is 0.
    """
    return np.log(ratio + DARK_FLOOR) - np.log(1.0 + DARK_FLOOR)


def relative_log(bgr: np.ndarray) -> np.ndarray:
    """A printed or painted colour (BGR) as the reader sees it relative to the printed paper."""
    return compressed(np.asarray(bgr, np.float32) / np.array(PAPER_BGR, np.float32))


def absolute(relative: np.ndarray) -> np.ndarray:
    """The BGR (float, 0..255) that shows ``relative`` colours (..., 3) on the printed paper:
    the inverse of :func:`relative_log` (a colour learned under any light, in the paper's terms)."""
    ratio = np.exp(np.asarray(relative, np.float32) + np.log(1.0 + DARK_FLOOR)) - DARK_FLOOR
    return np.clip(ratio * np.array(PAPER_BGR, np.float32), 0.0, 255.0)


def relative_to(values: np.ndarray, paper_log: np.ndarray) -> np.ndarray:
    """Pixel values (..., 3) relative to the local paper, given as log(v + 1) per channel."""
    paper = np.exp(paper_log) - 1.0
    return compressed(values.astype(np.float32) / np.maximum(paper, 1.0))


def squared_distances(values: np.ndarray, prototypes: np.ndarray, weight: float) -> np.ndarray:
    """(N, K) squared distances of relative colours (N, 3) to prototypes (K, 3).

    The distance of :func:`vision.peg_disk.colour.colour_distance`: hue counts fully,
    overall brightness by ``weight`` (shadows change it, paint does not).
    """
    return np.maximum(_unclipped_distances(values, prototypes, weight), 0.0)


def _unclipped_distances(values: np.ndarray, prototypes: np.ndarray, weight: float) -> np.ndarray:
    """:func:`squared_distances` before clipping rounding below 0, in one matrix product:
    |v - p|^2 + c (mean v - mean p)^2 = a(v) + a(p) - 2 [v, mean v] . [p, c mean p]."""
    values = np.asarray(values, np.float32)
    prototypes = np.asarray(prototypes, np.float32)
    c = np.float32(3 * (weight**2 - 1))
    mean_v, mean_p = _mean3(values), _mean3(prototypes)
    own_v = _norm2(values) + c * mean_v**2
    own_p = _norm2(prototypes) + c * mean_p**2
    left = np.column_stack((values, mean_v))
    right = np.column_stack((prototypes, c * mean_p))
    cross = left @ right.T
    cross *= -2
    cross += own_v[:, None]
    cross += own_p[None]
    return cross


def squared_distance_each(values: np.ndarray, others: np.ndarray, weight: float) -> np.ndarray:
    """Squared distances of relative colours (..., 3) to others (the same shape, or one colour)."""
    difference = values - others
    return np.maximum(_norm2(difference) + 3 * (weight**2 - 1) * _mean3(difference) ** 2, 0.0)


def lightness(values: np.ndarray) -> np.ndarray:
    """The mean of a relative colour's three channels (its overall brightness)."""
    return _mean3(values)


def _mean3(values: np.ndarray) -> np.ndarray:
    """Mean over a last axis of length 3, channel by channel (numpy is slow on a short axis)."""
    return (values[..., 0] + values[..., 1] + values[..., 2]) / 3


def _norm2(values: np.ndarray) -> np.ndarray:
    return values[..., 0] ** 2 + values[..., 1] ** 2 + values[..., 2] ** 2


def mix(a: np.ndarray, b: np.ndarray, share_of_a: float) -> np.ndarray:
    """The colour of a pixel covering ``share_of_a`` of colour ``a`` and the rest of ``b``."""
    return share_of_a * a + (1 - share_of_a) * b


@dataclass(frozen=True)
class Palette:
    """The colours a kind of place can show (relative to paper, (K, 3)) and each one's class.

    Class 0 is the place's own empty print (each point's, not in ``colours``);
    :data:`EDGE` marks an edge colour.
    """

    colours: np.ndarray
    classes: np.ndarray
    class_count: int


def tile_palette(look: TileLook) -> Palette:
    """The colours a tile place's points can show, by class.

    The class indexes :data:`TILE_CLASSES` (or is :data:`EDGE`). A tile's
    face and its darker rim, its back with the lighter inset line, a star
    token's gold and darker star; edges between two colours of one thing (a
    letter's stroke on the face, the token's rim on the paper) blur into
    mixtures: edge colours, which belong to whatever the place shows (a
    letter's blurred stroke and a token's faint rim look alike). The empty
    print is each point's own and is added by the reader.
    """
    face, ink = np.array(look.face, np.float32), np.array(look.ink, np.float32)
    back, star = np.array(look.back, np.float32), np.array(look.star, np.float32)
    back_line = np.array(look.back_line_bgr(), np.float32)
    star_dark = np.array(look.star_mark_bgr(), np.float32)
    paper = np.array(PAPER_BGR, np.float32)
    colours = [(face, 1), (0.88 * face, 1), (ink, EDGE), (back, 2), (back_line, 2)]
    colours += [(mix(back, back_line, 0.5), 2)]
    if token_like_face(look):  # only the token's star tells it from a tile: only it votes star
        colours += [(star, 1), (star_dark, 3)]
    else:
        colours += [(star, 3), (star_dark, 3), (mix(star, star_dark, 0.5), 3)]
        colours += [(mix(star, paper, t), EDGE) for t in (0.4, 0.7)]
    colours += [(mix(face, ink, t), EDGE) for t in (0.2, 0.4, 0.6, 0.8)]
    logs = np.array([relative_log(colour) for colour, _ in colours], np.float32)
    return Palette(logs, np.array([cls for _, cls in colours], int), len(TILE_CLASSES))


SAME_COLOUR = 0.25
"""Two tile colours nearer than this (relative log) cannot be told apart by colour."""


def alike(first: BGR, second: BGR) -> bool:
    """Whether two colours (BGR) are too alike for the colour vote to tell apart."""
    a, b = relative_log(np.array(first, np.float32)), relative_log(np.array(second, np.float32))
    return bool(squared_distance_each(a, b, 0.5) < SAME_COLOUR**2)


def token_like_face(look: TileLook) -> bool:
    """A star token whose ground looks like a tile's face (only the star drawn on it differs)."""
    return alike(look.star, look.face) and not alike(look.star_mark_bgr(), look.face)


def maybe_tokens(shares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per tile place, for :func:`token_like_face` looks: whether it shows the face colour
    (a tile face up, or a token: the letter model decides, a token is not a letter), and
    the shares with the token's star votes given to the face for the vote's decision."""
    face, star = TILE_CLASSES.index("face"), TILE_CLASSES.index("star")
    shown = shares[:, face] >= FACE_SHOWN
    moved = shares.copy()
    moved[shown, face] += moved[shown, star]
    moved[shown, star] = 0.0
    return shown, moved


FACE_SHOWN = 0.2
"""A tile place showing the face colour on this share of its points holds a face-up tile."""


def face_over_back(shares: np.ndarray) -> np.ndarray:
    """Tile class shares (places, :data:`TILE_CLASSES`) with a face-down tile's votes given to
    the face where the face shows on :data:`FACE_SHOWN` of the points: a tile lying face down
    shows none of its face, so those votes came from a letter's ink dark like the back."""
    face, wild = TILE_CLASSES.index("face"), TILE_CLASSES.index("wild")
    shown = shares[:, face] >= FACE_SHOWN
    moved = shares.copy()
    moved[shown, face] += moved[shown, wild]
    moved[shown, wild] = 0.0
    return moved


def piece_palette(pieces) -> Palette:
    """The colours of cogs and pawns, by class (1 + the colour's index in ``pieces``).

    Each colour lit, shaded, highlighted and at its blurred edge on the paper.
    ``pieces`` are (name, BGR) pairs.
    """
    paper = np.array(PAPER_BGR, np.float32)
    colours, classes = [], []
    for index, (_name, bgr) in enumerate(pieces):
        colour = np.array(bgr, np.float32)
        for shade in (
            colour,
            0.7 * colour,
            np.minimum(255, 1.15 * colour),
            mix(colour, paper, 0.5),
        ):
            colours.append(relative_log(shade))
            classes.append(index + 1)
    return Palette(np.array(colours, np.float32), np.array(classes, int), len(pieces) + 1)


def vote(relative: np.ndarray, empty: np.ndarray, palette: Palette, weight: float):
    """Per place: each class's share of the sample points nearest to it, and the share of
    points near no colour at all.

    ``relative`` and ``empty`` are (places, points, 3): the points' colours and
    their own empty print. A point's candidates are its empty print (class 0)
    and the palette's colours. :data:`EDGE` points count for the
    leading class other than empty when it has at least :data:`EDGE_SUPPORT` of
    the points itself, and match nothing otherwise.
    """
    places, points = relative.shape[:2]
    flat = relative.reshape(-1, 3)
    to_empty = squared_distance_each(relative, empty, weight).reshape(-1)
    to_colours = _unclipped_distances(flat, palette.colours, weight)
    nearest = to_colours.argmin(axis=1)
    closest = to_colours[np.arange(len(nearest)), nearest]
    is_empty = to_empty <= closest
    matched = np.where(is_empty, to_empty, closest) < MATCH_DISTANCE**2
    labels = np.where(is_empty, 0, palette.classes[nearest])
    # one count per place of each label (EDGE as the last column) and of the unmatched
    columns = palette.class_count + 2
    bins = np.where(matched, np.where(labels == EDGE, palette.class_count, labels), columns - 1)
    rows = np.repeat(np.arange(places), points)
    counts = np.bincount(rows * columns + bins, minlength=places * columns).reshape(places, -1)
    tally = counts[:, : palette.class_count].astype(np.float32)
    edges = counts[:, palette.class_count]
    unmatched = counts[:, columns - 1].astype(np.float32)
    if palette.class_count > 1:
        rows = np.arange(places)
        lead = 1 + tally[:, 1:].argmax(axis=1)
        supported = tally[rows, lead] >= EDGE_SUPPORT * points
        tally[rows, lead] += np.where(supported, edges, 0)
        unmatched += np.where(supported, 0, edges)
    return tally / points, unmatched / points


INKED = 0.06
"""An empty-looking tile place with this share of its points in a letter's ink holds a tile
whose face the light washed out to the paper's colour (glare, clipping)."""


INK_STEP = 0.5
"""A point this much darker (mean relative log) than its empty print shows ink (or a dark
thing): a shadow darkens paper less, and no print within a tile's reach is that dark."""


def inked_share(relative: np.ndarray, empty: np.ndarray, look: TileLook, weight: float):
    """Per place, the share of sample points that show a letter's ink: nearer the tiles' ink
    than their own empty print, or far darker than it (a letter's strokes; the empty print
    has none within a tile's reach)."""
    ink = relative_log(np.array(look.ink, np.float32))
    to_ink = squared_distance_each(relative, ink, weight)
    to_empty = squared_distance_each(relative, empty, weight)
    inked = (to_ink < to_empty) & (to_ink < MATCH_DISTANCE**2)
    inked |= _mean3(relative) - _mean3(empty) < -INK_STEP
    return inked.mean(axis=1)


def ink_doubt(inked: np.ndarray) -> np.ndarray:
    """The most confidence an empty reading of a tile place keeps with ``inked`` of its points
    in ink: full with none, below the reader's 0.5 from one point in 30 (a washed-out letter's
    last strokes), none at :data:`INKED`."""
    return np.clip(1.0 - 1.3 * inked / INKED, 0.0, 1.0).astype(np.float32)


def washed_out(shares: np.ndarray, inked: np.ndarray) -> np.ndarray:
    """Which tile places read as mostly empty print show a letter's ink on :data:`INKED` of
    their points: a face-up tile in glare, whose face clips to the paper's white."""
    empty = TILE_CLASSES.index("")
    return (shares.argmax(axis=1) == empty) & (inked >= INKED)


def decide(shares: np.ndarray, unmatched: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The class with most votes per place, and a confidence from its lead and the unmatched."""
    order = np.argsort(-shares, axis=1)
    best = np.take_along_axis(shares, order[:, :1], axis=1)[:, 0]
    second = np.take_along_axis(shares, order[:, 1:2], axis=1)[:, 0]
    lead = np.clip((best - second - 0.15) / 0.3, 0, 1)
    clean = np.clip(1 - (unmatched - 0.15) / 0.25, 0, 1)
    return order[:, 0], (lead * clean).astype(np.float32)
