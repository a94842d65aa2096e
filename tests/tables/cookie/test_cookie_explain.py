"""The Cookie card mat's explanations: the seat zones free among what the game allows there.

Each table is a journaled game put in sync by one look (the helpers' :class:`Mat`);
the explanations are those the table publishes for the camera thread, the decision
the shared one on the card evidence of frames read off the mat as it lies.
"""

from __future__ import annotations

from pathlib import Path

from cogtable.commit_decision import DecisionKind, ExplanationKind
from cogtable.tables.cookie.cards import set_card, set_tags, tag_of
from tests.tables.card_frames import decided, mat_reading
from tests.tables.cookie.cookie_helpers import MAT, Mat, cookie_table, hunt_options
from vision.cards.reader import CardMatReading

FIRST_TURN = {0: "Sword", 1: "Cookie", 2: "Shield", 3: "Blue"}


def _frames(mat: Mat, count: int = 4, doubtful: tuple[str, ...] = ()) -> list[CardMatReading]:
    return [mat_reading(MAT, mat.reading(), doubtful)] * count


def test_every_seat_laying_its_card_at_once_is_committed_and_the_game_narrows_it(
    tmp_path: Path,
) -> None:
    at = cookie_table(tmp_path, hunt_options())
    explained = at.table.explanations
    assert explained is not None
    assert set(explained.free) == {"seat1", "seat2", "seat3", "seat4", "centre"}
    for seat in range(4):
        allowed = explained.free[f"seat{seat + 1}"]
        assert max(backs for _ids, backs in allowed) == 1, "one card face down a seat"
        faces = {tag for ids, _backs in allowed for tag in ids}
        assert faces <= set(set_tags(seat)), "its own cards only, while nothing is to aim"
    mat = Mat.of(at.state)
    for seat in range(4):
        mat.place(seat)
    decision = decided(explained, _frames(mat))
    assert decision.committed, decision
    assert all(decision.position[f"seat{seat + 1}"] == ((), 1) for seat in range(4))


def test_two_backs_in_one_zone_are_committed_only_as_seen(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    mat.place(0)
    mat.place(0)
    decision = decided(at.table.explanations, _frames(mat))
    assert decision.committed and decision.explanation is not None
    assert decision.explanation.kind is ExplanationKind.OTHER


def test_a_hand_over_a_zone_holds_the_mat_back_only_where_something_may_change(
    tmp_path: Path,
) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    mat.place(1)
    under = decided(at.table.explanations, _frames(mat, doubtful=("seat2",)))
    assert under.kind is not DecisionKind.COMMIT, "a seat that may lay its card: wait"
    nobody = decided(at.table.explanations, _frames(mat, doubtful=("seat6",)))
    assert nobody.committed, "nothing may change in the zone of a seat nobody plays"
    assert nobody.position["seat2"] == ((), 1)


def test_the_cards_turned_up_are_committed_each_in_its_seats_zone(tmp_path: Path) -> None:
    at = cookie_table(tmp_path, hunt_options())
    mat = Mat.of(at.state)
    for seat in range(4):
        mat.place(seat)
    at.see(mat)
    for seat, name in FIRST_TURN.items():
        mat.turn_up(seat, name)
    lost = mat_reading(MAT, {**mat.reading(), "seat1": ((), 0)})
    frames = [*_frames(mat, 2), lost, *_frames(mat, 2)]
    decision = decided(at.table.explanations, frames)
    assert decision.committed, decision
    for seat, name in FIRST_TURN.items():
        assert decision.position[f"seat{seat + 1}"] == ((tag_of(set_card(name, seat)),), 0)
