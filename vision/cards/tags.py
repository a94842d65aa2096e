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


class TagDecoder:
    """Reads AprilTag 36h11 ids from candidate squares of a grey image.

    Each candidate (four corners, clockwise) is straightened into an 8x8-module
    square; every module's centre is averaged and split into black and white at
    the midpoint of the darkest and lightest modules. The one-module border
    must be black (at most one module wrong); the 36 inner bits are compared
    with every id in its four turns, and an id within :data:`MAX_BIT_ERRORS`
    bits is taken (the family's minimum distance of 11 leaves every other id
    at least 9 bits away).

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
        size = MODULES * CELL_PIXELS
        self.square = np.array([(0, 0), (size, 0), (size, size), (0, size)], np.float32)
        border = np.ones((MODULES, MODULES), bool)
        border[1:-1, 1:-1] = False
        self.border = border

    def decode(self, grey: np.ndarray, corners: np.ndarray) -> int | None:
        """The id of the tag whose corners (4, 2; clockwise) are given, or None if it is none."""
        size = MODULES * CELL_PIXELS
        matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), self.square)
        patch = cv2.warpPerspective(grey, matrix, (size, size), flags=cv2.INTER_LINEAR)
        cells = patch.reshape(MODULES, CELL_PIXELS, MODULES, CELL_PIXELS)[:, 1:-1, :, 1:-1]
        means = cells.mean(axis=(1, 3))
        low, high = float(means.min()), float(means.max())
        if high - low < MIN_CONTRAST:
            return None
        white = means > (low + high) / 2
        if white[self.border].sum() > 1:
            return None
        code = _pack(white[1:-1, 1:-1].reshape(1, -1))[0]
        distances = np.bitwise_count(self.codes ^ code)
        best = int(distances.argmin())
        return int(self.ids[best]) if distances[best] <= MAX_BIT_ERRORS else None


MAX_BIT_ERRORS = 2
"""Inner bits a read may get wrong and still name its id (of 36; ids lie 11 or more apart)."""
MIN_CONTRAST = 30.0
"""Grey levels between a candidate's darkest and lightest modules below which it is no tag."""


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
