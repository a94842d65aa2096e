"""One printed part as the parts reader sees it, and the reading of its places in a frame.

:class:`PartModel` is what is known of a part before any frame: its places grouped by
kind with their sample points, its bare print, each place's empty look. :class:`Draft`
reads one frame of it: the local paper colour from the bare print, then tiles, cogs,
pawns and dice (see :mod:`vision.parts.reader`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frame import NO_BOARD, OK
from vision.layout import EMPTY, LETTERS, STAR, PartLayout, Place, pawn_label
from vision.markers import project
from vision.part_markers import MIN_MARKERS, fit_homography
from vision.part_sheet import PAPER_BGR, draw_part, quiet_zone, sheet_matrix
from vision.parts.colours import (
    LOG_PAPER,
    TILE_CLASSES,
    Palette,
    decide,
    face_over_back,
    ink_doubt,
    inked_share,
    maybe_tokens,
    piece_palette,
    relative_log,
    relative_to,
    tile_palette,
    token_like_face,
    vote,
    washed_out,
)
from vision.parts.dice import DieLook, DieReader
from vision.parts.letter_crops import cut_crop
from vision.parts.look import PartsLook
from vision.parts.part_reading import MIN_CONFIDENCE, PartReading
from vision.peg_disk.colour import LUMINANCE_WEIGHT, SHADED_LUMINANCE_WEIGHT
from vision.peg_disk.rim import RIM_TOLERANCE
from vision.surface import fit_lighting, only_shade, rings

CROP_SIDE, CELL_SIDE = 48, 32
"""The letter classifier's crops: 48 px square, the place's cell spanning the central 32 px."""
TILE_RADIUS = 0.28
"""Tile places are sampled within this share of their side around the centre: a tile turned
20 degrees and off-centre still covers it, and its neighbours never reach it."""
SHEET_PX_PER_MM = 4.0
"""The printed face is drawn at this scale to find its bare print and each place's empty look."""
PRINT_BLUR_MM = 0.5
"""The printed face is blurred this much (a camera's blur) before its empty look is sampled."""
BARE_MARGIN_MM = 4.0
"""Bare print is taken this far from any place (a tile or a die may overhang its place)."""
EDGE_MARGIN_MM = 3.0
"""Bare print is taken this far from the part's edge (the table shows beyond it)."""
BARE_STEP_MM = 5.0
"""Spacing of the bare-print sample points."""
MAX_BARE_POINTS = 240
MIN_BARE_POINTS = 12
UNKNOWN_SHARE = 0.5
"""A place whose sample points mostly match nothing is unknown (something lies on it)."""
COVERING = 2
"""This many unknown places, or bare points that are not paper, mean the part is covered."""
PAWN_SHARE = (0.03, 0.07)
"""Share of a track space's sample points in a pawn's colour: (surely none, surely a pawn)."""
VOTE_WEIGHT = 4.0
"""A tile place's colour vote counts as this many independent looks: a class's log likelihood
is this times the log of its share of the place's sample points (points of one place are
seen through one blur and one light, so they are far from independent)."""
SHARE_FLOOR = 0.02
"""A class no sample point voted for still has this share (a vote can miss a small token)."""


@dataclass(frozen=True)
class LetterReading:
    """One face-up tile's reading: the letter ("" for none), its confidence, and the
    classifier's log probabilities of "A".."Z" and no letter (None if it gives none)."""

    letter: str
    confidence: float
    log_probabilities: np.ndarray | None


@dataclass(frozen=True)
class PlaceGroup:
    """The places of one kind (tile, cog, pawn) and their sample points.

    ``indices`` index the part's read places; the group's points are
    ``points`` consecutive entries of the part's point list from ``start``,
    ``count`` per place. ``empty`` is each point's colour in the bare print
    (places, count, 3); ``basis`` the light-surface basis at each place's centre.
    """

    indices: np.ndarray
    start: int
    count: int
    empty: np.ndarray
    basis: np.ndarray

    @property
    def stop(self) -> int:
        return self.start + self.count * len(self.indices)


