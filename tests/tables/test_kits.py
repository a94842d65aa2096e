"""Every kit in ``cogtable.tables.KITS`` is whole: its game's adapter, a complete front end."""

from __future__ import annotations

import pytest

from cogtable.tables import KITS, adapter_for, front_ends, kit, table_games
from games.core import available_games


@pytest.mark.parametrize("game", sorted(KITS))
def test_a_kit_adapts_the_game_it_is_listed_for(game: str) -> None:
    assert adapter_for(game).game == game
    assert game in available_games()


@pytest.mark.parametrize("game", sorted(KITS))
def test_a_kit_has_a_whole_terminal_front_end(game: str) -> None:
    front_end = front_ends()[game]
    assert isinstance(front_end.HELP, str) and front_end.HELP
    assert all(callable(getattr(front_end, name)) for name in ("add_arguments", "run", "render"))


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="the table knows cog, commissars, cookie, kogworks"):
        kit("chess")
    assert table_games() == ["cog", "commissars", "cookie", "kogworks"]
