"""Kogworks has no chance: the table only waits for the mover's choice."""

from __future__ import annotations

from games.kogworks import new_game, parse


def test_requests_are_one_choice_for_the_mover_with_the_legal_moves() -> None:
    state = new_game()
    (request,) = state.requests()
    assert (request.kind, request.player, request.purpose) == ("choice", 0, "Red's choice")
    assert [option.action for option in request.options] == list(state.legal_actions(0))
    assert len(request.options) == 52
    assert request.option("+9.1") == parse("+9.1", 0)
    assert request.default is None
    assert all(option.probability is None for option in request.options)
    state.apply(parse("+9.1", 0))
    (reply,) = state.requests()
    assert (reply.player, reply.purpose) == (1, "Blue's choice")
    assert reply.labels() == [action.notation() for action in state.legal_actions(1)]