class PartModel:
    """Everything fixed about reading one part: its sample points, bare print and colours."""

    def __init__(self, layout: PartLayout, look: PartsLook) -> None:
        self.layout = layout
        self.look = look
        self.places = layout.read_places()
        self.names = tuple(place.name for place in self.places)
        sheet = draw_part(layout, SHEET_PX_PER_MM)
        self._print = cv2.GaussianBlur(sheet, (0, 0), PRINT_BLUR_MM * SHEET_PX_PER_MM)
        bare = self._bare_points(sheet)
        self.bare_basis = self._basis(bare)
        points = [bare]
        self.tiles = self._group("tile", _tile_offsets, points)
        self.cogs = self._group("cog", _cog_offsets, points)
        self.pawns = self._group("pawn", _pawn_offsets, points)
        self.points_mm = np.concatenate(points).astype(np.float64)
        self.dice = [
            (index, place, DieReader(place, _die_look(look, layout, place)))
            for index, place in enumerate(self.places)
            if place.kind == "die"
        ]
        self.die_basis = self._basis(np.array([(p.x, p.y) for _i, p, _r in self.dice]))
        width, height = layout.width, layout.height
        self.corners_mm = np.array([(0, 0), (width, 0), (width, height), (0, height)], float)
        self.probe = np.array([(0.2, 0.2), (0.8, 0.2), (0.5, 0.8)]) * (width, height)
        self.tile_palette = tile_palette(look.tiles)
        self.token_like_face = token_like_face(look.tiles)
        self.piece_palette = piece_palette(look.pieces)
        self.from_crops = {
            index: np.linalg.inv(_crop_matrix(place))
            for index, place in enumerate(self.places)
            if place.kind == "tile"
        }

    def _basis(self, points_mm: np.ndarray) -> np.ndarray:
        """Smooth-light basis 1, u, v, uv, u^2, v^2 at points (mm), u, v in -1..1 over the part."""
        points_mm = points_mm.reshape(-1, 2)
        u = points_mm[:, 0] / (self.layout.width / 2) - 1
        v = points_mm[:, 1] / (self.layout.height / 2) - 1
        return np.column_stack([np.ones_like(u), u, v, u * v, u * u, v * v]).astype(np.float32)

    def _bare_points(self, sheet: np.ndarray) -> np.ndarray:
        """Points (mm) of bare paper well clear of places, markers, ink and the part's edge."""
        scale = SHEET_PX_PER_MM
        paper = (cv2.inRange(sheet, PAPER_BGR, PAPER_BGR) > 0).astype(np.uint8)
        reach = round(1.5 * scale)
        kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
        paper = cv2.erode(paper, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0)
        edge = round(EDGE_MARGIN_MM * scale)
        paper[:edge], paper[-edge:], paper[:, :edge], paper[:, -edge:] = 0, 0, 0, 0
        for place in self.layout.places:
            (x0, y0), (x1, y1) = place.corners()
            margin = BARE_MARGIN_MM if place.kind != "free" else 2.0
            _clear(paper, (x0 - margin, y0 - margin, x1 + margin, y1 + margin))
        for marker in self.layout.markers:
            x0, y0, x1, y1 = quiet_zone(marker, self.layout)
            _clear(paper, (x0 - 1, y0 - 1, x1 + 1, y1 + 1))
        step = round(BARE_STEP_MM * scale)
        ys, xs = np.nonzero(paper[::step, ::step])
        if len(ys) > MAX_BARE_POINTS:
            keep = np.linspace(0, len(ys) - 1, MAX_BARE_POINTS).round().astype(int)
            ys, xs = ys[keep], xs[keep]
        if len(ys) < MIN_BARE_POINTS:
            raise ValueError(
                f"{self.layout.name}: too little bare print between the places and markers "
                f"({len(ys)} points): leave margins of paper for the light reference"
            )
        return np.column_stack([(xs * step + 0.5) / scale, (ys * step + 0.5) / scale])

    def _group(self, kind: str, offsets, points: list[np.ndarray]) -> PlaceGroup:
        """The places of ``kind``, their sample points appended to ``points``."""
        indices = [i for i, place in enumerate(self.places) if place.kind == kind]
        start = sum(len(p) for p in points)
        per_place = [
            np.array([(self.places[i].x, self.places[i].y)]) + offsets(self.places[i])
            for i in indices
        ]
        count = len(per_place[0]) if per_place else 0
        mm = np.concatenate(per_place) if per_place else np.zeros((0, 2))
        points.append(mm)
        empty = self._sample_print(mm).reshape(len(indices), count, 3)
        centres = np.array([(self.places[i].x, self.places[i].y) for i in indices])
        return PlaceGroup(np.array(indices, int), start, count, empty, self._basis(centres))

    def _sample_print(self, mm: np.ndarray) -> np.ndarray:
        """The bare print's relative colour at points (mm), bilinear."""
        if not len(mm):
            return np.zeros((0, 3), np.float32)
        pixels = project(sheet_matrix(SHEET_PX_PER_MM), mm).astype(np.float32)
        values = cv2.remap(
            self._print.astype(np.float32),
            np.ascontiguousarray(pixels[:, 0]).reshape(1, -1),
            np.ascontiguousarray(pixels[:, 1]).reshape(1, -1),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return relative_log(values.reshape(-1, 3))

    def failed(self, status: str, message: str, markers) -> PartReading:
        """A reading of this part that has no labels (not seen, a bad frame)."""
        return PartReading(
            status,
            message,
            markers=dict(markers),
            part=self.layout.name,
            places=self.names,
            probe=self.probe,
        )

    def read(self, image: np.ndarray, found: Mapping[int, np.ndarray]) -> Draft:
        """Read this part from a frame, given every marker found in it (letters come later)."""
        layout = self.layout
        markers = {m.id: found[m.id] for m in layout.markers if m.id in found}
        missing = [m.id for m in layout.markers if m.id not in found]
        if len(markers) < MIN_MARKERS:
            return Draft.unread(self, self.failed(NO_BOARD, _missing(layout, missing), markers))
        homography = fit_homography(layout, markers)
        if homography is None:
            message = f"{layout.name}: its markers do not fit the part's layout"
            return Draft.unread(self, self.failed(NO_BOARD, message, markers))
        pixels = cv2.perspectiveTransform(self.points_mm[:, None, :], homography)[:, 0]
        pixels = pixels.astype(np.float32)
        outline = project(homography, self.corners_mm)
        height, width = image.shape[:2]
        if outline.min() < 0 or outline[:, 0].max() > width - 1 or outline[:, 1].max() > height - 1:
            message = f"{layout.name} is partly outside the picture"
            return Draft.unread(self, self.failed(NO_BOARD, message, markers))
        values = cv2.remap(
            image,
            np.ascontiguousarray(pixels[:, 0]).reshape(1, -1),
            np.ascontiguousarray(pixels[:, 1]).reshape(1, -1),
            cv2.INTER_LINEAR,
        ).reshape(-1, 3)
        note = ""
        if missing:
            note = f"{layout.name}: marker {missing[0]} not found (read with {len(markers)})"
        draft = Draft(self, markers, homography, note)
        draft.read_colours(image, values)
        return draft


def _die_look(look: PartsLook, layout: PartLayout, place: Place) -> DieLook:
    """The look of the die that goes on ``place`` (black when the place names no colour)."""
    try:
        return look.die_look(place.colour or "black")
    except ValueError as error:
        raise ValueError(f"{layout.name} place {place.name}: {error}") from None


def _missing(layout: PartLayout, missing: Sequence[int]) -> str:
    """The message of a part with too few markers seen."""
    names = ", ".join(map(str, missing))
    return (
        f"{layout.name}: markers not found: {names} "
        f"(needs {MIN_MARKERS} of {', '.join(map(str, layout.marker_ids()))})"
    )


def _clear(mask: np.ndarray, box: tuple[float, float, float, float]) -> None:
    """Zero a box (mm) of a mask drawn at :data:`SHEET_PX_PER_MM`."""
    x0, y0, x1, y1 = (max(0, round(v * SHEET_PX_PER_MM)) for v in box)
    mask[y0:y1, x0:x1] = 0


def _tile_offsets(place: Place) -> np.ndarray:
    side = min(place.width, place.height)
    radii = (0, 0.1 * side, 0.19 * side, TILE_RADIUS * side)
    return rings(radii, (1, 6, 12, 18), stagger_even=True)


def _cog_offsets(place: Place) -> np.ndarray:
    side = min(place.width, place.height)
    return rings((0.2 * side, 0.3 * side), (8, 12), stagger_even=True)


def _pawn_offsets(place: Place) -> np.ndarray:
    steps = np.linspace(-0.42, 0.42, 13)
    grid = np.array([(x, y) for y in steps for x in steps])
    return grid * np.array([place.width, place.height])


def _crop_matrix(place: Place) -> np.ndarray:
    """3x3 map from part mm to the classifier's crop of a place (its side spans 32 of 48 px)."""
    scale = CELL_SIDE / min(place.width, place.height)
    middle = (CROP_SIDE - 1) / 2
    return np.array(
        [[scale, 0, middle - scale * place.x], [0, scale, middle - scale * place.y], [0, 0, 1.0]]
    )


class Draft:
    """One part's reading while the frame is read: colours first, the letters after the batch."""

    def __init__(self, model: PartModel, markers, homography=None, note: str = "") -> None:
        self.model = model
        self.markers = markers
        self.homography = homography
        self.note = note
        self.unread_reading: PartReading | None = None
        self._letters: list[int] = []
        self.face_up_looks: list[np.ndarray] = []
        self.letter_rows: dict[int, np.ndarray | None] = {}

    @classmethod
    def unread(cls, model: PartModel, reading: PartReading) -> Draft:
        """A draft of a part that could not be read (its reading says why)."""
        draft = cls(model, reading.markers)
        draft.unread_reading = reading
        return draft

    def read_colours(self, image: np.ndarray, values: np.ndarray) -> None:
        """Read every place but the face-up tiles' letters from the sample points' ``values``."""
        count = len(self.model.places)
        self.labels = [EMPTY] * count
        self.confidence = np.zeros(count, np.float32)
        self.features = np.zeros((count, 3), np.float32)
        self.unknown = np.zeros(count, bool)
        self._light(values)
        self._read_tiles(values)
        self._read_pieces(values, self.model.cogs, pawns=False)
        self._read_pieces(values, self.model.pawns, pawns=True)
        self._read_dice(image)

    def _light(self, values: np.ndarray) -> None:
        """Fit the smooth paper surface to the bare print; note what over it is not paper."""
        basis = self.model.bare_basis
        logs = np.log(values[: len(basis)].astype(np.float32) + 1.0) - LOG_PAPER
        keep = np.ones(len(logs), bool)
        for _ in range(3):
            coefficients = fit_lighting(basis[keep], logs[keep])
            residual = logs - basis @ coefficients
            keep = np.abs(residual).max(axis=1) < RIM_TOLERANCE
            if keep.sum() < MIN_BARE_POINTS:
                break
        self.coefficients = coefficients
        self.rim = logs
        self.outliers = int((~keep).sum())
        self.shaded = self.outliers >= COVERING and only_shade(residual[~keep])
        self.weight = SHADED_LUMINANCE_WEIGHT if self.shaded else LUMINANCE_WEIGHT

    def _relative(self, values: np.ndarray, group: PlaceGroup) -> np.ndarray:
        """The group's sample colours relative to the local paper (places, points, 3)."""
        paper = group.basis @ self.coefficients + LOG_PAPER
        samples = values[group.start : group.stop].reshape(len(group.indices), group.count, 3)
        return relative_to(samples, paper[:, None, :])

    def _store(self, group: PlaceGroup, labels, confidence, relative, unmatched) -> None:
        """Labels, confidences, features and unknown flags of a group's places."""
        for row, index in enumerate(group.indices):
            self.labels[index] = labels[row]
        self.confidence[group.indices] = confidence
        self.features[group.indices] = relative.mean(axis=1)
        self.unknown[group.indices] = unmatched >= UNKNOWN_SHARE

    def _read_tiles(self, values: np.ndarray) -> None:
        group = self.model.tiles
        if not len(group.indices):
            return
        relative = self._relative(values, group)
        shares, unmatched = vote(relative, group.empty, self.model.tile_palette, self.weight)
        shares = face_over_back(shares)
        maybe_token = np.zeros(len(shares), bool)
        if self.model.token_like_face:  # the letter model tells such a token from a tile
            maybe_token, deciding = maybe_tokens(shares)
            kind, confidence = decide(deciding, unmatched)
        else:
            kind, confidence = decide(shares, unmatched)
        self.maybe_token = {int(group.indices[row]) for row in np.flatnonzero(maybe_token)}
        inked = inked_share(relative, group.empty, self.model.look.tiles, self.weight)
        self.tile_inked = inked
        washed = washed_out(shares, inked)
        confidence = np.where(kind == 0, np.minimum(confidence, ink_doubt(inked)), confidence)
        if washed.any():  # a face in glare: its letter decides, its empty votes go to the face
            kind[washed], confidence[washed] = TILE_CLASSES.index("face"), 1.0
            shares[washed, 1] += shares[washed, 0]
            shares[washed, 0] = 0.0
        labels = [TILE_CLASSES[k] for k in kind]
        self._store(group, labels, confidence, relative, unmatched)
        self.tile_shares, self.tile_unmatched, self.tile_relative = shares, unmatched, relative
        rows = [row for row, label in enumerate(labels) if label == "face"]
        self._letters = [int(group.indices[row]) for row in rows]
        self.face_up_looks = [relative[row] for row in rows]

    def _read_pieces(self, values: np.ndarray, group: PlaceGroup, pawns: bool) -> None:
        """Cog spaces (one cog colour or bare) or pawn spaces (every pawn colour present)."""
        if not len(group.indices):
            return
        relative = self._relative(values, group)
        palette: Palette = self.model.piece_palette
        shares, unmatched = vote(relative, group.empty, palette, self.weight)
        names = self.model.look.piece_names()
        if not pawns:
            kind, confidence = decide(shares, unmatched)
            labels = [(EMPTY, *names)[k] for k in kind]
        else:
            labels, confidence = _pawn_labels(shares[:, 1:], unmatched, names)
        self._store(group, labels, confidence, relative, unmatched)

    def _read_dice(self, image: np.ndarray) -> None:
        model = self.model
        papers = model.die_basis @ self.coefficients + LOG_PAPER if model.dice else ()
        for (index, _place, reader), paper in zip(model.dice, papers, strict=True):
            result = reader.read(image, self.homography, paper, self.weight)
            self.labels[index] = result.label
            self.confidence[index] = result.confidence
            self.features[index] = result.feature
            self.unknown[index] = result.unknown

    @property
    def face_up(self) -> list[int]:
        """This part's places showing a face-up tile, in :meth:`letter_crops` order."""
        return self._letters

    def letter_crops(self, image: np.ndarray, indices: Sequence[int]) -> np.ndarray:
        """The classifier's crops (N, 48, 48, 3) of these face-up tile places."""
        if not indices:
            return np.zeros((0, CROP_SIDE, CROP_SIDE, 3), np.uint8)
        homography, from_crops = self.homography, self.model.from_crops
        return np.stack([cut_crop(image, homography @ from_crops[index]) for index in indices])

    def set_letters(self, readings: Sequence[LetterReading], floor: float) -> None:
        """Label the face-up tiles with their readings.

        The classifier's confidence maps onto the place's so that its own
        threshold ``floor`` lands on :data:`MIN_CONFIDENCE`. A face-up tile
        whose letter the classifier does not name stays ``"face"``, uncertain.
        """
        for index, reading in zip(self._letters, readings, strict=True):
            letter = reading.letter
            mapped = _letter_confidence(reading.confidence, floor)
            self.labels[index] = letter or "face"
            self.confidence[index] = min(self.confidence[index], mapped if letter else 0.0)
            self.letter_rows[index] = reading.log_probabilities
            if not letter and index in self.maybe_token and reading.log_probabilities is not None:
                none = float(np.exp(reading.log_probabilities[len(LETTERS)]))
                self.labels[index] = STAR  # a token whose ground looks like a face: no letter
                self.confidence[index] = _letter_confidence(none, floor)

    def tile_evidence(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(tile places, classes) log likelihoods and (tile places,) "none of them", or None
        when the part has no tile place or a face-up tile has no letter probabilities.

        The colour vote's shares give empty, face, face down and star (each class
        :data:`VOTE_WEIGHT` times the log of its share); a face-up tile's letters add
        the letter model's log probabilities to "face", and its no-letter probability
        goes to empty, face down and star, split as the vote shared them (the vote took a
        back or a token for a face: a token like a face shows its star).
        """
        group = self.model.tiles
        if not len(group.indices) or any(row is None for row in self.letter_rows.values()):
            return None
        shares = np.maximum(self.tile_shares, SHARE_FLOOR)
        colour = VOTE_WEIGHT * np.log(shares / shares.sum(axis=1, keepdims=True))
        unseen = VOTE_WEIGHT * np.log(np.maximum(self.tile_unmatched, SHARE_FLOOR))
        empty, face, wild, star = (colour[:, k] for k in range(len(TILE_CLASSES)))
        empty = empty + VOTE_WEIGHT * np.log(np.maximum(ink_doubt(self.tile_inked), SHARE_FLOOR))
        letters = np.repeat(face[:, None], len(LETTERS), axis=1) - np.log(len(LETTERS))
        others = np.column_stack((empty, wild, star))
        if self.letter_rows:
            rows = np.searchsorted(group.indices, list(self.letter_rows))
            probabilities = np.stack(list(self.letter_rows.values()))  # type: ignore[arg-type]
            letters[rows] = face[rows, None] + probabilities[:, : len(LETTERS)]
            none = face[rows] + probabilities[:, len(LETTERS)]
            split = shares[rows][:, [0, 2, 3]]
            tokens = np.isin(group.indices[rows], list(self.maybe_token))
            split[tokens] = (SHARE_FLOOR, SHARE_FLOOR, 1.0)  # a face-like token without a letter
            split = np.log(split / split.sum(axis=1, keepdims=True))
            others[rows] = np.logaddexp(others[rows], none[:, None] + split)
        table = np.column_stack((others[:, 0], letters, others[:, 1], others[:, 2]))
        return table.astype(np.float32), unseen.astype(np.float32)

    def finish(self) -> PartReading:
        """The part's reading, once the letters are in."""
        if self.unread_reading is not None:
            return self.unread_reading
        model = self.model
        unknown = [model.names[i] for i in np.flatnonzero(self.unknown)]
        covered = self.outliers >= COVERING or len(unknown) >= COVERING
        shaded = self.shaded and len(unknown) < COVERING
        cover = self._cover_message(unknown, shaded)
        evidence = self.tile_evidence()
        return PartReading(
            OK,
            "; ".join(text for text in (self.note, cover) if text),
            tuple(self.labels),
            tuple(np.round(self.confidence.astype(float), 3).tolist()),
            covered,
            self.markers,
            self.homography,
            self.features,
            shaded,
            self.rim,
            model.layout.name,
            model.names,
            model.probe,
            tuple(model.names[i] for i in model.tiles.indices),
            None if evidence is None else evidence[0],
            None if evidence is None else evidence[1],
        )

    def _cover_message(self, unknown: list[str], shaded: bool) -> str:
        name = self.model.layout.name
        if len(unknown) >= COVERING:
            shown = ", ".join(unknown[:4]) + (" ..." if len(unknown) > 4 else "")
            return f"{name}: something over places {shown}"
        if self.outliers < COVERING:
            return ""
        if shaded:
            return f"{name}: a shadow over the part ({self.outliers} bare points darker or lighter)"
        return f"{name}: something over the part ({self.outliers} bare points)"


def _pawn_labels(shares: np.ndarray, unmatched: np.ndarray, names: Sequence[str]):
    """Per pawn space: the pawn colours covering enough of it, and a confidence.

    A colour covering between the two :data:`PAWN_SHARE` thresholds is in
    doubt; many points matching nothing (a hand) make the space doubtful too.
    """
    low, high = PAWN_SHARE
    labels = [
        pawn_label([n for n, share in zip(names, row, strict=True) if share >= high])
        for row in shares
    ]
    doubt = np.clip((shares - low) / (high - low), 0, 1)
    sureness = np.maximum(doubt, 1 - doubt).min(axis=1)
    clean = np.clip(1 - (unmatched - 0.1) / 0.25, 0, 1)
    return labels, (sureness * clean).astype(np.float32)


def _letter_confidence(value: float, floor: float) -> float:
    """The classifier's confidence rescaled so that its threshold ``floor`` becomes 0.5."""
    if value < floor:
        return MIN_CONFIDENCE * value / max(floor, 1e-6)
    return MIN_CONFIDENCE + (1 - MIN_CONFIDENCE) * (value - floor) / max(1 - floor, 1e-6)
