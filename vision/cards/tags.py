"""The tag family printed on cards: AprilTag 36h11, and the one id reserved for card backs.

A card the camera must identify carries a printed tag (a sticker or a sleeve
insert, :mod:`vision.cards.sheet`). The family is OpenCV's
``DICT_APRILTAG_36h11``:

- 587 ids: the 186 Commissars cards (180 play cards, 6 leaders) and the 63
  Cookie cards each get their own id, in ranges that do not overlap, with
  room for an owner's extra decks (``DICT_4X4_50`` has 50; ``DICT_6X6_250``
  has 250, one short of both decks plus a card back);
- a minimum Hamming distance of 11 between any two ids in any rotation (12
  between an id and its own turns), so a read with up to 2 wrong bits is
  still far from every other id: the decoder mends only that few
  (:data:`MAX_BIT_ERRORS`), so a smudged tag is not read rather than read wrong;
- the same 8x8-module square (6x6 bits and a black border) as the markers
  the parts reader already finds, and detected by the same ``cv2.aruco``
  code.

The mat's own markers stay ``DICT_4X4_50`` (ids 40 to 43 by default, clear of
Kogworks' 0-3 and the C.O.G. parts' 10-13 and 20-35): another family, so a
card can never be taken for a mat marker.

Every card back carries one and the same tag, :data:`BACK_ID`: a face-down
card is "a card" (counted per zone), never a particular one.

>>> FAMILY_SIZE, BACK_ID
(587, 586)
>>> tag_image(5, 80).shape
(80, 80)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

FAMILY = cv2.aruco.DICT_APRILTAG_36h11
FAMILY_NAME = "AprilTag 36h11"
FAMILY_SIZE = 587
BACK_ID = FAMILY_SIZE - 1
"""The tag every card back shows: a card lying face down."""
MODULES = 8
"""A tag is 8x8 modules: 6x6 data bits inside a one-module black border."""
QUIET_MODULES = 1.0
"""The white margin a printed tag needs around it, in modules."""
ERROR_CORRECTION = 0.4
"""ArUco's ``errorCorrectionRate`` where OpenCV decodes: mend at most 0.4 * (11 - 1) / 2 = 2
wrong bits (:class:`TagDecoder` takes the same 2)."""


def family() -> cv2.aruco.Dictionary:
    """The card tag dictionary."""
    return cv2.aruco.getPredefinedDictionary(FAMILY)


def check_card_id(tag_id: int) -> int:
    """``tag_id`` if a card may carry it (0 .. BACK_ID - 1); ValueError saying why if not."""
    if isinstance(tag_id, bool) or not isinstance(tag_id, int):
        raise ValueError(f"tag id {tag_id!r} is not a whole number")
    if not 0 <= tag_id < BACK_ID:
        raise ValueError(
            f"tag id {tag_id} is outside 0..{BACK_ID - 1} "
            f"({FAMILY_NAME}; {BACK_ID} is the card back)"
        )
    return tag_id


def tag_image(tag_id: int, side_pixels: int) -> np.ndarray:
    """The black-and-white tag ``tag_id`` (its black border included), side x side, uint8."""
    if not 0 <= tag_id < FAMILY_SIZE:
        raise ValueError(f"tag id {tag_id} is outside 0..{FAMILY_SIZE - 1} ({FAMILY_NAME})")
    return cv2.aruco.generateImageMarker(family(), tag_id, side_pixels, borderBits=1)


CANDIDATE_DICTIONARY = cv2.aruco.DICT_APRILTAG_16h5
"""The 30-id dictionary the square finder is run with: a 36h11 tag never matches it, so every
tag comes back among the rejected candidates, which :class:`TagDecoder` reads. OpenCV's own
matching against 587 ids costs about 1 ms per candidate; the decoder's, microseconds."""
CELL_PIXELS = 5
"""Pixels per module in the square a candidate is straightened into."""
GRID = MODULES + 2
"""Modules sampled per side: the tag and the one-module white quiet ring round it."""
MAX_BIT_ERRORS = 2
"""Inner bits a read may get wrong and still name its id (of 36; ids lie 11 or more apart)."""
MAX_BORDER_ERRORS = 1
"""Modules of the black border a read may see white (2 once refined: see :class:`TagDecoder`)."""
MIN_CONTRAST = 15.0
"""Grey levels between a candidate's black and white below which it is no tag."""
REFINE_FROM = 6
"""A first read at most this many bits from an id is refined against that id's pattern."""
LEVEL_SIGMA = 1.3
"""Reach (modules) of the neighbours that set a module's black and white levels when refined."""


@dataclass(frozen=True)
class TagRead:
    """A decoded tag: its id, and which of the candidate's corners is the tag's top-left (0-3)."""

    tag_id: int
    top_left: int


