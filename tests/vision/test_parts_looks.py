"""Tile sets of other looks (wood, ivory, plastic, other backs and tokens) and bright light.

Frames come from our renderer (:mod:`vision.parts.renderer`) on seeds 61_000+, in
development fonts and looks (never the held-out renderer's).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.part_layouts import random_contents, table_layouts
from vision.layout import LETTERS, STAR, WILD
from vision.parts.colours import INKED, ink_doubt, washed_out
from vision.parts.look import REFERENCE
from vision.parts.part_reading import MIN_CONFIDENCE, TILE_EVIDENCE_CLASSES
from vision.parts.reader import PartsReader
from vision.parts.renderer import TableRenderer
from vision.parts.table_scenes import random_table_scene
from vision.parts.tiles import (
    DEVELOPMENT_FONTS,
    DEVELOPMENT_LOOKS,
    REFERENCE_LOOK,
    TileLook,
    draw_tile,
)

SEEDS = 61_000
LAYOUTS = table_layouts()


def _table(seed: int, look: TileLook = REFERENCE_LOOK, brightness: float = 1.0):
    rng = np.random.default_rng(seed)
    contents = random_contents(rng, LAYOUTS, 0.6)
    font = DEVELOPMENT_FONTS[seed % len(DEVELOPMENT_FONTS)]
    scene = random_table_scene(
        rng, LAYOUTS, contents, font=font, look=replace(REFERENCE, tiles=look)
    )
    lighting = replace(scene.lighting, brightness=scene.lighting.brightness * brightness)
    scene = replace(scene, lighting=lighting)
    return TableRenderer().render(scene, (1920, 1080), seed), contents


def _tiles(reading, contents):
    """(expected, label, confidence) of every tile place of every part read."""
    rows = []
    for part in reading.parts.values():
        assert part.ok, part.message
        for place, label, confidence in zip(part.places, part.labels, part.confidence, strict=True):
            if place in part.tile_places:
                rows.append((contents.get(part.part, {}).get(place, ""), label, confidence))
    return rows


def test_a_tile_look_draws_its_own_face_back_token_and_grain() -> None:
    wood = DEVELOPMENT_LOOKS[0]
    plain = replace(wood, grain=0.0)
    grained, flat = (
        draw_tile(WILD, 40, DEVELOPMENT_FONTS[0], wood),
        draw_tile(WILD, 40, DEVELOPMENT_FONTS[0], plain),
    )
    band = (slice(8, 13), slice(8, 32))  # between the back's inset line and its ring
    assert (
        grained[band][..., :3].std(axis=(0, 1)).mean()
        > flat[band][..., :3].std(axis=(0, 1)).mean() + 2
    )
    back = np.median(flat[band][..., :3].reshape(-1, 3), axis=0)
    assert np.abs(back - np.array(wood.back)).max() <= 3
    token = draw_tile(STAR, 40, DEVELOPMENT_FONTS[0], DEVELOPMENT_LOOKS[1])
    assert np.abs(token[20, 20, :3].astype(int) - DEVELOPMENT_LOOKS[1].star_mark).max() <= 8
    with pytest.raises(ValueError, match="grain"):
        TileLook(grain=1.5)
    with pytest.raises(ValueError, match="back"):
        TileLook(back=(1, 2, 300))


def test_the_reference_reader_does_not_know_another_back_but_a_reader_of_that_look_does() -> None:
    look = DEVELOPMENT_LOOKS[0]
    frame, contents = _table(SEEDS + 1, look)
    wild = [
        (e, lab) for e, lab, _c in _tiles(PartsReader(LAYOUTS).read(frame), contents) if e == WILD
    ]
    assert wild and sum(lab == WILD for _e, lab in wild) < len(wild) / 2
    reader = PartsReader(LAYOUTS, replace(REFERENCE, tiles=look))
    rows = _tiles(reader.read(frame), contents)
    for kind in (WILD, STAR):
        seen = [label for expected, label, _c in rows if expected == kind]
        assert seen and all(label == kind for label in seen), (kind, seen)
    letters = [(e, lab) for e, lab, _c in rows if e in LETTERS]
    assert sum(e == lab for e, lab in letters) >= 0.9 * len(letters)


@pytest.mark.parametrize("brightness", [1.7, 2.0])
def test_letters_in_glare_are_never_read_as_an_empty_place_surely(brightness) -> None:
    """Light so bright that the paper and the tiles' faces clip to white: a letter tile may be
    doubtful, never an empty place at full confidence, and empty places stay empty."""
    frame, contents = _table(SEEDS + 2, brightness=brightness)
    assert (frame.max(axis=2) >= 254).mean() > 0.1  # the paper clips
    rows = _tiles(PartsReader(LAYOUTS).read(frame), contents)
    letters = [(label, c) for expected, label, c in rows if expected in LETTERS]
    assert not [1 for label, c in letters if label == "" and c >= MIN_CONFIDENCE]
    assert sum(label != "" for label, _c in letters) >= 0.9 * len(letters)
    empty = [label for expected, label, _c in rows if expected == ""]
    assert sum(label == "" for label in empty) >= 0.98 * len(empty)


def test_ink_on_an_empty_looking_place_makes_it_a_face_or_a_doubt() -> None:
    shares = np.array([[0.9, 0.1, 0.0, 0.0], [0.9, 0.1, 0.0, 0.0], [0.2, 0.8, 0.0, 0.0]])
    inked = np.array([INKED, 0.0, INKED])
    assert washed_out(shares, inked).tolist() == [True, False, False]
    doubt = ink_doubt(np.array([0.0, 1 / 37, INKED]))
    assert doubt[0] == 1.0 and doubt[1] < MIN_CONFIDENCE and doubt[2] == 0.0


def test_a_washed_out_letter_gives_evidence_against_an_empty_place() -> None:
    frame, contents = _table(SEEDS + 3, brightness=2.0)
    reading = PartsReader(LAYOUTS).read(frame)
    empty, worse = TILE_EVIDENCE_CLASSES.index(""), 0
    for part in reading.parts.values():
        assert part.tile_log_likelihood is not None
        for row, place in enumerate(part.tile_places):
            expected = contents.get(part.part, {}).get(place, "")
            if expected in LETTERS:
                table = part.tile_log_likelihood[row]
                worse += table[empty] < table[TILE_EVIDENCE_CLASSES.index(expected)]
    letters = sum(label in LETTERS for places in contents.values() for label in places.values())
    assert worse >= 0.9 * letters


def test_a_token_that_looks_like_a_face_is_told_from_tiles_by_the_letter_model() -> None:
    """A cream token with a red star on cream tiles: the colour vote cannot tell token ground
    from face, so a face-coloured place is a tile or a token and the letter model decides."""
    look = DEVELOPMENT_LOOKS[5]
    frame, contents = _table(SEEDS + 4, look)
    rows = _tiles(PartsReader(LAYOUTS, replace(REFERENCE, tiles=look)).read(frame), contents)
    stars = [label for expected, label, _c in rows if expected == STAR]
    assert stars and sum(label == STAR for label in stars) >= 0.8 * len(stars)
    letters = [(e, lab, c) for e, lab, c in rows if e in LETTERS]
    assert not [1 for _e, lab, c in letters if lab == STAR and c >= MIN_CONFIDENCE]
    assert sum(e == lab for e, lab, _c in letters) >= 0.9 * len(letters)
