"""The truth of a card scene (what the camera can know per zone) and the score of a reading.

Every scene of :mod:`benchmarks.card_conditions` comes with its truth
(:func:`truth_of`): per zone, the cards whose tag can be seen whole, the backs,
and the cards partly covered (part of the card shows, its tag does not), which
make their zone doubtful. :func:`score` adds one reading's counts against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from benchmarks.card_dev import card_outline, tag_centre, tag_outline
from vision.cards.renderer import CardScene, mat_homography, mat_to_table
from vision.part_sheet import sheet_matrix
from vision.parts.photo import draw_hand
from vision.parts.renderer import table_homography

PARTLY_SHOWN = 0.10
"""A card whose tag is hidden but which shows at least this share of itself is partly covered:
its zone must be doubtful."""
HIDDEN = 0.04
"""A card showing less than this share of itself (a neat pile's lower card) may go unseen."""

TRUTH_PX_PER_MM = 1.0


@dataclass
class ZoneTruth:
    """What a zone holds as the camera can know it."""

    seen_up: set[int] = field(default_factory=set)
    """Face-up cards whose tag shows whole (they may be read)."""
    clear_up: set[int] = field(default_factory=set)
    """Face-up cards wholly in view (no card or hand over them): they must be read."""
    present: set[int] = field(default_factory=set)
    """Every face-up card in the zone, shown or not (a read of another id is wrong)."""
    seen_backs: int = 0
    clear_backs: int = 0
    partly_covered: int = 0
    """Cards showing a part of themselves without their whole tag: the zone must be doubtful,
    unless the reader identified them all the same (:func:`score`)."""
    partly_up: set[int] = field(default_factory=set)
    """The face-up ones among them."""
    partly_backs: int = 0
    """The face-down ones among them."""
    under_hand: bool = False


def _mask(polygon: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    points = np.round(polygon * TRUTH_PX_PER_MM * 16).astype(np.int32)
    cv2.fillPoly(mask, [points], 1, cv2.LINE_8, 4)
    return mask.astype(bool)


def hand_mask(scene: CardScene, size: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
    """Mat pixels (TRUTH_PX_PER_MM) a hand lies over, drawn as the renderer draws it, grown."""
    if not scene.hands:
        return np.zeros(shape, bool)
    homography = mat_homography(scene, size)
    image = np.zeros((size[1], size[0], 3), np.uint8)
    table = table_homography(scene.table_size_mm, scene.camera, size)
    to_table = mat_to_table(scene)
    for hand in scene.hands:
        centre = to_table @ np.array([*hand.centre, 1.0])
        image = draw_hand(
            image, replace(hand, centre=(centre[0], centre[1])), table, np.random.default_rng(0)
        )
    seen = (image.max(axis=2) > 20).astype(np.uint8)
    to_mat = sheet_matrix(TRUTH_PX_PER_MM) @ np.linalg.inv(homography)
    mask = cv2.warpPerspective(seen, to_mat, (shape[1], shape[0]), flags=cv2.INTER_NEAREST)
    return cv2.dilate(mask, np.ones((9, 9), np.uint8)).astype(bool)


def truth_of(scene: CardScene, size: tuple[int, int]) -> dict[str, ZoneTruth]:
    """Zone name -> :class:`ZoneTruth` of a scene (cards later in the tuple lie on top)."""
    mat = scene.mat
    shape = (round(mat.height_mm * TRUTH_PX_PER_MM), round(mat.width_mm * TRUTH_PX_PER_MM))
    hand = hand_mask(scene, size, shape)
    truths = {zone.name: ZoneTruth() for zone in mat.zones}
    for zone in mat.zones:
        if hand[_mask(_box(zone), shape)].any():
            truths[zone.name].under_hand = True
    cards = scene.cards
    bodies = [_mask(card_outline(card), shape) for card in cards]
    for index, card in enumerate(cards):
        zone = mat.zone_at(*tag_centre(card))
        if zone is None:
            continue
        truth = truths[zone.name]
        above = np.zeros(shape, bool)
        for other in bodies[index + 1 :]:
            above |= other
        over = above | hand
        body = bodies[index]
        shown = (body & ~over).sum() / max(body.sum(), 1)
        tag = _mask(tag_outline(card, 28.0), shape)
        tag_whole = not (tag & over).any()
        clear = not (body & over).any()
        if card.tag_id is not None:
            truth.present.add(card.tag_id)
            if tag_whole:
                truth.seen_up.add(card.tag_id)
            if clear:
                truth.clear_up.add(card.tag_id)
        else:
            truth.seen_backs += tag_whole
            truth.clear_backs += clear
        if not tag_whole and shown >= PARTLY_SHOWN and not (body & hand).any():
            truth.partly_covered += 1
            if card.tag_id is None:
                truth.partly_backs += 1
            else:
                truth.partly_up.add(card.tag_id)
    return truths


def score(tally: dict[str, int], reading, truth: dict[str, ZoneTruth]) -> None:
    """Add one frame's counts to ``tally`` (a reading of :class:`vision.cards.reader.CardReader`
    against the :class:`ZoneTruth` of each zone).

    A zone with a partly covered card read clear is a fault unless the card was identified
    all the same (a tag read though a corner of it is hidden): its id is among the zone's, or
    the zone's backs count it. Backs are counted right when the read count lies between the
    backs whose tag shows whole and those plus the partly covered backs.
    """
    position = reading.position() or {}
    doubtful = set(reading.doubtful()) if reading.ok else set(truth)
    for name, zone in truth.items():
        up, down = position.get(name, ((), 0))
        tally["clear_up"] += len(zone.clear_up)
        tally["identified"] += len(zone.clear_up & set(up))
        tally["wrong"] += len(set(up) - zone.present)
        if zone.partly_covered:
            tally["covered_zones"] += 1
            unnamed = zone.partly_up - set(up) or down < zone.seen_backs + zone.partly_backs
            tally["covered_read_clear"] += name not in doubtful and bool(unnamed)
        if zone.under_hand:
            tally["hand_zones"] += 1
            tally["hand_read_clear"] += name not in doubtful
        elif zone.clear_backs and zone.clear_backs == zone.seen_backs:
            tally["backs"] += zone.clear_backs
            right = zone.seen_backs <= down <= zone.seen_backs + zone.partly_backs
            tally["backs_right"] += zone.clear_backs if right else 0
        if not zone.partly_covered and not zone.under_hand:
            tally["plain_zones"] += 1
            tally["plain_doubtful"] += name in doubtful


def score_line(tally: dict[str, int]) -> str:
    """One row of figures."""
    share = 100 * tally["identified"] / max(tally["clear_up"], 1)
    backs = f"{100 * tally['backs_right'] / tally['backs']:6.2f}%" if tally["backs"] else "  n/a "
    return (
        f"identified {share:6.2f}% ({tally['identified']}/{tally['clear_up']}) "
        f"wrong {tally['wrong']}  covered read clear {tally['covered_read_clear']}/"
        f"{tally['covered_zones']}  hand read clear {tally['hand_read_clear']}/"
        f"{tally['hand_zones']}  backs {backs} ({tally['backs_right']}/{tally['backs']})  "
        f"clear zones doubtful {tally['plain_doubtful']}/{tally['plain_zones']}"
    )


def _box(zone) -> np.ndarray:
    (x0, y0), (x1, y1) = zone.corners()
    return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
