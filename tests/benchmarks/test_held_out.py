"""The held-out renderers are deterministic per seed and their truth has the promised shape.

Only determinism and the truth's form are tested here (fast, 720p); what the
frames are worth is measured by the benchmarks that run readers on them.
"""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.held_out import cards, parts, peg_disk
from benchmarks.held_out.optics import HELD_OUT_SEED_MIN
from tests.system_tools import require_installed

SEED = HELD_OUT_SEED_MIN + 17
SIZE = (1280, 720)


def test_a_still_board_is_the_same_scene_with_fresh_noise_in_every_frame() -> None:
    labels = peg_disk.random_labels(SEED, 12)
    first, truth = peg_disk.render_still(labels, "plain", SEED, 0, SIZE)
    again, _ = peg_disk.render_still(labels, "plain", SEED, 0, SIZE)
    second, _ = peg_disk.render_still(labels, "plain", SEED, 1, SIZE)
    assert first.shape == (720, 1280, 3) and first.dtype == np.uint8
    assert np.array_equal(first, again)
    difference = np.abs(first.astype(int) - second.astype(int))
    assert difference.mean() > 0.5  # fresh noise
    assert difference.mean() < 8.0  # and nothing else
    assert truth.labels == labels and truth.clear


def test_the_peg_disk_truth_names_every_peg_and_what_a_hand_hides() -> None:
    labels = peg_disk.start_labels()
    _, truth = peg_disk.render_still(labels, ["arm", "tilted"], SEED, 0, SIZE)
    assert len(truth.labels) == 55 and len(truth.covered_share) == 55
    assert truth.position()[(0, 0)] == "gold" and truth.position()[(9, 9)] == "blue"
    assert truth.hand and not truth.clear
    assert set(truth.markers_hidden) == {0, 1, 2, 3}
    assert all(0.0 <= share <= 1.0 for share in truth.covered_share)
    assert truth.peg_pixels().shape == (55, 2)


def test_a_held_cog_is_over_an_empty_peg_and_not_on_the_board() -> None:
    labels = peg_disk.start_labels()
    _, truth = peg_disk.render_still(labels, "held_cog", SEED, 0, SIZE)
    (held,) = truth.held
    assert labels[held.over] is None and truth.labels == labels
    assert held.over in truth.covered


def test_only_held_out_seeds_and_sizes_are_drawn() -> None:
    with pytest.raises(ValueError, match="9_000_000"):
        peg_disk.render_still(peg_disk.start_labels(), "plain", 42, 0, SIZE)
    with pytest.raises(ValueError, match="640x480"):
        peg_disk.render_still(peg_disk.start_labels(), "plain", SEED, 0, (640, 480))
    with pytest.raises(ValueError, match="unknown condition"):
        peg_disk.render_still(peg_disk.start_labels(), "foggy", SEED, 0, SIZE)


def test_a_sequence_ends_on_the_new_board_and_hides_the_peg_it_changes() -> None:
    before = peg_disk.start_labels()
    after = peg_disk.labels_of({**dict(enumerate(before)), 30: "red"})
    timing = peg_disk.Timing(
        fps=4.0, still_before=0.25, enter=0.5, dwell=0.75, leave=0.5, still_after=0.5
    )
    frames = list(peg_disk.render_sequence(before, after, "plain", SEED, SIZE, timing=timing))
    truths = [f.truth for f in frames]
    assert truths[0].clear and truths[0].labels == before
    assert truths[-1].clear and truths[-1].labels == after
    assert any(30 in t.covered for t in truths)
    changed = [t for t in truths if t.labels[30] == "red"]
    assert changed[0].hand and 30 in changed[0].covered  # a peg changes under the hand
    assert [t.frame_index for t in truths] == list(range(len(frames)))


def test_card_frames_are_deterministic_and_name_every_card_and_zone() -> None:
    first, truth = cards.render_still(["piles", "backs"], SEED, 0, SIZE)
    again, _ = cards.render_still(["piles", "backs"], SEED, 0, SIZE)
    other, _ = cards.render_still(["piles", "backs"], SEED, 1, SIZE)
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    assert [zone.name for zone in truth.zones][-1] == "centre" and len(truth.zones) == 7
    for card in truth.cards:
        assert card.corners.shape == (4, 2) and card.tag_corners.shape == (4, 2)
        assert 0.0 <= card.tag_visible_share <= 1.0 and 0.0 <= card.visible_share <= 1.0
        assert card.tag_id == (card.card_tag_id if card.face_up else cards.BACK_ID)
    lower = [card for card in truth.cards if not card.on_top]
    assert lower and all(card.visible_share < 1.0 for card in lower)
    for zone in truth.zones:
        mine = [card for card in truth.cards if card.zone == zone.name]
        assert zone.backs == sum(not card.face_up for card in mine)
        assert set(zone.face_up) <= {card.tag_id for card in mine if card.face_up}


def test_parts_frames_are_deterministic_and_label_every_place() -> None:
    require_installed("reserved typefaces", bool(parts.installed_reserved_fonts()))
    first, truth = parts.render_still(["wild", "turned"], SEED, 0, SIZE, players=3)
    again, _ = parts.render_still(["wild", "turned"], SEED, 0, SIZE, players=3)
    assert np.array_equal(first, again)
    labels = truth.labels()
    assert list(labels) == ["board", "mat1", "mat2", "mat3"]
    on_places = {(tile.part, tile.place): tile.label for tile in truth.tiles}
    assert on_places and all(
        labels[part][place] == label for (part, place), label in on_places.items()
    )
    assert all(tile.corners.shape == (4, 2) for tile in truth.tiles)
    assert any(tile.label == "wild" for tile in truth.tiles)
    fonts = {tile.font for tile in truth.tiles if tile.font}
    assert len(fonts) == 1 and fonts <= {p.rsplit("/", 1)[-1] for p in parts.reserved_fonts()}
