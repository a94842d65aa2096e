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

from dataclasses import replace

import numpy as np

from vision.frame import BAD_FRAME, NO_BOARD, NO_CAMERA, OK, check_frame
from vision.markers import MIN_MARKERS, MarkerDetector, project
from vision.peg_disk.calibration import Calibration
from vision.peg_disk.centre import (
    BODY_RING,
    HUB_RING,
    MIN_CENTRE_PIXELS,
    CentreView,
    centre_contrast,
    centre_in_sight,
    centre_offsets,
    ring,
)
from vision.peg_disk.colour import (
    LUMINANCE_WEIGHT,
    MAX_OVER_EXPOSURE,
    SHADED_LUMINANCE_WEIGHT,
    PegColour,
    colour_distance,
    difference_distance,
    evidence,
    peg_colour,
    veiled,
)
from vision.peg_disk.geometry import PEGS, BoardGeometry
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
from vision.peg_disk.pixels import pixels_per_mm, remap
from vision.peg_disk.reading import CLASS_NAMES, LABEL_ORDER, PROBE_POINTS, Reading
from vision.peg_disk.rim import RimModel, rim_message
from vision.sharpness import BLUR_LIMIT, edge_width

NEAR_PITCHES = 2.5
"""Pegs within this many pitches of each other are near: under about the same light."""
STEADY_PIXELS = 0.5
"""A homography whose probe points moved less than this (pixels) is the same camera pose."""
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
EDGE_RING = 0.36
"""Radius (peg pitches) of a ring of points towards the edge of every peg's place (inside a
cog's teeth), watched only for change from frame to frame (a finger over the edge of a cog
that the other points miss)."""
SHADE_PER_COG = 0.12
"""How much darker (log) an empty peg may look for each cog next to it (their shade), when
calibration could not measure it (:attr:`vision.peg_disk.calibration.Calibration.shade`)."""


def sample_offsets(pitch: float) -> np.ndarray:
    """Sample points around a peg centre (mm): two rings inside a cog, clear of neighbours."""
    rings = []
    for radius, phase in ((0.18, 0.0), (0.3, np.pi / 8)):
        rings.append(ring(radius * pitch, 8, phase))
    return np.concatenate(rings)


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
        self.rim = RimModel(self.geometry, self._pegs, self.calibration.rim)
        self._edge_points = (self._pegs[:, None, :] + ring(EDGE_RING * pitch, 12)[None]).reshape(
            -1, 2
        )
        self._points = np.concatenate([self._peg_points, self.rim.points, self._edge_points])
        self._search = search_offsets(pitch)
        self._last_parallax: tuple[np.ndarray, Parallax] | None = None
        self._hub_rings = np.concatenate([ring(HUB_RING * pitch, 8), ring(BODY_RING * pitch, 8)])
        self._calibrated_empty = np.array(self.calibration.empty)
        self._calibrated_colours = np.array(
            [self.calibration.colours[label] for label in LABEL_ORDER]
        )
        self._set_prototypes(self._calibrated_empty, self._calibrated_colours)
        self._adjacent = (apart > 0) & (apart <= 1.1 * pitch)
        self._shade = max(self.calibration.shade, SHADE_PER_COG)
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
        values = remap(image, project(homography, self._points))
        if values is None:
            return Reading(
                NO_BOARD, "the board is partly outside the picture", markers=markers or {}
            )
        per_peg = len(PEGS) * (self._samples_per_peg + self._centre_points)
        rim_end = per_peg + len(self.rim.points)
        pegs = plane = values[:per_peg].reshape(len(PEGS), -1, 3)
        board = self.rim.board(values[per_peg:rim_end])
        colour = peg_colour(pegs[:, : self._samples_per_peg], board)
        cogs = self._likely_cogs(colour)
        parallax = self._steady_parallax(image, homography, cogs, board.rim.outliers >= 2)
        if parallax is not None and cogs.any():
            lifted = homography @ parallax.matrix()
            top = remap(image, project(lifted, self._peg_points))
            if top is not None:
                pegs = np.where(cogs[:, None, None], top.reshape(pegs.shape), pegs)
                colour = peg_colour(pegs[:, : self._samples_per_peg], board)
        weight = SHADED_LUMINANCE_WEIGHT if board.shaded else LUMINANCE_WEIGHT
        white = board.clipped.all(axis=1)
        centre = centre_contrast(pegs[:, self._samples_per_peg :], white)
        resolved = HUB_RING * self.geometry.peg_pitch * pixels_per_mm(homography)
        labels, confidence, (likelihood, unseen) = self._classify(
            colour, centre, weight, board.at_pegs, resolved >= MIN_CENTRE_PIXELS
        )
        return Reading(
            OK,
            rim_message(board.rim, board.shaded),
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
            samples=self._watched(plane, values[rim_end:]),
        )

    def _watched(self, plane: np.ndarray, edges: np.ndarray) -> np.ndarray:
        """The points the settling filter watches for change, per peg (55, 28, 3): its colour
        rings on the board plane and its edge ring (not its centre: a pin or hub is small, and
        a point on its edge changes with the least jitter of the markers)."""
        colour = plane[:, : self._samples_per_peg]
        return np.concatenate([colour, edges.reshape(len(PEGS), -1, 3)], axis=1)

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
        values = remap(image, project(homography, points.reshape(-1, 2)))
        if values is None:
            return None
        logs = np.log(values.reshape(len(chosen), len(self._search), -1, 3) + 5.0)
        found, strength = hub_offsets(hub_scores(logs), self._search)
        clear = strength >= MIN_HUB_CONTRAST
        return fit_parallax(self._pegs[chosen][clear], found[clear], self.geometry.peg_pitch)

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
        distances = difference_distance(difference, luminance_weight).min(axis=0)
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
        found = evidence(distances, seen_by_class, uniform, colour.unknown, resolved)
        return labels, tuple(np.round(confidence, 3).tolist()), found


def _within(values: np.ndarray, centre: np.ndarray, limit: float) -> np.ndarray:
    """``values`` clipped to ``centre`` plus or minus ``limit``."""
    return np.clip(values, centre - limit, centre + limit)
