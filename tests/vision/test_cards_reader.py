"""The card mat: rendered, read back, covered by hands, with a marker hidden, settled.

Frames come from :mod:`vision.cards.renderer` on seeds 70_000+ (never used to
tune the reader) at 1280x720, where a tag's module is about three pixels of
the camera (a harder case than the 1080p table).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.cards.mat import CardMatLayout, CardZone, standard_mat
from vision.cards.reader import CardReader
from vision.cards.renderer import (
    CardScene,
    LaidCard,
    MatPose,
    mat_homography,
    random_card_scene,
    render_cards,
)
from vision.cards.tags import BACK_ID, TagDecoder, TagRead, tag_image
from vision.layout import Marker
from vision.markers import project
from vision.peg_disk.reader import NO_BOARD, NO_CAMERA
from vision.peg_disk.renderer import TABLE_BGR, Hand
from vision.peg_disk.settle import BoardState, SettlingFilter

SIZE = (1280, 720)
MAT = standard_mat(4)
CARDS = (
    LaidCard(130, 85, 12, "Propaganda", 8),
    LaidCard(185, 90, None, "", -12),
    LaidCard(320, 85, 186 + 14, "Cookie", 95),
    LaidCard(530, 405, None, "", 40),
    LaidCard(300, 240, 41, "Revolution", 170),
    LaidCard(380, 250, 585, "Last", -20),
    LaidCard(470, 235, None, "", 5),
)
"""Seat 1: a card up and one down; seat 2: one up (turned); seat 3 empty; seat 4 one down; the
centre: two up and one down."""
EXPECTED = {
    "seat1": ((12,), 1),
    "seat2": ((200,), 0),
    "seat3": ((), 0),
    "seat4": ((), 1),
    "centre": ((41, 585), 1),
}


def scene(seed: int, cards=CARDS, hands=()) -> CardScene:
    """The test cards under the random camera and light of ``seed``."""
    return replace(random_card_scene(np.random.default_rng(seed), MAT, cards), hands=hands)


@pytest.mark.parametrize("seed", [70_001, 70_002, 70_003])
def test_a_rendered_mat_reads_back_every_card_face_up_and_face_down(seed: int) -> None:
    reading = CardReader(MAT).read(render_cards(scene(seed), SIZE, seed))
    assert reading.ok and not reading.covered and reading.doubtful() == ()
    assert reading.position() == EXPECTED
    assert reading.missing_markers == ()


def test_a_hand_over_a_card_makes_its_zone_doubtful_and_misreads_nothing() -> None:
    seat2 = MAT.zone("seat2")
    hand = Hand((seat2.x, seat2.y), 270.0, 1.0)  # over seat 2's card, the arm off the top edge
    reading = CardReader(MAT).read(render_cards(scene(70_004, hands=(hand,)), SIZE, 1))
    assert reading.ok
    assert "seat2" in reading.doubtful()
    assert reading.covered
    assert "seat4" not in reading.doubtful() and reading.zones["seat4"].label() == ((), 1)
    seen = {tag for zone in reading.zones.values() for tag in zone.face_up}
    assert seen <= {12, 200, 41, 585}


def test_a_card_with_its_tag_under_another_card_is_doubt_not_a_wrong_count() -> None:
    """Two backs overlapping so one tag is hidden: the zone is doubtful, not 'one card'."""
    cards = (LaidCard(300, 240, None, "", 0), LaidCard(312, 240, None, "", 0))
    reading = CardReader(MAT).read(render_cards(scene(70_005, cards), SIZE, 2))
    assert reading.zones["centre"].doubtful


def test_a_tag_under_a_glare_stripe_is_read_and_a_smudged_one_is_not_misread() -> None:
    """A soft stripe of light across a tag lifts its black modules above a one-threshold split
    (the decoder before issue 27 dropped it); the border and ring fit still reads it."""
    image = cv2.copyMakeBorder(tag_image(42, 160), *(4 * [20]), cv2.BORDER_CONSTANT, value=255)
    ys, xs = np.mgrid[0 : image.shape[0], 0 : image.shape[1]]
    stripe = 0.6 * np.exp(-0.5 * (((xs - ys) / np.sqrt(2) - 20) / 12.0) ** 2)
    lit = (image + (255 - image) * stripe).astype(np.uint8)
    corners = np.array([[20, 20], [179, 20], [179, 179], [20, 179]], np.float32)
    decoder = TagDecoder()
    lifted = (image < 128) & (lit > (int(lit.min()) + int(lit.max())) / 2)
    assert lifted.sum() > 400  # black modules one threshold for the whole tag would call white
    assert decoder.read(lit, corners) == TagRead(42, 0)
    assert decoder.read(np.ascontiguousarray(np.rot90(lit)), corners) == TagRead(42, 3)
    noise = np.random.default_rng(5).integers(0, 256, lit.shape).astype(np.uint8)
    assert decoder.decode(noise, corners) is None


def test_a_card_read_knows_its_turn() -> None:
    reading = CardReader(MAT).read(render_cards(scene(70_001), SIZE, 70_001))
    turns = {tag.tag_id: tag.turn_deg for tag in reading.tags if tag.tag_id != BACK_ID}
    for card in CARDS:
        if card.tag_id is not None:
            off = (turns[card.tag_id] - card.angle_deg + 180) % 360 - 180
            assert abs(off) < 8, (card, turns[card.tag_id])


@pytest.mark.parametrize(("shift", "doubtful"), [((0, 16), True), ((14, 0), True), ((1, 1), False)])
def test_a_card_peeping_from_under_another_is_doubt_a_neat_pile_is_its_top_card(
    shift, doubtful
) -> None:
    """A lower card showing 16-22% of itself, its tag hidden, makes its zone doubtful however
    small a share of the zone it is; a neat pile reads as its top card (the game knows the rest)."""
    x, y = MAT.zone("centre").x, MAT.zone("centre").y
    cards = (LaidCard(x, y, 31, "Under", 0), LaidCard(x + shift[0], y + shift[1], 32, "Top", 0))
    reading = CardReader(MAT).read(render_cards(scene(70_011, cards), SIZE, 12))
    assert reading.zones["centre"].doubtful is doubtful
    assert reading.zones["centre"].face_up == (32,)


def test_three_markers_are_enough() -> None:
    rendered = scene(70_006)
    frame = render_cards(rendered, SIZE, 3)
    hidden = MAT.markers[2]
    corners = project(mat_homography(rendered, SIZE), np.array(hidden.corners()))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 6
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 6
    frame[y0:y1, x0:x1] = TABLE_BGR  # something dark lies over it
    reading = CardReader(MAT).read(frame)
    assert reading.missing_markers == (hidden.id,)
    assert reading.position() == EXPECTED


def test_two_markers_are_not_enough_and_a_missing_frame_is_no_camera() -> None:
    rendered = scene(70_007)
    frame = render_cards(rendered, SIZE, 4)
    homography = mat_homography(rendered, SIZE)
    for marker in MAT.markers[:2]:
        corners = project(homography, np.array(marker.corners()))
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 6
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 6
        frame[y0:y1, x0:x1] = TABLE_BGR
    reader = CardReader(MAT)
    reading = reader.read(frame)
    assert reading.status == NO_BOARD and reading.position() is None
    assert "markers not found: 40, 41" in reading.message
    assert reader.read(None).status == NO_CAMERA


def test_following_frames_sees_a_card_laid_and_a_card_taken() -> None:
    """With ``follow`` the reader searches again only where the view changed: still right."""
    reader = CardReader(MAT)
    first = scene(70_008)
    assert reader.read(render_cards(first, SIZE, 5)).position() == EXPECTED
    assert reader.read(render_cards(first, SIZE, 6)).position() == EXPECTED  # fresh noise only
    laid = replace(first, cards=(*CARDS, LaidCard(520, 80, 77, "New", 30)))
    assert reader.read(render_cards(laid, SIZE, 7)).zones["seat3"].label() == ((77,), 0)
    taken = replace(first, cards=CARDS[1:])
    assert reader.read(render_cards(taken, SIZE, 8)).zones["seat1"].label() == ((), 1)


def test_a_still_mat_settles_and_a_hand_holds_it_back() -> None:
    times = iter(np.arange(0, 10, 0.1))
    settle = SettlingFilter(window=0.3, clock=lambda: float(next(times)))
    reader = CardReader(MAT)
    still = scene(70_009)
    states = [settle.update(reader.read(render_cards(still, SIZE, s))).state for s in range(5)]
    assert states[-1] is BoardState.SETTLED
    assert settle.committed == EXPECTED
    hand = Hand((MAT.zone("centre").x, MAT.zone("centre").y), 90.0, 1.0)
    status = settle.update(reader.read(render_cards(replace(still, hands=(hand,)), SIZE, 9)))
    assert status.state is BoardState.COVERED and not status.new_commit


def test_the_back_id_is_counted_never_named() -> None:
    reading = CardReader(MAT).read(render_cards(scene(70_010), SIZE, 10))
    assert all(BACK_ID not in zone.face_up for zone in reading.zones.values())
    assert sum(tag.tag_id == BACK_ID for tag in reading.tags) == 3


def test_a_card_outside_every_zone_is_reported_outside() -> None:
    cards = (LaidCard(340, 160, 9, "Between", 0),)  # between the seat row and the centre
    mat_scene = CardScene(MAT, cards, MatPose())
    reading = CardReader(MAT).read(render_cards(mat_scene, SIZE, 11))
    assert reading.position()["outside"] == ((9,), 0)


@pytest.mark.parametrize(
    ("zones", "markers", "message"),
    [
        ((CardZone("a", 100, 100, 80, 80), CardZone("b", 150, 100, 80, 80)), 4, "zone a overlaps"),
        ((CardZone("a", 100, 100, 80, 80),), 2, "has 2 markers, needs 3"),
        ((CardZone("a", 100, 100, 80, 80), CardZone("a", 300, 100, 80, 80)), 4, "zone 'a'"),
        ((CardZone("a", 50, 50, 80, 80),), 4, "zone a overlaps marker 40"),
        ((CardZone("a", 390, 100, 80, 80),), 4, r"zone a reaches \(430, 140\) mm, outside"),
    ],
)
def test_a_mat_that_cannot_be_read_is_refused_naming_the_fault(zones, markers, message) -> None:
    corners = [(20, 20), (380, 20), (380, 280), (20, 280)]
    marker_list = tuple(Marker(40 + i, x, y, 30) for i, (x, y) in enumerate(corners[:markers]))
    with pytest.raises(ValueError, match=message):
        CardMatLayout("bad", 400, 300, marker_list, zones)


def test_the_card_modules_examples_run() -> None:
    import doctest

    import cogtable.card_decks
    import cogtable.card_mat_setup
    import vision.cards.mat
    import vision.cards.reader
    import vision.cards.renderer
    import vision.cards.sheet
    import vision.cards.tags

    modules = (
        vision.cards.tags,
        vision.cards.mat,
        vision.cards.sheet,
        vision.cards.renderer,
        vision.cards.reader,
        cogtable.card_decks,
        cogtable.card_mat_setup,
    )
    results = [doctest.testmod(module) for module in modules]
    assert all(result.attempted > 0 and result.failed == 0 for result in results)
