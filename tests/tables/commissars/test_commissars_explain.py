"""The Commissars card mat's explanations: what the commit decision weighs the camera against.

Each table is a journaled game put in sync by one look (the helpers' :class:`Cards`);
the explanations are those the table publishes for the camera thread, and the
decision is the shared one (:func:`cogtable.commit_decision.decide`) on the card
evidence of frames read off the mat as it lies.
"""

from __future__ import annotations

from pathlib import Path

from cogtable.commit_decision import Decision, ExplanationKind, Explanations
from cogtable.tables.commissars.cards import card_of, tags_for
from games.commissars.actions import Play
from games.commissars.state import CommissarsState
from games.core import State
from tests.tables.card_frames import decided, mat_reading
from tests.tables.commissars.commissars_helpers import MAT, CommissarsTable, table_at
from vision.cards.reader import OUTSIDE, CardMatReading


def propaganda_phase(state: State) -> bool:
    assert isinstance(state, CommissarsState)
    return (
        state.phase == "propaganda"
        and not state.tasks
        and state.window is None
        and not state.stack
        and state.seats[state.active].hand["Propaganda"] > 0
    )


def _reading(position, doubtful: tuple[str, ...] = ()) -> CardMatReading:
    return mat_reading(MAT, position, doubtful)


def _decided(at: CommissarsTable, frames: list[CardMatReading]) -> Decision:
    """The decision on ``frames`` against the table's published explanations."""
    assert at.table.explanations is not None
    assert at.table.explanations.base[OUTSIDE] == ((), 0)
    return decided(at.table.explanations, frames)


def _stack_tags(explained: Explanations, kind: ExplanationKind) -> set[int]:
    """The tags the options of ``kind`` lay on the centre zone."""
    base = set(explained.base["centre"][0])
    return {
        tag
        for option in explained.options
        if option.kind is kind and "centre" in option.changes
        for tag in set(option.changes["centre"][0]) - base
    }


def test_the_base_is_the_mat_as_seen_and_every_play_is_a_card_the_seat_may_play(
    tmp_path: Path,
) -> None:
    at = table_at(tmp_path, propaganda_phase)
    explained = at.table.explanations
    assert isinstance(explained, Explanations)
    seen = at.cards.reading()
    assert {name: explained.base[name] for name in seen} == seen
    kinds = [option.kind for option in explained.options]
    assert kinds[0] is ExplanationKind.UNCHANGED
    laid = _stack_tags(explained, ExplanationKind.LEGAL)
    assert laid, "the active seat may play"
    factions = [seat.faction for seat in at.state.seats]
    playable = {action.card for action in at.state.legal_actions() if isinstance(action, Play)}
    in_view = {tag for ids, _ in seen.values() for tag in ids}
    for tag in laid:
        card = card_of(tag, factions)
        assert card is not None and card.name in playable, tag
        assert tag not in in_view, "a card in view is never laid again"
    active = at.state.active
    assert set(tags_for(factions[active], "Propaganda")) - in_view <= laid


def test_a_legal_play_is_committed_as_legal_and_survives_a_lost_tag(tmp_path: Path) -> None:
    at = table_at(tmp_path, propaganda_phase)
    tag = at.cards.play(at.state.active, "Propaganda")
    laid = at.cards.reading()
    lost = {**laid, "centre": ((), 0)}
    frames = [_reading(laid), _reading(lost), _reading(laid), _reading(laid), _reading(laid)]
    decision = _decided(at, frames)
    assert decision.committed, decision
    assert decision.explanation is not None
    assert decision.explanation.kind is ExplanationKind.LEGAL
    assert decision.position["centre"] == ((tag,), 0)


def test_a_card_the_game_cannot_take_is_never_committed_as_legal(tmp_path: Path) -> None:
    at = table_at(tmp_path, propaganda_phase)
    other = 1 - at.state.active
    playable = {action.card for action in at.state.legal_actions(other) if isinstance(action, Play)}
    assert "Propaganda" not in playable, "not the other seat's turn"
    at.cards.play(other, "Propaganda")
    frames = [_reading(at.cards.reading())] * 5
    decision = _decided(at, frames)
    assert decision.committed and decision.explanation is not None
    assert decision.explanation.kind is ExplanationKind.OTHER, "as seen: the judge refuses it"


def test_a_play_under_a_hand_is_not_committed(tmp_path: Path) -> None:
    at = table_at(tmp_path, propaganda_phase)
    at.cards.play(at.state.active, "Propaganda")
    frames = [_reading(at.cards.reading(), doubtful=("centre",))] * 6
    assert not _decided(at, frames).committed


def test_a_resolved_card_moved_to_its_pile_is_legal_and_a_play_taken_back_too(
    tmp_path: Path,
) -> None:
    at = table_at(tmp_path, propaganda_phase)
    active, other = at.state.active, 1 - at.state.active
    tag = at.cards.play(active, "Propaganda")
    at.see()
    explained = at.table.explanations
    assert isinstance(explained, Explanations)
    back = [o for o in explained.options if o.kind is ExplanationKind.TAKE_BACK]
    assert [o.changes for o in back] == [{"centre": ((), 0)}], "the play taken back"
    at.press(other)
    at.press(active)
    assert not at.state.stack, "the Propaganda resolved"
    at.cards.resolve(tag, active)
    decision = _decided(at, [_reading(at.cards.reading())] * 4)
    assert decision.committed and decision.explanation is not None
    assert decision.explanation.kind is ExplanationKind.LEGAL
    assert decision.position[f"seat{active + 1}"][0] == (tag,)
