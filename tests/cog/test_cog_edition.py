"""The edition data validator: the shipped file passes, broken copies are named."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from cogtable.cli import main
from games import cog
from games.cog.edition import EditionError, load_edition, parse_edition

TEXT = resources.files("games.cog").joinpath("cog.toml").read_text("utf-8")


def test_shipped_edition_matches_the_rulebook_counts() -> None:
    edition = load_edition()
    assert sum(edition.tiles.values()) == 120 and sum(edition.spares.values()) == 16
    assert len(edition.cabinet) == 42 and len(edition.goals) == 6
    assert {"black", "aqua"} <= set(edition.dice) and len(edition.grid_bonus) == 8
    assert sorted(c.wild for c in edition.cabinet if c.timing == "always") == ["BCG", "HPK", "TWY"]
    assert "PLACEHOLDER" in TEXT


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ("A = 10, B = 3", "A = 11, B = 3", "letters.tiles holds 121 tiles"),
        ("A = 2, E = 2, I = 1", "A = 2, E = 2, I = 2", "letters.spares holds 17"),
        ('dice = ["black", "aqua"', 'dice = ["grey", "aqua"', "lacks the black die"),
        ('words = ["COG", "GEAR", "AXLE"]', 'words = ["COG", "GEAR", "ROD"]', "two cards"),
        (
            'cost = "black", timing = "round", powers = ["vp3"]',
            'cost = "black", timing = "round", powers = ["vp9"]',
            "cabinet card 0 (Black gauge)",
        ),
        ('wild = "HPK"', 'wild = "HPQ"', "always-wild"),
        (
            'word = "COG", missing = ["O"]',
            'word = "COGS", missing = ["O"]',
            "cabinet card 27 (Cog)",
        ),
        ('word = "GEAR", missing = ["E"]', 'word = "GEAR", missing = ["Z"]', "not in GEAR"),
        ("{ row = 0, col = 2,", "{ row = 9, col = 2,", "grid.bonus[0] lies outside"),
        ("rows = 8", "rows = 7", "grid.rows must be even"),
        ('icons = ["star"] },      # PLACEHOLDER', 'icons = ["sun"] },', "unknown icon 'sun'"),
    ],
)
def test_broken_entries_are_named(old: str, new: str, named: str) -> None:
    assert old in TEXT, old
    with pytest.raises(EditionError, match=re.escape(named)):
        parse_edition(TEXT.replace(old, new, 1), "mine.toml")


def test_a_missing_cabinet_card_is_counted() -> None:
    start = TEXT.index('    { name = "Chain"')
    end = TEXT.index("\n", start) + 1
    with pytest.raises(EditionError, match="41 cards; the rulebook says 42"):
        parse_edition(TEXT[:start] + TEXT[end:])


def test_garbage_toml_is_a_clear_error() -> None:
    with pytest.raises(EditionError, match="not valid TOML"):
        parse_edition("tiles = [", "mine.toml")


def test_a_table_owners_copy_is_used_and_checked(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text(TEXT.replace('"CRANK", "GASKET"', '"CRANK", "SEAL"'))
    state = cog.new_game({"players": 2, "edition": str(good)}, 0)
    assert state.ed.goal(6).words == ("PISTON", "CRANK", "SEAL")
    bad = tmp_path / "bad.toml"
    bad.write_text(TEXT.replace("centre_squares = 4", "centre_squares = 0"))
    with pytest.raises(EditionError, match="centre_squares"):
        cog.new_game({"players": 2, "edition": str(bad)}, 0)


def test_the_command_line_reports_a_bad_edition_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(TEXT.replace("rows = 8", "rows = 7"))
    assert main(["play", "cog", "--seats", "random,random", "--edition", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "grid.rows must be even" in err
