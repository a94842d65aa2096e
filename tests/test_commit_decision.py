"""The commit decision on hand-built evidence: the game is the prior, the frames are summed."""

from __future__ import annotations

import numpy as np
import pytest

from cogtable.commit_decision import (
    DecisionKind,
    Explanation,
    ExplanationKind,
    Explanations,
    StillBoardJudge,
    decide,
)
from cogtable.place_evidence import PlaceEvidence, StillEvidence

PLACES = ("a", "b", "c", "d")
CLASSES = ("empty", "red", "blue")
BASE = dict.fromkeys(PLACES, "empty")


def _frame(favour: dict[str, str], strength: float = 6.0, unseen=None) -> PlaceEvidence:
    """A frame favouring a class at some places by ``strength`` nats (others: empty, clearly)."""
    values = np.full((len(PLACES), len(CLASSES)), -strength)
    for row, place in enumerate(PLACES):
        values[row, CLASSES.index(favour.get(place, "empty"))] = 0.0
    return PlaceEvidence(PLACES, CLASSES, values, unseen)


def _still(*frames: PlaceEvidence) -> StillEvidence:
    still = StillEvidence()
    for frame in frames:
        still.add(frame)
    return still


def _game(*options: Explanation) -> Explanations:
    return Explanations(BASE, (Explanation(ExplanationKind.UNCHANGED, {}, "nothing"), *options))


def test_the_clear_winner_is_committed_and_its_runner_up_named() -> None:
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"}, "red on a")
    other = Explanation(ExplanationKind.LEGAL, {"b": "red"}, "red on b")
    decision = decide(_still(*[_frame({"a": "red"})] * 3), _game(placed, other))
    assert decision.kind is DecisionKind.COMMIT
    assert decision.explanation == placed
    assert decision.position == {**BASE, "a": "red"}
    assert decision.margin >= 12.0
    one_frame = decide(_still(_frame({"a": "red"})), _game(placed, other))
    assert one_frame.kind is DecisionKind.UNSURE  # 6 nats from one frame: not yet clear


def test_a_doubtful_place_no_explanation_changes_needs_no_certainty() -> None:
    doubtful = np.array([[0.0, -6.0, -6.0]] * 4)
    doubtful[0] = (-6.0, 0.0, -6.0)  # a: clearly red
    doubtful[3] = (-0.7, 0.0, -0.4)  # d: read red, barely; no explanation changes d
    frames = [PlaceEvidence(PLACES, CLASSES, doubtful)] * 3
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    decision = decide(_still(*frames), _game(placed))
    assert decision.kind is DecisionKind.COMMIT
    assert decision.position["d"] == "empty" and decision.position["a"] == "red"
    alone = decide(_still(*frames), None)  # no game: d must be certain on its own
    assert alone.kind is DecisionKind.UNSURE and "d" in alone.deciding


def test_two_explanations_equally_likely_are_not_committed() -> None:
    values = np.array([[-1.0, 0.0, -9.0], [-1.0, 0.0, -9.0], [0.0, -9.0, -9.0], [0, -9, -9]])
    frame = PlaceEvidence(PLACES, CLASSES, values)
    on_a = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    on_b = Explanation(ExplanationKind.LEGAL, {"b": "red"})
    decision = decide(_still(*[frame] * 10), _game(on_a, on_b))
    assert decision.kind is DecisionKind.UNSURE
    assert set(decision.deciding) == {"a", "b"}
    assert "a" in decision.message("peg") and "b" in decision.message("peg")


def test_an_illegal_position_as_likely_as_a_legal_one_never_yields_the_legal_one() -> None:
    legal = Explanation(ExplanationKind.LEGAL, {"a": "red"}, "red on a")
    illegal = Explanation(ExplanationKind.ILLEGAL, {"a": "blue"}, "blue on a: not blue's turn")
    both = np.array([[-9.0, 0.0, 0.0], [0, -9, -9], [0, -9, -9], [0, -9, -9]])
    still = _still(*[PlaceEvidence(PLACES, CLASSES, both)] * 20)
    for order in ((legal, illegal), (illegal, legal)):
        decision = decide(still, _game(*order))
        assert decision.kind is DecisionKind.UNSURE
        assert decision.deciding == ("a",)
    clearly_blue = decide(_still(*[_frame({"a": "blue"})] * 3), _game(legal, illegal))
    assert clearly_blue.kind is DecisionKind.COMMIT
    assert clearly_blue.explanation == illegal and not clearly_blue.explanation.kind.legal


def test_summing_frames_averages_noise() -> None:
    """Single noisy frames often favour the wrong explanation; their sum never does."""
    rng = np.random.default_rng(5)
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    wrong = Explanation(ExplanationKind.LEGAL, {"a": "blue"})
    means = np.array([0.0, 1.0, 1.6])  # a feature: empty 0, red 1, blue 1.6; truth red
    misled = committed_wrong = committed_right = 0
    for _ in range(200):
        still = StillEvidence()
        for _ in range(15):
            values = np.zeros((len(PLACES), len(CLASSES)))
            for row in range(len(PLACES)):
                truth = 1.0 if row == 0 else 0.0
                seen = truth + rng.normal(0, 0.25)
                values[row] = -0.5 * ((seen - means) / 0.25) ** 2
            frame = PlaceEvidence(PLACES, CLASSES, values)
            misled += values[0, 2] > values[0, 1]
            still.add(frame)
        decision = decide(still, _game(placed, wrong))
        committed_wrong += decision.committed and decision.explanation != placed
        committed_right += decision.committed and decision.explanation == placed
    assert misled / (200 * 15) > 0.05
    assert committed_wrong == 0
    assert committed_right >= 195