class TagDecoder:
    """Reads AprilTag 36h11 ids from candidate squares of a grey image.

    Each candidate (four corners, clockwise) is straightened into a square of
    10 x 10 modules (the tag and its white quiet ring) and every module's
    centre averaged. A glare stripe, a shadow or a sleeve's sheen lifts part
    of a tag, so one threshold for the whole tag drops it; the modules are
    split into black and white in up to three ways before giving up:

    1. against the midpoint of two smooth fields, one fitted to the black
       border, one to the white ring (its darkest quarter left out: the
       card's name may touch it);
    2. against the midpoint of the darkest and lightest modules;
    3. refined: the id nearest to a read of 1 or 2 (at most :data:`REFINE_FROM`
       bits off) gives every module black and white neighbours, and each module is
       split at the midpoint of theirs (weighted by distance, itself left out),
       twice at most. A module lifted by a stripe is compared with modules lifted alike.

    A read counts only if the border is black (:data:`MAX_BORDER_ERRORS`
    modules wrong; one more once refined) and the 36 inner bits lie within
    :data:`MAX_BIT_ERRORS` of an id in one of its turns: every other id is at
    least 9 bits away, so a smudged tag is not read rather than read wrong.

    >>> decoder = TagDecoder()
    >>> image = cv2.copyMakeBorder(tag_image(42, 80), *(4 * [10]), cv2.BORDER_CONSTANT, value=255)
    >>> decoder.decode(image, np.array([[10, 10], [89, 10], [89, 89], [10, 89]], np.float32))
    42
    """

    def __init__(self) -> None:
        side = family().markerSize
        grids = np.array(
            [
                cv2.aruco.Dictionary.getBitsFromByteList(family().bytesList[i : i + 1], side)
                for i in range(FAMILY_SIZE)
            ]
        ).reshape(FAMILY_SIZE, side, side)
        turns = [np.rot90(grids, turn, axes=(1, 2)).reshape(FAMILY_SIZE, -1) for turn in range(4)]
        self.codes = np.concatenate([_pack(bits) for bits in turns])
        self.ids = np.tile(np.arange(FAMILY_SIZE), 4)
        self.turns = np.repeat(np.arange(4), FAMILY_SIZE)
        size, one = GRID * CELL_PIXELS, CELL_PIXELS
        self.square = np.array(
            [(one, one), (size - one, one), (size - one, size - one), (one, size - one)], np.float32
        )
        ring = np.full((GRID, GRID), 2)  # 2: quiet ring (white), 1: border (black), 0: bits
        ring[1:-1, 1:-1] = 1
        ring[2:-2, 2:-2] = 0
        self.black = (ring == 1).ravel()
        self.white = (ring == 2).ravel()
        self.border = (ring == 1)[1:-1, 1:-1]
        ys, xs = np.mgrid[0:GRID, 0:GRID].reshape(2, -1).astype(np.float64)
        u, v = (xs + 0.5) / GRID - 0.5, (ys + 0.5) / GRID - 0.5
        self.basis = np.stack([np.ones_like(u), u, v, u * v], axis=-1)
        self.border_fit = np.linalg.pinv(self.basis[self.black])
        distance2 = (ys[:, None] - ys[None]) ** 2 + (xs[:, None] - xs[None]) ** 2
        self.neighbours = np.exp(-distance2 / (2 * LEVEL_SIGMA**2))
        np.fill_diagonal(self.neighbours, 0.0)
        patterns = np.concatenate(turns).astype(bool).reshape(-1, side, side)
        whole = np.ones((len(patterns), GRID, GRID), bool)
        whole[:, 1:-1, 1:-1] = False
        whole[:, 2:-2, 2:-2] = patterns
        self.patterns = whole.reshape(len(patterns), -1)

    def decode(self, grey: np.ndarray, corners: np.ndarray) -> int | None:
        """The id of the tag whose corners (4, 2; clockwise) are given, or None if it is none."""
        read = self.read(grey, corners)
        return None if read is None else read.tag_id

    def read(self, grey: np.ndarray, corners: np.ndarray) -> TagRead | None:
        """The tag whose corners (4, 2; clockwise) are given, and its turn; None if none."""
        size = GRID * CELL_PIXELS
        matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), self.square)
        patch = cv2.warpPerspective(
            grey, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        cells = patch.reshape(GRID, CELL_PIXELS, GRID, CELL_PIXELS)[:, 1:-1, :, 1:-1]
        means = cells.mean(axis=(1, 3), dtype=np.float32).ravel().astype(np.float64)
        nearest: tuple[int, int] | None = None
        for threshold in (self._fitted(means), self._midpoint(means)):
            if threshold is None:
                continue
            index, bits, border = self._nearest(means > threshold)
            if border <= MAX_BORDER_ERRORS and bits <= MAX_BIT_ERRORS:
                return self._found(index)
            if bits <= REFINE_FROM and (nearest is None or bits < nearest[1]):
                nearest = (index, bits)
        return None if nearest is None else self._refined(means, nearest[0])

    def _fitted(self, means: np.ndarray) -> np.ndarray | None:
        """Per module: the midpoint of smooth black (border) and white (quiet ring) fields."""
        border, ring = means[self.black], means[self.white]
        if ring.mean() - border.mean() < MIN_CONTRAST:
            return None  # no dark square on white: most candidates end here
        lit = ring >= np.partition(ring, len(ring) // 4)[len(ring) // 4]
        rows = self.basis[self.white][lit]
        white = np.linalg.solve(rows.T @ rows + 1e-6 * np.eye(4), rows.T @ ring[lit])
        dark, light = self.basis @ (self.border_fit @ border), self.basis @ white
        if float((light - dark).min()) < MIN_CONTRAST:
            return None
        return (dark + light) / 2

    def _midpoint(self, means: np.ndarray) -> float | None:
        """One threshold: the midpoint of the tag's darkest and lightest modules."""
        inner = means.reshape(GRID, GRID)[1:-1, 1:-1]
        low, high = float(inner.min()), float(inner.max())
        return None if high - low < 2 * MIN_CONTRAST else (low + high) / 2

    def _refined(self, means: np.ndarray, index: int) -> TagRead | None:
        """Split each module at the midpoint of its neighbours' levels as id ``index`` has them."""
        for _round in range(2):
            light = self.patterns[index]
            weights_light = self.neighbours @ light
            weights_dark = self.neighbours @ ~light
            if weights_light.min() < 1e-3 or weights_dark.min() < 1e-3:
                return None
            white = (self.neighbours @ (means * light)) / weights_light
            black = (self.neighbours @ (means * ~light)) / weights_dark
            if float((white - black).mean()) < MIN_CONTRAST:
                return None
            index, bits, border = self._nearest(means > (white + black) / 2)
            if border > MAX_BORDER_ERRORS + 1:
                return None
            if bits <= MAX_BIT_ERRORS:
                return self._found(index)
        return None

    def _nearest(self, light: np.ndarray) -> tuple[int, int, int]:
        """The nearest id-and-turn to a 10x10 split, its inner bits off and white border modules."""
        tag = light.reshape(GRID, GRID)[1:-1, 1:-1]
        code = _pack(tag[1:-1, 1:-1].reshape(1, -1))[0]
        distances = np.bitwise_count(self.codes ^ code)
        index = int(distances.argmin())
        return index, int(distances[index]), int(tag[self.border].sum())

    def _found(self, index: int) -> TagRead:
        # the id's bits turned k times anticlockwise: its top-left lies at corner -k (clockwise)
        return TagRead(int(self.ids[index]), int(-self.turns[index]) % 4)


def _pack(bits: np.ndarray) -> np.ndarray:
    """Rows of 36 bits (N, 36) as uint64 codes."""
    weights = np.uint64(1) << np.arange(bits.shape[1], dtype=np.uint64)
    return (bits.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def candidate_finder(parameters: cv2.aruco.DetectorParameters) -> cv2.aruco.ArucoDetector:
    """A detector that finds square candidates fast (see :data:`CANDIDATE_DICTIONARY`)."""
    return cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(CANDIDATE_DICTIONARY), parameters
    )


def detector_parameters(module_pixels: float) -> cv2.aruco.DetectorParameters:
    """Detector settings for an image where a tag's module is about ``module_pixels`` wide.

    One adaptive-threshold window about two modules wide (tags are printed
    black on white: one window finds them), candidates no smaller than half
    a tag, corners not refined (the reader needs ids and centres, not
    sub-pixel corners) and little error correction (:data:`ERROR_CORRECTION`).
    """
    parameters = cv2.aruco.DetectorParameters()
    window = int(max(3, round(2.5 * module_pixels)) | 1)
    parameters.adaptiveThreshWinSizeMin = window
    parameters.adaptiveThreshWinSizeMax = window
    parameters.adaptiveThreshWinSizeStep = 10
    parameters.adaptiveThreshConstant = 10
    parameters.perspectiveRemovePixelPerCell = 4
    parameters.perspectiveRemoveIgnoredMarginPerCell = 0.2
    parameters.errorCorrectionRate = ERROR_CORRECTION
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    parameters.minMarkerDistanceRate = 0.02  # a back's tag lies 5 mm inside its white square
    return parameters
