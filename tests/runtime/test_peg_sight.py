"""The disk's sight tells the table what the board does: commits, and why there is none."""

from __future__ import annotations

from collections.abc import Iterator

from cogtable.commit_decision import Decision, DecisionKind
from cogtable.inputs import BoardSettled, BoardUnsettled
from cogtable.sights.camera import CameraPart
from cogtable.sights.peg_disk import PegSight
from vision.peg_disk.settle import BoardState, SettleStatus


class Scripted:
    """A settling filter that answers each frame with the next of a list of statuses."""

    def __init__(self, statuses: list[SettleStatus]) -> None:
        self.statuses: Iterator[SettleStatus] = iter(statuses)

    def update(self, reading: object) -> SettleStatus:
        return next(self.statuses)


def _unsure(*places: tuple[int, int]) -> SettleStatus:
    message = Decision(DecisionKind.UNSURE, deciding=places).message("peg")
    return SettleStatus(BoardState.UNSURE, None, message=message)


def _sent(statuses: list[SettleStatus]) -> list[object]:
    offered: list[object] = []
    sight = PegSight(
        lambda item, seen_at=None: offered.append(item),
        CameraPart(lambda item: None),
        lambda: 0.0,
        lambda: None,
    )
    sight.settle = Scripted(statuses)
    for _ in statuses:
        sight.see("a reading the mock's camera made", 0.0)
    return offered


def test_an_unsure_board_names_the_pegs_in_doubt_now() -> None:
    """Still unsure, but about other pegs: the table is told again (it names them to the
    players); the same doubt frame after frame is told once."""
    moving = SettleStatus(BoardState.MOVING, None, message="waiting for the board to settle")
    offered = _sent([moving, _unsure((8, 0)), _unsure((8, 0)), _unsure((3, 1), (4, 2))])
    reasons = [item.reason for item in offered if isinstance(item, BoardUnsettled)]
    assert reasons[0] == "moving"
    assert len(reasons) == 3, reasons
    assert "8,0" in reasons[1] and "3,1" in reasons[2] and "8,0" not in reasons[2]


def test_a_board_settled_again_after_doubt_is_sent_once() -> None:
    settled = SettleStatus(BoardState.SETTLED, {(9, 0): "red"}, new_commit=True)
    still = SettleStatus(BoardState.SETTLED, {(9, 0): "red"})
    offered = _sent([_unsure((8, 0)), settled, still, _unsure((8, 0))])
    kinds = [type(item) for item in offered]
    assert kinds == [BoardUnsettled, BoardSettled, BoardUnsettled], kinds