def test_a_place_no_explanation_foresaw_is_committed_as_seen_only_when_clear() -> None:
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    two_cogs = _still(*[_frame({"a": "red", "c": "blue"})] * 3)
    decision = decide(two_cogs, _game(placed))
    assert decision.kind is DecisionKind.COMMIT
    assert decision.explanation.kind is ExplanationKind.OTHER
    assert decision.position == {**BASE, "a": "red", "c": "blue"}
    faint = _still(*[_frame({"a": "red", "c": "blue"}, strength=2.0)] * 3)
    half = decide(faint, _game(placed))
    assert half.kind is DecisionKind.UNSURE or half.position["c"] == "empty"
    leaning = _still(*[_frame({"a": "red", "c": "blue"}, strength=3.0)] * 12)
    summed = decide(leaning, _game(placed))  # 36 nats in sum, but only 3 in any frame
    assert summed.explanation == placed and summed.position["c"] == "empty"
    both = np.array([[-9.0, 0.0, -9.0], [0, -9, -9], [-12.0, 0.0, 0.0], [0, -9, -9]])
    red_or_blue = decide(_still(*[PlaceEvidence(PLACES, CLASSES, both)] * 3), _game(placed))
    assert not red_or_blue.committed and red_or_blue.deciding == ("c",)  # a cog, but which?


def test_the_board_as_committed_is_an_explanation() -> None:
    """After an out-of-sync commit the same board is committed again, not doubted anew."""
    out_of_sync = {**BASE, "c": "blue", "d": "blue"}
    frames = [_frame({"c": "blue", "d": "blue"}, strength=3.0)] * 5
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    decision = decide(_still(*frames), _game(placed), committed=out_of_sync)
    assert decision.kind is DecisionKind.COMMIT
    assert decision.explanation.kind is ExplanationKind.AS_COMMITTED
    assert decision.position == out_of_sync


def test_a_change_under_a_hand_in_the_latest_frame_is_not_committed() -> None:
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    hidden = np.array([5.0, -20.0, -20.0, -20.0])  # a: none of the classes (a hand)
    frames = [_frame({"a": "red"})] * 4 + [_frame({"a": "red"}, unseen=hidden)]
    decision = decide(_still(*frames), _game(placed))
    assert decision.kind is DecisionKind.UNSURE and decision.deciding == ("a",)
    hidden_elsewhere = np.array([-20.0, -20.0, 5.0, -20.0])  # c: unchanged by the move
    frames[-1] = _frame({"a": "red"}, unseen=hidden_elsewhere)
    assert decide(_still(*frames), _game(placed)).committed


def test_a_frame_can_argue_only_so_much() -> None:
    """One frame with a place covered or glinting cannot outweigh the others."""
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    glint = np.array([[0.0, -500.0, -500.0]] + [[0.0, -9.0, -9.0]] * 3)
    unseen = np.array([0.0, -50.0, -50.0, -50.0])
    frames = [_frame({"a": "red"})] * 6 + [PlaceEvidence(PLACES, CLASSES, glint, unseen)]
    decision = decide(_still(*frames), _game(placed))
    assert decision.committed and decision.explanation == placed


def test_the_judge_keeps_one_window() -> None:
    placed = Explanation(ExplanationKind.LEGAL, {"a": "red"})
    judge = StillBoardJudge(lambda: _game(placed), lambda reading: reading)
    for _ in range(3):
        judge.add(_frame({"a": "red"}))
    assert judge.decide(None).position["a"] == "red"
    judge.restart()
    assert judge.decide(None).kind is DecisionKind.NO_EVIDENCE
    assert judge.add(_frame({})) == ()
    judge.add(_frame({}))
    assert judge.decide(None).explanation.kind is ExplanationKind.UNCHANGED
    hand = np.array([-20.0, 5.0, -20.0, -20.0])
    assert judge.add(_frame({}, unseen=hand)) == ("b",)  # not added: the window restarts
    assert judge.still.frames == 2


def test_an_explanation_of_a_class_the_reader_cannot_see_is_refused() -> None:
    impossible = Explanation(ExplanationKind.LEGAL, {"a": "green"})
    with pytest.raises(ValueError, match="green"):
        decide(_still(_frame({})), _game(impossible))


def test_a_free_place_takes_the_class_the_game_allows_that_its_evidence_favours() -> None:
    free = Explanations(
        BASE, (Explanation(ExplanationKind.UNCHANGED, {}),), {"b": ("empty", "red")}
    )
    leaning_blue = np.array([[0.0, -6.0, -6.0]] * 4)
    leaning_blue[1] = (-9.0, -1.0, 0.0)  # b: blue a little likelier than red; blue not allowed
    decision = decide(_still(*[PlaceEvidence(PLACES, CLASSES, leaning_blue)] * 13), free)
    assert decision.kind is DecisionKind.COMMIT
    assert decision.position["b"] == "red"
    doubtful = leaning_blue.copy()
    doubtful[1] = (-0.2, 0.0, -9.0)  # red or empty: both allowed, too close
    decision = decide(_still(*[PlaceEvidence(PLACES, CLASSES, doubtful)] * 13), free)
    assert decision.kind is DecisionKind.UNSURE and decision.deciding == ("b",)
    blue = decide(_still(*[_frame({"b": "blue"})] * 3), free)
    assert blue.committed and blue.position["b"] == "blue"
    assert blue.explanation is not None and blue.explanation.kind is ExplanationKind.OTHER
