"""Features of a letter tile crop: the letter found, turned upright, described by its gradients.

A crop (48 px, the cell in the central 32 px) holds one face-up tile that may
be shifted, rotated and scaled, among neighbouring tiles, grid lines and mat
print. Every step is vectorised over a batch of crops:

1. grey, divided by the tile face's brightness (the light and cast go away);
2. the letter's ink: pixels darker than halfway between the face and the
   darkest ink, in connected pieces that do not touch the crop's border (the
   mat, gaps and neighbours' letters do) -> its centre; where that finds
   almost no ink (a shadow across the tile), again relative to the nearby light;
3. the tile's rotation from the edges of its face around that centre (and
   weakly the letter's own strokes), folded to +-45 degrees;
4. the tile face's centre: in the tile's frame, the rise into the face and
   the fall out of it a tile's side apart, along each axis; the rotation is
   taken again around it;
5. two 32 px patches, one around the ink's centre and one around the face's,
   turned upright and zoomed 1.2x (the classifier reads both views and keeps
   the one that looks more like a letter);
6. a histogram of oriented gradients (HOG) of each patch: 4 px cells, 12
   signed orientations, 2x2-cell blocks normalised (L2-Hys), a disc window.

>>> crops = np.full((2, 48, 48, 3), 200, np.uint8)
>>> letter_views(crops).shape
(2, 2, 2352)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

CROP = 48
PATCH = 32
"""The upright patch (px) the gradients are taken from."""
ZOOM = 1.2
"""The patch shows the crop this much larger (the letter fills more cells)."""
CELL = 4
BINS = 12
BLOCK_CLIP = 0.2
FEATURE_SIZE = (PATCH // CELL - 1) ** 2 * 4 * BINS
_GREY = np.float32([0.114, 0.587, 0.299])
_MAX_OFFSET = 8.0
_Y, _X = np.mgrid[0:CROP, 0:CROP].astype(np.float32) - (CROP - 1) / 2
_CLOSE_HALF = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
_Y_HALF, _X_HALF = np.mgrid[0 : CROP // 2, 0 : CROP // 2].astype(np.float32) - (CROP // 2 - 1) / 2
_CENTRE_WEIGHT = np.exp(-(_X**2 + _Y**2) / (2 * 12.0**2)).ravel()
_CENTRE_MOMENTS = np.stack(
    (_CENTRE_WEIGHT, _CENTRE_WEIGHT * _X.ravel(), _CENTRE_WEIGHT * _Y.ravel()), axis=1
).astype(np.float32)
"""Ink sums weighted by a wide Gaussian about the crop centre: mass, x and y moments."""


def letter_views(crops: np.ndarray) -> np.ndarray:
    """HOG features (N, 2, FEATURE_SIZE) float32 of crops (N, 48, 48, 3) BGR uint8.

    Two views of each crop (:func:`upright_patches`): ``[:, INK_VIEW]`` centred
    on the letter's ink, ``[:, TILE_VIEW]`` centred on the tile's face.
    """
    return seen_views(crops).features


@dataclass(frozen=True)
class SeenViews:
    """Both views of a batch of crops: their features and the turn each was taken at."""

    features: np.ndarray
    """(N, VIEWS, FEATURE_SIZE) float32 HOG features (:func:`letter_views`)."""
    turns: np.ndarray
    """(N, VIEWS) float32 radians each view's patch was turned by to stand the tile upright
    (+-pi/4: a turn far beyond how far a tile lies off the grid means the view is not upright)."""


def seen_views(crops: np.ndarray) -> SeenViews:
    """Both views' HOG features and turns of crops (N, 48, 48, 3) BGR uint8."""
    features, turns = [], []
    for start in range(0, len(crops), _CHUNK):
        patches, chunk_turns = _upright_and_turns(crops[start : start + _CHUNK])
        features.append(hog(patches.reshape(-1, PATCH, PATCH)))
        turns.append(chunk_turns)
    if not features:
        return SeenViews(np.zeros((0, VIEWS, FEATURE_SIZE), np.float32), np.zeros((0, VIEWS)))
    count = len(crops)
    stacked = np.concatenate(features).reshape(count, VIEWS, FEATURE_SIZE)
    return SeenViews(stacked, np.concatenate(turns).astype(np.float32))


