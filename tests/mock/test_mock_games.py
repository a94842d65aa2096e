"""End to end: seeded mock-table games finish; the journal holds exactly the legal moves made."""

from __future__ import annotations

from pathlib import Path

from tests.mock.helpers import journal_games, play

GAMES = 50


def test_fifty_games_journal_exactly_the_legal_moves_the_people_made(tmp_path: Path) -> None:
    played = play(tmp_path, "--games", str(GAMES), "--seed", "5", "--undo-rate", "0.005")
    people = played.people
    assert people.finished, played.reason
    games = journal_games(tmp_path)
    assert [status for status, _ in games] == ["finished"] * GAMES
    for log, (_, actions) in zip(people.played, games, strict=True):
        assert actions == log.moves
    assert sum(log.illegal for log in people.played) >= 10, "illegal tries must happen"
    assert sum(log.undos for log in people.played) >= 1, "undos must happen"


def test_a_game_read_from_rendered_frames_journals_exactly_the_moves(tmp_path: Path) -> None:
    played = play(
        tmp_path, "--camera", "render", "--size", "560x420", "--seed", "3", "--illegal-rate", "0.2"
    )
    assert played.people.finished, played.reason
    ((status, actions),) = journal_games(tmp_path)
    assert status == "finished"
    assert actions == played.people.played[0].moves
    assert played.people.played[0].illegal >= 1
