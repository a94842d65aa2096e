"""C.O.G.'s final scoring and the winner: VPs, incomplete goal cards, item majorities, letters.

Every tie is broken by the final turn order (the cogs placed on the turn-order
track in the last round). The functions take a position's mats and order, so
a position can be scored without playing to the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cog.base import CogBase
from games.cog.mat import Mat
from games.core import Outcome


def incomplete_goal_score(mat: Mat) -> int:
    """1 VP per completed word and 1 per letter in it, on each incomplete goal card."""
    return sum(1 + len(word) for word in mat.cubes)


def item_scores(mats: Sequence[Mat], final_order: Sequence[int]) -> list[int]:
    """Most item cards: 3 + 3 each; second: 2 + 2 each (2 players: 2 each); others 1 each."""
    rank = {player: index for index, player in enumerate(final_order)}
    counts = [len(mat.items) for mat in mats]
    scores = list(counts)
    ranked = sorted(range(len(mats)), key=lambda p: (-counts[p], rank[p]))
    first, second = ranked[0], ranked[1]
    if counts[first]:
        scores[first] = 3 + 3 * counts[first]
    if counts[second]:
        extra = 0 if len(mats) == 2 else 2
        scores[second] = extra + 2 * counts[second]
    return scores


def final_scores(mats: Sequence[Mat], final_order: Sequence[int]) -> list[dict[str, int]]:
    """Each player's score by source (vp, goals, items, letters) and their total."""
    items = item_scores(mats, final_order)
    scores = [
        {
            "vp": mat.vp,
            "goals": incomplete_goal_score(mat),
            "items": items[player],
            "letters": len(mat.reserve) // 2,
        }
        for player, mat in enumerate(mats)
    ]
    for entry in scores:
        entry["total"] = sum(entry.values())
    return scores


def winner_of(totals: Sequence[int], final_order: Sequence[int]) -> Outcome:
    """The most points wins; a tie goes to the earlier final turn order."""
    rank = {player: index for index, player in enumerate(final_order)}
    winner = min(range(len(totals)), key=lambda p: (-totals[p], rank[p]))
    tied = totals.count(totals[winner]) > 1
    reason = "most victory points" + (" (tie broken by turn order)" if tied else "")
    return Outcome((winner,), tuple(float(t) for t in totals), reason)


class Scoring(CogBase):
    """The end of the game: the final turn order, the scores, the outcome."""

    def final_order(self) -> list[int]:
        """Turn order from the final cog placement (used for every tie-break)."""
        placed = [p for p in self.turn_cogs if p is not None]
        return placed + [p for p in self.order if p not in placed]

    def _finish_game(self) -> None:
        self.phase = "over"
        self.queue = []
        self.final = final_scores(self.mats, self.final_order())

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        return winner_of([entry["total"] for entry in self.final], self.final_order())