INK_VIEW, TILE_VIEW = 0, 1
VIEWS = 2
_CHUNK = 256
"""Crops per batch: OpenCV images stay below 32767 rows (remap) and in cache."""


def upright_patches(crops: np.ndarray) -> np.ndarray:
    """Each crop's letter centred and turned upright two ways: (N, 2, 32, 32) float32, face ~1.

    ``[:, INK_VIEW]`` is centred on the letter's ink (:func:`ink_centres`) and
    turned by the tile's edges around it; ``[:, TILE_VIEW]`` is centred on the
    tile's face (:func:`tile_centres`) and turned by the edges around that. The
    ink's centre is precise where the ink is found whole; the face's where the
    letter is thin, broken or joined to a shadow but the tile's edges show.
    """
    return _upright_and_turns(crops)[0]


def _upright_and_turns(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`upright_patches` and the turn (N, 2) radians each was taken at."""
    grey = normalised_grey(crops)
    gradients = HalfGradients.of(grey)
    cx, cy = ink_centres(grey)
    angle = tile_rotation(grey, cx, cy, gradients=gradients)
    tile_x, tile_y = tile_centres(grey, angle, cx, cy)
    tile_angle = tile_rotation(grey, tile_x, tile_y, gradients=gradients)
    by_ink = _turned_patches(grey, cx, cy, angle)
    by_tile = _turned_patches(grey, tile_x, tile_y, tile_angle)
    return np.stack((by_ink, by_tile), axis=1), np.stack((angle, tile_angle), axis=1)


def normalised_grey(crops: np.ndarray) -> np.ndarray:
    """Grey crops divided by the tile face's brightness (90th percentile of the centre's pixels)."""
    count = len(crops)
    grey = cv2.cvtColor(crops.reshape(count * CROP, CROP, 3), cv2.COLOR_BGR2GRAY)
    grey = grey.reshape(count, CROP, CROP)
    centre = grey[:, 12:36:2, 12:36:2].reshape(count, -1)
    rank = int(0.9 * centre.shape[1])
    face = np.partition(centre, rank, axis=1)[:, rank].astype(np.float32)
    return grey.astype(np.float32) * (1.0 / np.maximum(face, 8.0))[:, None, None]


def ink_centres(
    grey: np.ndarray, soft: float = 0.15, start: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The centre (x, y) of each crop's letter ink, in px from the crop's centre.

    Where one threshold finds almost no ink (a lamp shadow across the tile put
    the letter's face below it, and the letter joined the mat), the ink is
    looked for again relative to the light around it (:func:`locally_normalised`).
    With ``start`` (centres found otherwise, e.g. the tile's) the search begins
    there instead of at the crop's centre.
    """
    cx, cy, mass = _ink_centres(grey, soft, start)
    lost = np.flatnonzero(mass < LOST_INK)
    if len(lost):
        begin = None if start is None else (start[0][lost], start[1][lost])
        cx[lost], cy[lost], _ = _ink_centres(locally_normalised(grey[lost]), soft, begin)
    return cx, cy


LOST_INK = 12.0
"""Centre-weighted ink (px) below which a crop's letter was not found by the global threshold."""


def locally_normalised(grey: np.ndarray) -> np.ndarray:
    """Grey crops divided by their nearby light (an 11 px max filter, smoothed): strokes
    thinner than the filter stay dark, a shadowed face does not."""
    count = len(grey)
    stacked = np.ascontiguousarray(grey).reshape(count * CROP, CROP)
    light = cv2.blur(cv2.dilate(stacked, _LIGHT_WINDOW), (7, 7))
    return (stacked / np.maximum(light, 0.05)).reshape(count, CROP, CROP)


_LIGHT_WINDOW = cv2.getStructuringElement(cv2.MORPH_RECT, (11, 11))


