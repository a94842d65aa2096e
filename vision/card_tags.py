"""The tag family printed on cards: AprilTag 36h11, and the one id reserved for card backs.

A card the camera must identify carries a printed tag (a sticker or a sleeve
insert, :mod:`vision.card_sheet`). The family is OpenCV's
``DICT_APRILTAG_36h11``:

- 587 ids: the 186 Commissars cards (180 play cards, 6 leaders) and the 63
  Cookie cards each get their own id, in ranges that do not overlap, with
  room for an owner's extra decks (``DICT_4X4_50`` has 50; ``DICT_6X6_250``
  has 250, one short of both decks plus a card back);
- a minimum Hamming distance of 11 between any two ids in any rotation (12
  between an id and its own turns), so a read with up to 2 wrong bits is
  still far from every other id: :data:`ERROR_CORRECTION` lets the detector
  mend only that few, so a smudged tag is not read rather than read wrong;
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
"""ArUco's ``errorCorrectionRate``: mend at most 0.4 * (11 - 1) / 2 = 2 wrong bits."""


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
    return parameters
