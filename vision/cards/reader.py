"""Read a card mat from one camera frame: which tagged cards lie face up in which zone, how many
card backs lie face down, and which zones something else lies over.

One frame is read in four steps:

1. the mat's ArUco markers (:class:`vision.part_markers.MarkerFinder`, tracked
   from frame to frame; three of four are enough) give its homography;
2. the mat alone is warped to a top-down grey view at :data:`TAG_PX_PER_MM`,
   where a tag's 3.5 mm module is about four pixels whatever the camera;
   ``cv2.aruco`` finds the square candidates there and
   :class:`vision.cards.tags.TagDecoder` reads their ids and turns (glare and
   sleeves allowed for): one search finds face-up tags and card backs
   (:data:`~vision.cards.tags.BACK_ID`);
3. the mat is also warped small in colour and compared with its known print
   under a smooth light fitted to it, beyond the camera's own noise
   (:class:`vision.cards.cover.CoverModel`): every bit of not-mat must be explained by a card
   read, that is lie on the card (in its sleeve) that the tag's place and turn
   put there. Whatever is left is something else: a hand, or part of a card
   whose tag is hidden (under another card, a hand), however small a share of
   that card shows. Where something is left, tags are looked for once more
   with another binarisation (:data:`RETRY_CONSTANT`) before giving up;
4. each card goes to the zone holding its tag's centre; a zone something
   unexplained reaches is doubtful, and a large one means the mat is covered.

A pile or a fan is read by the tags that show: its top card (and, in a fan,
every card whose tag shows); the cards under them are the game's to know.

A doubtful zone is never guessed at: the settling filter
(:class:`vision.peg_disk.settle.SettlingFilter`, which reads :meth:`CardMatReading.position`
and :meth:`CardMatReading.uncertain_places`) waits until it is clear.

>>> from vision.cards.mat import standard_mat
>>> from vision.cards.renderer import CardScene, LaidCard, render_cards
>>> mat = standard_mat(4)
>>> frame = render_cards(CardScene(mat, (LaidCard(150, 85, 7, "Propaganda"),
...                                      LaidCard(340, 245, None))), (1280, 720))
>>> reading = CardReader(mat).read(frame)
>>> reading.zones["seat1"].face_up, reading.zones["centre"].face_down, reading.doubtful()
((7,), 1, ())
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cards.cover import EXPLAINED_MM, Blob, CoverModel
from vision.cards.mat import CardMatLayout
from vision.cards.sheet import SLEEVE_MM, TAG_MM, card_tag_offset
from vision.cards.tags import BACK_ID, MODULES, TagDecoder, candidate_finder, detector_parameters
from vision.frame import NO_BOARD, NO_CAMERA, OK, check_frame
from vision.markers import project
from vision.part_markers import MIN_MARKERS, MarkerFinder, fit_homography
from vision.part_sheet import sheet_matrix

TAG_PX_PER_MM = 1.2
"""Scale of the top-down view the tags are looked for in: a 3.5 mm module is 4.2 pixels."""
TAG_SIZE_TOLERANCE = 0.35
"""A tag whose side is off :data:`vision.cards.sheet.TAG_MM` by more than this share is refused."""
COVER_MM2 = 8000.0
"""An unexplained blob this large over the mat means the mat is covered: a hand (its palm alone is
about 7,800 mm2), not a card peeping from under another (a card is 5,544 mm2)."""
RETRY_CONSTANT = 3
"""The adaptive threshold's constant of the second search, where not-mat is left unexplained:
a glare stripe leaves a tag's border little contrast (the first search's is 10)."""
TAG_REACH_MM = 40.0
"""A changed box is searched this much wider, so a tag whose centre lies in it is seen whole."""
OUTSIDE = "outside"
"""The key of :meth:`CardMatReading.position` for cards lying outside every zone."""


@dataclass(frozen=True)
class ZoneReading:
    """One zone: the tag ids lying face up (sorted), how many backs, and whether it is in doubt."""

    face_up: tuple[int, ...] = ()
    face_down: int = 0
    doubtful: bool = False

    def label(self) -> tuple[tuple[int, ...], int]:
        """What settles: the face-up ids and the face-down count."""
        return self.face_up, self.face_down


@dataclass(frozen=True)
class SeenTag:
    """One tag found on the mat: its id, its centre (mat mm), its side (mm) and its card's turn.

    ``turn_deg`` is the turn of the tag's top edge (clockwise, mat x to the
    right, y down; 0 upright): the card's, since a tag is printed upright on it.
    """

    tag_id: int
    x: float
    y: float
    side_mm: float
    turn_deg: float = 0.0

    def card_outline(self, size_mm: tuple[float, float] = SLEEVE_MM) -> np.ndarray:
        """The corners (4, 2; mat mm) of the card this tag lies on, ``size_mm`` wide and high."""
        turn = math.radians(self.turn_deg)
        rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        offset = np.array(card_tag_offset(face_up=self.tag_id != BACK_ID))
        centre = np.array([self.x, self.y]) - rotation @ offset
        half_w, half_h = size_mm[0] / 2, size_mm[1] / 2
        corners = np.array(
            [(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)]
        )
        return corners @ rotation.T + centre


@dataclass(frozen=True)
class CardMatReading:
    """What one frame shows of a card mat.

    ``zones`` maps each zone's name to its :class:`ZoneReading` (empty when
    the mat was not read); ``covered`` is True when something large that is
    not a card lies over the mat; ``missing_markers`` names the mat markers
    not seen. The other attributes are what :class:`vision.peg_disk.settle.SettlingFilter`
    reads (a status, labels, confidences, motion features, the homography).
    """

    zones: dict[str, ZoneReading] = field(default_factory=dict)
    covered: bool = False
    missing_markers: tuple[int, ...] = ()
    status: str = OK
    message: str = ""
    outside: ZoneReading = field(default_factory=ZoneReading)
    tags: tuple[SeenTag, ...] = ()
    homography: np.ndarray | None = None
    features: np.ndarray | None = None
    corners_mm: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    shaded: bool = False
    rim: np.ndarray | None = None
    place_noun: str = "zone"

    @property
    def ok(self) -> bool:
        """The mat was found and read (some zones may still be doubtful)."""
        return self.status == OK

    @property
    def labels(self) -> tuple | None:
        """Every zone's label in zone order, then the cards outside every zone."""
        if not self.ok:
            return None
        return (*(zone.label() for zone in self.zones.values()), self.outside.label())

    @property
    def confidence(self) -> tuple[float, ...] | None:
        """1.0 per zone read, 0.0 per doubtful zone."""
        if not self.ok:
            return None
        return tuple(0.0 if zone.doubtful else 1.0 for zone in self.zones.values())

    @property
    def probe_points(self) -> np.ndarray:
        """Mat points (its corners, mm) the settling filter follows to see the camera move."""
        return self.corners_mm

    def doubtful(self) -> tuple[str, ...]:
        """The zones something unexplained lies over, in zone order."""
        return tuple(name for name, zone in self.zones.items() if zone.doubtful)

    def uncertain_places(self) -> list[str]:
        """The doubtful zones (the settling filter's name for them)."""
        return list(self.doubtful())

    def position(self) -> dict[str, tuple[tuple[int, ...], int]] | None:
        """Zone name -> (face-up tag ids, face-down count); None when the mat was not read.

        Cards outside every zone appear under :data:`OUTSIDE` when there are any.
        """
        if not self.ok:
            return None
        position = {name: zone.label() for name, zone in self.zones.items()}
        if self.outside.face_up or self.outside.face_down:
            position[OUTSIDE] = self.outside.label()
        return position