def _ink_centres(
    grey: np.ndarray, soft: float, start: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink centres (x, y) and the centre-weighted ink mass found by one threshold."""
    count = len(grey)
    smooth = cv2.blur(grey.reshape(count * CROP, CROP), (3, 3)).reshape(count, CROP, CROP)
    darkest = smooth[:, 8:40, 8:40].reshape(count, -1).min(axis=1)
    threshold = np.clip(0.5 * (1.0 + darkest), 0.4, 0.7)[:, None, None]
    ink = _inner_pieces(grey < threshold) * np.clip((threshold + soft - grey) * (1 / soft), 0, 1)
    moments = ink.reshape(count, -1) @ _CENTRE_MOMENTS
    total = moments[:, 0] + 1e-3
    cx, cy = moments[:, 1] / total, moments[:, 2] / total
    if start is not None:
        cx, cy = start
    for sigma in _REFINING_SIGMAS:
        cx, cy = _refined_centre(ink, cx, cy, sigma)
    cx = np.clip(cx, -_MAX_OFFSET, _MAX_OFFSET)
    cy = np.clip(cy, -_MAX_OFFSET, _MAX_OFFSET)
    return cx.astype(np.float32), cy.astype(np.float32), moments[:, 0]


_REFINING_SIGMAS = (8.0, 6.0)
"""The ink centre is taken again under narrower Gaussians about the last estimate: a
neighbour's letter or a mat mark the wide first window caught loses its pull."""
_AXIS = np.arange(CROP, dtype=np.float32) - (CROP - 1) / 2


def _refined_centre(
    ink: np.ndarray, cx: np.ndarray, cy: np.ndarray, sigma: float
) -> tuple[np.ndarray, np.ndarray]:
    """The ink's centre under a Gaussian of ``sigma`` px about (cx, cy) (separable weights)."""
    scale = np.float32(-0.5 / sigma**2)
    across = np.exp(scale * (_AXIS[None] - cx[:, None].astype(np.float32)) ** 2)
    down = np.exp(scale * (_AXIS[None] - cy[:, None].astype(np.float32)) ** 2)
    rows = np.einsum("nyx,nx->ny", ink, across)
    columns = np.einsum("nyx,ny->nx", ink, down)
    mass = np.einsum("ny,ny->n", rows, down) + 1e-3
    new_x = np.einsum("nx,nx->n", columns * across, _AXIS[None].repeat(len(ink), 0)) / mass
    new_y = np.einsum("ny,ny->n", rows * down, _AXIS[None].repeat(len(ink), 0)) / mass
    return new_x, new_y


def _inner_pieces(dark: np.ndarray) -> np.ndarray:
    """``dark`` (N, 48, 48) bool without the connected pieces that touch a crop's border.

    All crops are labelled in one call: stacked with an empty row between them.
    """
    count = len(dark)
    stacked = np.zeros((count, CROP + 1, CROP), np.uint8)
    stacked[:, :CROP] = dark
    pieces, labels = cv2.connectedComponents(
        stacked.reshape(count * (CROP + 1), CROP), connectivity=8, ltype=cv2.CV_32S
    )
    labels = labels.reshape(count, CROP + 1, CROP)[:, :CROP]
    inner = np.ones(pieces, bool)
    inner[0] = False
    for border in (labels[:, 0, :], labels[:, -1, :], labels[:, :, 0], labels[:, :, -1]):
        inner[border.ravel()] = False
    return inner[labels]


@dataclass(frozen=True)
class HalfGradients:
    """Gradients of a batch of crops at half resolution, as :func:`tile_rotation` uses them.

    They do not depend on where the tile's centre is, so the batch's rotation is
    found around the ink's centre and again around the face's from one set.
    """

    edge_x: np.ndarray
    """(N, 24, 24) x gradient after a closing that removes thin dark grid lines."""
    edge_y: np.ndarray
    edge_cos: np.ndarray
    """cos(4 * gradient angle) of the closed crops (a square's edges all agree)."""
    edge_sin: np.ndarray
    stroke_magnitude: np.ndarray
    """(N, 24, 24) gradient magnitude of the crops as they are (the letter's strokes)."""
    stroke_cos: np.ndarray
    stroke_sin: np.ndarray

    @staticmethod
    def of(grey: np.ndarray) -> HalfGradients:
        """The half-resolution gradients of grey crops (N, 48, 48); one Sobel per kind."""
        count = len(grey)
        half = CROP // 2
        stacked = cv2.resize(
            grey.reshape(count * CROP, CROP), (half, count * half), interpolation=cv2.INTER_AREA
        )
        closed = cv2.morphologyEx(stacked, cv2.MORPH_CLOSE, _CLOSE_HALF)
        edge_x, edge_y = _sobel(closed, count, half)
        stroke_x, stroke_y = _sobel(stacked, count, half)
        edge_cos, edge_sin = _fourfold_turns(edge_x, edge_y)
        stroke_cos, stroke_sin = _fourfold_turns(stroke_x, stroke_y)
        magnitude = np.sqrt(stroke_x * stroke_x + stroke_y * stroke_y)
        return HalfGradients(edge_x, edge_y, edge_cos, edge_sin, magnitude, stroke_cos, stroke_sin)


def tile_rotation(
    grey: np.ndarray,
    cx: np.ndarray,
    cy: np.ndarray,
    stroke_weight: float = 0.3,
    gradients: HalfGradients | None = None,
) -> np.ndarray:
    """Each tile's rotation (radians, +-pi/4): its square's edge directions, folded 4 ways.

    At half resolution: edges are taken where the face is brighter inside than
    outside, 9..17 px from the letter's centre, after a closing that removes
    thin dark grid lines; the letter's strokes (mostly upright or level) add a
    little. ``gradients`` (:class:`HalfGradients` of ``grey``) saves working
    them out again for another centre.
    """
    if gradients is None:
        gradients = HalfGradients.of(grey)
    dx = _X_HALF - (cx * 0.5)[:, None, None]
    dy = _Y_HALF - (cy * 0.5)[:, None, None]
    radius = np.sqrt(dx * dx + dy * dy) + 1e-3
    gx, gy = gradients.edge_x, gradients.edge_y
    inward = np.maximum(0.0, -(gx * dx + gy * dy) / radius)
    ring = np.clip(radius - 3.5, 0, 1) * np.clip(9.5 - radius, 0, 1)
    edges = _fourfold(gradients.edge_cos, gradients.edge_sin, ring * inward)
    inner = np.clip(5.25 - radius, 0, 1)
    strokes = _fourfold(
        gradients.stroke_cos, gradients.stroke_sin, inner * gradients.stroke_magnitude
    )
    return np.angle(edges + stroke_weight * strokes) / 4


def _sobel(stacked: np.ndarray, count: int, side: int) -> tuple[np.ndarray, np.ndarray]:
    gx = cv2.Sobel(stacked, cv2.CV_32F, 1, 0, ksize=3).reshape(count, side, side)
    gy = cv2.Sobel(stacked, cv2.CV_32F, 0, 1, ksize=3).reshape(count, side, side)
    return gx, gy


def _fourfold_turns(gx: np.ndarray, gy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of 4 times each pixel's gradient angle."""
    angle = cv2.phase(gx.reshape(-1, gx.shape[-1]), gy.reshape(-1, gx.shape[-1])).reshape(gx.shape)
    return np.cos(4 * angle), np.sin(4 * angle)


def _fourfold(cos: np.ndarray, sin: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Sum of weight * exp(4i * gradient angle) per crop: a square's edges all agree."""
    count = len(cos)
    flat_weight = weight.reshape(count, -1)
    real = np.einsum("ij,ij->i", flat_weight, cos.reshape(count, -1))
    imaginary = np.einsum("ij,ij->i", flat_weight, sin.reshape(count, -1))
    return real + 1j * imaginary


def _gradients(images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Central differences along x and y (zero at the border)."""
    gx = np.zeros_like(images)
    gy = np.zeros_like(images)
    gx[:, :, 1:-1] = images[:, :, 2:] - images[:, :, :-2]
    gy[:, 1:-1, :] = images[:, 2:, :] - images[:, :-2, :]
    return gx, gy


def _turned_patches(
    grey: np.ndarray, cx: np.ndarray, cy: np.ndarray, angle: np.ndarray
) -> np.ndarray:
    """32 px patches around (cx, cy), turned by -angle and zoomed :data:`ZOOM` times."""
    return _turned(grey, cx, cy, angle, side=PATCH, zoom=ZOOM)


def _turned(
    grey: np.ndarray,
    cx: np.ndarray,
    cy: np.ndarray,
    angle: np.ndarray,
    *,
    side: int,
    zoom: float,
) -> np.ndarray:
    """``side`` px patches around (cx, cy), turned by -angle and zoomed (edge pixels repeated).

    One ``cv2.remap`` over the crops stacked in a column; each patch's source
    coordinates are clamped into its own crop.
    """
    count = len(grey)
    cos = (np.cos(angle) / zoom).astype(np.float32)[:, None, None]
    sin = (np.sin(angle) / zoom).astype(np.float32)[:, None, None]
    v, u = (_GRID_V, _GRID_U) if side == CROP else (_PATCH_V, _PATCH_U)
    u, v = u[None], v[None]
    map_x = (CROP - 1) / 2 + cx[:, None, None] + cos * u - sin * v
    map_y = (CROP - 1) / 2 + cy[:, None, None] + sin * u + cos * v
    np.clip(map_x, 0, CROP - 1, out=map_x)
    np.clip(map_y, 0, CROP - 1, out=map_y)
    map_y += (np.arange(count, dtype=np.float32) * CROP)[:, None, None]
    stacked = grey.reshape(count * CROP, CROP)
    patches = cv2.remap(
        stacked,
        map_x.reshape(count * side, side),
        map_y.reshape(count * side, side),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return patches.reshape(count, side, side)


_PATCH_V, _PATCH_U = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32) - (PATCH - 1) / 2
_GRID_V, _GRID_U = _Y, _X


def _disc_window() -> np.ndarray:
    """1 inside radius 15 px of the patch centre, fading to 0 at 18 px."""
    ys, xs = np.mgrid[0:PATCH, 0:PATCH].astype(np.float32) - (PATCH - 1) / 2
    radius = np.sqrt(xs * xs + ys * ys)
    return np.clip((18.0 - radius) / 3.0, 0, 1).astype(np.float32)


_WINDOW = _disc_window()


def hog(patches: np.ndarray) -> np.ndarray:
    """Histogram of oriented gradients of patches (N, 32, 32): (N, FEATURE_SIZE) float32.

    Each pixel votes its gradient magnitude into the two nearest of 12 signed
    orientation bins of its 4 px cell (one ``np.bincount`` over the batch).
    """
    count = len(patches)
    gx, gy = _gradients(patches)
    magnitude, angle = cv2.cartToPolar(gx.reshape(-1, PATCH), gy.reshape(-1, PATCH))
    magnitude = magnitude.reshape(count, PATCH * PATCH) * _WINDOW.reshape(1, -1)
    position = angle.reshape(count, PATCH * PATCH) * np.float32(BINS / (2 * math.pi))
    low = position.astype(np.int32)
    upper = magnitude * (position - low)
    low[low == BINS] = 0
    high = low + 1
    high[high == BINS] = 0
    offsets = (np.arange(count, dtype=np.int32) * (_CELLS * BINS))[:, None] + _CELL_OFFSET
    votes_at = np.concatenate(((offsets + low).ravel(), (offsets + high).ravel()))
    votes = np.concatenate(((magnitude - upper).ravel(), upper.ravel()))
    cells = np.bincount(votes_at, votes, count * _CELLS * BINS).astype(np.float32)
    side = PATCH // CELL
    cells = cells.reshape(count, side, side, BINS)
    blocks = np.concatenate(
        (cells[:, :-1, :-1], cells[:, 1:, :-1], cells[:, :-1, 1:], cells[:, 1:, 1:]), axis=3
    )
    blocks /= _norms(blocks) + 0.1
    np.minimum(blocks, BLOCK_CLIP, out=blocks)
    blocks /= _norms(blocks) + 1e-3
    return blocks.reshape(count, -1)


def _norms(blocks: np.ndarray) -> np.ndarray:
    return np.sqrt(np.einsum("nijk,nijk->nij", blocks, blocks))[..., None]


_CELLS = (PATCH // CELL) ** 2
_CELL_OFFSET = (
    (np.arange(PATCH) // CELL)[:, None] * (PATCH // CELL) + (np.arange(PATCH) // CELL)[None, :]
).astype(np.int32).reshape(1, -1) * BINS


def tile_centres(
    grey: np.ndarray, angle: np.ndarray, cx: np.ndarray, cy: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The centre (x, y) of each crop's tile face, in px from the crop's centre.

    The crop is turned by ``-angle`` (the tile's edges become upright and
    level); along each axis the face's edges are a rise into the face and a
    fall out of it, a tile's side apart. Gradients across the axis are summed
    into a profile along it (only rows or columns within :data:`_EDGE_REACH`
    of the letter's centre ``(cx, cy)`` vote, not a neighbour's edges), and
    the rise and fall that pair best name the centre. The letter is centred on
    its tile, so this centres it even where its ink is thin, broken or joined
    to a shadow.
    """
    count = len(grey)
    zero = np.zeros(count, np.float32)
    upright = _turned(grey, zero, zero, angle, side=CROP, zoom=1.0)
    gx, gy = _sobel(upright.reshape(count * CROP, CROP), count, CROP)
    for gradient in (gx, gy):
        gradient[:, [0, -1]] = 0
        gradient[:, :, [0, -1]] = 0
    cos, sin = np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)
    prior_u = cx * cos + cy * sin
    prior_v = cy * cos - cx * sin
    across_x = np.abs(gx) > np.abs(gy)
    profile_u = np.einsum("nyx,ny->nx", np.where(across_x, gx, 0), _band(prior_v))
    profile_v = np.einsum("nyx,nx->ny", np.where(across_x, 0, gy), _band(prior_u))
    centre_u = _edge_pair_centre(profile_u, prior_u)
    centre_v = _edge_pair_centre(profile_v, prior_v)
    x = centre_u * cos - centre_v * sin
    y = centre_u * sin + centre_v * cos
    return x.astype(np.float32), y.astype(np.float32)


_EDGE_REACH = 10.0
"""Along an edge, only pixels this close (px) to the letter's centre vote (not a neighbour's)."""
_SIDES = np.arange(24, 31)
"""Tile sides (px) tried: the reference tile spans 0.86 of the 32 px cell (27.5 px), +-10%."""
_MAX_CENTRE = 9.0
_PRIOR_SIGMA = 3.0
"""Width (px) of the preference for a face centre near the letter's ink centre (a bright mat
or a neighbour's edge can pair better than the face's own weak edges)."""


def _band(prior: np.ndarray) -> np.ndarray:
    """(N, 48) weights of the rows (or columns) within :data:`_EDGE_REACH` of ``prior``."""
    return (np.abs(_AXIS[None] - prior[:, None]) < _EDGE_REACH).astype(np.float32)


def _edge_pair_centre(profile: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """The centre (px) between the strongest rise and fall of a gradient profile a tile's
    side apart, nearer the letter's centre ``prior`` preferred."""
    profile = cv2.GaussianBlur(profile, (3, 1), 0.8)
    rises, falls = np.maximum(profile, 0), np.maximum(-profile, 0)
    scores = np.zeros((len(profile), len(_SIDES), CROP), np.float32)
    for index, side in enumerate(_SIDES):
        scores[:, index, : CROP - side] = rises[:, : CROP - side] * falls[:, side:]
    centres = np.arange(CROP)[None, :] + _SIDES[:, None] / 2 - (CROP - 1) / 2
    scores[:, np.abs(centres) > _MAX_CENTRE] = 0
    offsets = centres[None] - prior[:, None, None]
    scores *= np.exp(offsets * offsets * np.float32(-0.5 / _PRIOR_SIGMA**2))
    best = scores.reshape(len(profile), -1).argmax(axis=1)
    return centres.ravel()[best].astype(np.float32)
