"""The card mat's sight with the commit decision: hand-built readings, a clock a frame a tick."""

from __future__ import annotations

import numpy as np

from cogtable.commit_decision import Explanation, ExplanationKind, Explanations, decide
from cogtable.inputs import BoardSettled, BoardUnsettled
from cogtable.place_evidence import StillEvidence
from cogtable.sights.camera import CameraPart
from cogtable.sights.card_evidence import card_evidence
from cogtable.sights.cards import CardsSight
from cogtable.tables.base import CameraRegion
from vision.cards.reader import CardMatReading, ZoneReading

ZONES = ("seat1", "seat2", "seat3", "centre")


def _reading(doubtful: tuple[str, ...] = (), **zones: tuple[tuple[int, ...], int]):
    """A still mat's reading: ``zones`` hold (face-up ids, backs), the rest are empty."""
    read = {
        name: ZoneReading(*zones.get(name, ((), 0)), doubtful=name in doubtful) for name in ZONES
    }
    corners = np.array([(0, 0), (680, 0), (680, 490), (0, 490)], float)
    return CardMatReading(
        read, homography=np.eye(3), features=np.zeros((len(ZONES), 3)), corners_mm=corners
    )


def _sight(explanations: Explanations | None = None, *, judged: bool = True):
    sent: list[object] = []
    ticks = iter(range(10_000))
    sight = CardsSight(
        lambda item, seen_at=None: sent.append(item),
        CameraPart(lambda item, seen_at=None: None),
        lambda: next(ticks) * 0.1,
        (CameraRegion("cards", "cards"),),
        lambda regions: None,
        explain=(lambda: explanations) if judged else None,
    )
    return sight, sent


def _show(sight: CardsSight, readings: list[CardMatReading]) -> None:
    for reading in readings:
        sight.see(reading, 0.0)


def _settled(sent: list[object]) -> list[dict]:
    return [item.observation["cards"] for item in sent if isinstance(item, BoardSettled)]


def test_a_tag_lost_in_some_frames_is_committed_from_the_others() -> None:
    card, lost = _reading(seat1=((7,), 0), centre=((), 1)), _reading(centre=((), 1))
    frames = [card, card, lost, card, card, lost, card, card]
    sight, sent = _sight()
    _show(sight, frames)
    assert _settled(sent)[-1]["seat1"] == ((7,), 0)
    plain, plain_sent = _sight(judged=False)
    _show(plain, frames)
    assert not _settled(plain_sent)  # one frame at a time, the flicker restarts the window


def test_a_doubtful_zone_that_nothing_changes_does_not_hold_the_mat_back() -> None:
    sight, sent = _sight()
    _show(sight, [_reading(seat3=((4,), 0))] * 5)
    assert _settled(sent)[-1]["seat3"] == ((4,), 0)
    peeping = _reading(("seat3",), seat1=((9,), 0), seat3=((4,), 0))
    _show(sight, [peeping] * 6)
    assert _settled(sent)[-1] == {
        "seat1": ((9,), 0),
        "seat2": ((), 0),
        "seat3": ((4,), 0),
        "centre": ((), 0),
    }


def test_a_change_under_something_unexplained_is_never_committed_the_wait_says_where() -> None:
    sight, sent = _sight()
    _show(sight, [_reading()] * 5)
    _show(sight, [_reading(("seat2",), seat2=((11,), 0))] * 8)
    assert all(position["seat2"] == ((), 0) for position in _settled(sent))
    waits = [item.reason for item in sent if isinstance(item, BoardUnsettled)]
    assert waits and "seat2" in waits[-1]


def test_an_illegal_card_is_never_committed_as_the_legal_one() -> None:
    base = {name: ((), 0) for name in ZONES}
    game = Explanations(
        base,
        (
            Explanation(ExplanationKind.UNCHANGED, {}),
            Explanation(ExplanationKind.LEGAL, {"centre": ((5,), 0)}, "5 played"),
            Explanation(ExplanationKind.ILLEGAL, {"centre": ((6,), 0)}, "6: not its turn"),
        ),
    )
    sight, sent = _sight(game)
    _show(sight, [_reading(centre=((6,), 0))] * 6)
    assert _settled(sent)[-1]["centre"] == ((6,), 0)
    still = StillEvidence()
    for _ in range(4):
        still.add(card_evidence(_reading(centre=((6,), 0)), game, None))
    decision = decide(still, game)
    assert decision.committed and decision.explanation.kind is ExplanationKind.ILLEGAL


def test_two_explanations_a_doubtful_zone_cannot_tell_apart_are_not_committed() -> None:
    base = {name: ((), 0) for name in ZONES}
    game = Explanations(
        base,
        (
            Explanation(ExplanationKind.LEGAL, {"centre": ((5,), 0)}),
            Explanation(ExplanationKind.LEGAL, {"centre": ((5,), 1)}),
        ),
    )
    evidence = card_evidence(_reading(("centre",), centre=((5,), 0)), game, None)
    assert evidence is not None and "centre" in evidence.unseen_places()
    sight, sent = _sight(game)
    _show(sight, [_reading(("centre",), centre=((5,), 0))] * 8)
    assert not _settled(sent)