class CardReader:
    """Reads one card mat from frames (see the module docstring).

    With ``follow`` (the default) the reader remembers the top-down view in
    which it last looked for tags: while the camera has not moved, tags are
    looked for again only where the view changed since (a card laid, a hand),
    dilated by :data:`vision.cards.cover.CHANGE_REACH_MM`; a still mat costs the marker search
    and one small warp. ``follow=False`` looks at the whole mat every frame.
    """

    def __init__(self, mat: CardMatLayout, *, follow: bool = True) -> None:
        self.mat = mat
        self.part = mat.part()
        self.follow = follow
        self.finder = MarkerFinder(mat.marker_ids)
        self.cover = CoverModel(mat)
        self.corners_mm = np.array(
            [(0, 0), (mat.width_mm, 0), (mat.width_mm, mat.height_mm), (0, mat.height_mm)], float
        )
        self.whole_mm = (0.0, 0.0, mat.width_mm, mat.height_mm)
        self._detectors: dict[tuple[int, bool], cv2.aruco.ArucoDetector] = {}
        self.decoder = TagDecoder()
        self._memory: _Memory | None = None

    def read(self, frame: object) -> CardMatReading:
        """Read one frame; never raises for a bad frame, reports it (``ok`` is then False)."""
        image, problem = check_frame(frame)
        if image is None:
            self._memory = None
            return CardMatReading(status=NO_CAMERA, message=problem)
        found = self.finder.find(image)
        missing = tuple(i for i in self.mat.marker_ids if i not in found)
        if len(found) < MIN_MARKERS:
            self._memory = None
            message = f"{self.mat.name}: markers not found: {', '.join(map(str, missing))}"
            return CardMatReading(missing_markers=missing, status=NO_BOARD, message=message)
        homography = fit_homography(self.part, found)
        if homography is None or not self._inside(homography, image.shape):
            self._memory = None
            message = f"{self.mat.name}: its markers do not fit the mat, or it is partly outside"
            return CardMatReading(missing_markers=missing, status=NO_BOARD, message=message)
        memory = self._memory
        if self.follow and memory is not None and not self._moved(memory.homography, homography):
            homography = memory.homography  # the same view pixels as before: only change differs
        view = self.cover.view(image, homography)
        memory = self._tags(image, homography, view)
        return self._reading(view, homography, memory, missing)

    def _inside(self, homography: np.ndarray, shape) -> bool:
        outline = project(homography, self.corners_mm)
        height, width = shape[:2]
        return bool(outline.min() >= 0 and (outline < (width - 1, height - 1)).all())

    def _tags(self, image: np.ndarray, homography: np.ndarray, view: np.ndarray) -> _Memory:
        """The tags on the mat and the blobs they leave unexplained, as far as the view changed.

        Looked for everywhere on a first frame or after the mat moved in the
        picture; otherwise again only in boxes round where the view changed
        (none: the last frame's tags and blobs stand).
        """
        memory = self._memory
        if not self.follow or memory is None or self._moved(memory.homography, homography):
            tags = self.find_tags(image, homography)
            blobs = self._explained(image, homography, view, tags)
            memory = _Memory(homography, view.copy(), tags, blobs)
            self._memory = memory
            return memory
        boxes = self.cover.changed(view, memory.view)
        for box in boxes:
            found = self.find_tags(image, homography, _grown(box, TAG_REACH_MM, self.whole_mm))
            kept = [tag for tag in memory.tags if not _holds(box, tag)]
            memory.tags = kept + [tag for tag in found if _holds(box, tag)]
            self.cover.renew(memory.view, view, box)
        if boxes:
            memory.blobs = self._explained(image, homography, view, memory.tags)
        return memory

    def _explained(self, image, homography, view, tags: list[SeenTag]) -> list[Blob]:
        """The blobs ``tags`` leave unexplained, once tags were looked for again in them.

        ``tags`` gains what the second search (:data:`RETRY_CONSTANT`) finds.
        """
        blobs = self.cover.unexplained(view, _outlines(tags))
        found = []
        for blob in blobs:
            box = _grown(blob.box_mm, TAG_REACH_MM / 2, self.whole_mm)
            found += self.find_tags(image, homography, box, retry=True)
        new = [tag for tag in _one_per_place(tags + found)[len(tags) :] if tag in found]
        if not new:
            return blobs
        tags += new
        return self.cover.unexplained(view, _outlines(tags))

    def _moved(self, before: np.ndarray, after: np.ndarray) -> bool:
        """The mat moved in the picture by more than a pixel since the tags were looked for."""
        shift = project(after, self.corners_mm) - project(before, self.corners_mm)
        return bool(np.abs(shift).max() > 1.0)

    def find_tags(
        self,
        image: np.ndarray,
        homography: np.ndarray,
        box_mm: tuple[float, ...] | None = None,
        *,
        retry: bool = False,
    ) -> list[SeenTag]:
        """Card tags (face-up ids and :data:`BACK_ID`) in a box of the mat (mm; all of it).

        ``retry``: squares found with the second binarisation (:data:`RETRY_CONSTANT`).
        """
        x0, y0, x1, y1 = box_mm or self.whole_mm
        size = (max(8, round((x1 - x0) * TAG_PX_PER_MM)), max(8, round((y1 - y0) * TAG_PX_PER_MM)))
        origin = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
        grey = _warp_grey(image, homography @ np.linalg.inv(origin), size)
        accepted, _ids, rejected = self._detector(max(size), retry).detectMarkers(grey)
        tags = []
        for quad in (*accepted, *rejected):
            square = quad.reshape(4, 2)
            corners = square.astype(np.float64) / TAG_PX_PER_MM + (x0, y0)
            side = float(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())
            if abs(side - TAG_MM) > TAG_SIZE_TOLERANCE * TAG_MM:
                continue
            read = self.decoder.read(grey, square)
            if read is not None:
                x, y = corners.mean(axis=0)
                left, right = corners[read.top_left], corners[(read.top_left + 1) % 4]
                turn = math.degrees(math.atan2(right[1] - left[1], right[0] - left[0]))
                tags.append(SeenTag(read.tag_id, float(x), float(y), side, turn))
        return _one_per_place(tags)

    def _detector(self, longest: int, retry: bool = False) -> cv2.aruco.ArucoDetector:
        """A tag detector for views whose longer side is ``longest`` pixels (rounded up to 32)."""
        key = (-(-longest // 32) * 32, retry)
        if key not in self._detectors:
            parameters = detector_parameters(TAG_PX_PER_MM * TAG_MM / MODULES)
            if retry:
                parameters.adaptiveThreshConstant = RETRY_CONSTANT
            perimeter = 4 * TAG_MM * TAG_PX_PER_MM / key[0]
            parameters.minMarkerPerimeterRate = (1 - TAG_SIZE_TOLERANCE) * perimeter
            parameters.maxMarkerPerimeterRate = min(4.0, (1 + TAG_SIZE_TOLERANCE) * perimeter * 1.1)
            self._detectors[key] = candidate_finder(parameters)
        return self._detectors[key]

    def _reading(self, view, homography, memory: _Memory, missing) -> CardMatReading:
        """Cards to zones, blobs to doubt."""
        tags, blobs = memory.tags, memory.blobs
        doubtful = {zone for blob in blobs for zone in blob.zones}
        covered = any(blob.area_mm2 >= COVER_MM2 for blob in blobs)
        zones = {}
        for zone in self.mat.zones:
            inside = [tag for tag in tags if zone.contains(tag.x, tag.y)]
            zones[zone.name] = _zone_reading(inside, zone.name in doubtful)
        outside = [tag for tag in tags if self.mat.zone_at(tag.x, tag.y) is None]
        message = _message(self.mat.name, missing, sorted(doubtful), covered)
        return CardMatReading(
            zones,
            covered,
            missing,
            OK,
            message,
            _zone_reading(outside, False),
            tuple(tags),
            homography,
            self.cover.features(view),
            self.corners_mm,
        )


def _outlines(tags: list[SeenTag]) -> list[np.ndarray]:
    """What each tag's card explains on the mat (mm): the card and its margin."""
    return [tag.card_outline(EXPLAINED_MM) for tag in tags]


def _one_per_place(tags: list[SeenTag]) -> list[SeenTag]:
    """The tags, each place once: the finder may return one square twice (its two edges)."""
    kept: list[SeenTag] = []
    for tag in tags:
        if all(math.hypot(tag.x - other.x, tag.y - other.y) > TAG_MM / 2 for other in kept):
            kept.append(tag)
    return kept


@dataclass
class _Memory:
    """What the reader last looked at: the homography, the view it searched, the tags found
    there and the not-mat they leave unexplained."""

    homography: np.ndarray
    view: np.ndarray
    tags: list[SeenTag]
    blobs: list[Blob]


def _grown(box, reach: float, limit) -> tuple[float, float, float, float]:
    """A box (x0, y0, x1, y1 mm) grown by ``reach`` on every side, within ``limit``."""
    return (
        max(limit[0], box[0] - reach),
        max(limit[1], box[1] - reach),
        min(limit[2], box[2] + reach),
        min(limit[3], box[3] + reach),
    )


def _holds(box, tag: SeenTag) -> bool:
    return box[0] <= tag.x < box[2] and box[1] <= tag.y < box[3]


def _zone_reading(tags: list[SeenTag], doubtful: bool) -> ZoneReading:
    face_up = tuple(sorted(tag.tag_id for tag in tags if tag.tag_id != BACK_ID))
    face_down = sum(tag.tag_id == BACK_ID for tag in tags)
    return ZoneReading(face_up, face_down, doubtful)


def _message(name: str, missing, doubtful: list[str], covered: bool) -> str:
    parts = []
    if missing:
        parts.append(f"{name}: marker {missing[0]} not found (read with the others)")
    if covered:
        parts.append(f"{name}: something over the mat")
    if doubtful:
        parts.append(
            f"{name}: something over zone{'s' if len(doubtful) > 1 else ''} " + ", ".join(doubtful)
        )
    return "; ".join(parts)


def _warp_grey(image: np.ndarray, homography: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A box of the mat from above at :data:`TAG_PX_PER_MM` in grey (only its crop converted).

    ``homography`` maps the box's own mm (origin at its top-left) to the frame.
    """
    width, height = size
    box_mm = np.array([(0, 0), (width, 0), (width, height), (0, height)]) / TAG_PX_PER_MM
    outline = project(homography, box_mm)
    x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + 3
    crop = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    to_view = sheet_matrix(TAG_PX_PER_MM) @ np.linalg.inv(homography) @ np.linalg.inv(shift)
    return cv2.warpPerspective(crop, to_view, size, flags=cv2.INTER_LINEAR)
