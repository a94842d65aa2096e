"""Cabinet cards in words (``describe_card``), as the terminal shows them."""

from __future__ import annotations

import pytest

from games.cog.edition import describe_card, describe_icons, load_edition


def _card_named(name: str) -> str:
    card = next(card for card in load_edition().cabinet if card.name == name)
    return describe_card(card)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Clamp", "Clamp: item CLAMP (missing A M; bonus 5 VP)"),
        ("Rod", "Rod: item ROD (missing R; bonus a letter from the bag and 1 VP)"),
        ("Black lamp", "Black lamp: once a round with the black die, a star and 1 VP"),
        ("Even spark", "Even spark: once a round with a die showing 4 or 6, 2 stars"),
        ("Star burst", "Star burst: when taken, 3 stars"),
        ("Hex key", "Hex key: H, P and K are always wild"),
    ],
)
def test_cards_read_as_printed_in_cog_toml(name: str, words: str) -> None:
    assert _card_named(name) == words


def test_icons_are_counted_and_vps_summed() -> None:
    assert describe_icons(("centre", "centre", "vp1", "vp2")) == "2 centre letters and 3 VP"
    assert describe_icons(("cabinet",)) == "a cabinet card"
    assert describe_icons(()) == "nothing"


def test_every_card_of_the_edition_has_words_without_icon_names() -> None:
    for card in load_edition().cabinet:
        text = describe_card(card)
        assert text.startswith(f"{card.name}: ")
        assert not any(icon in text for icon in ("vp", "cabinet,", "timing", "#"))
