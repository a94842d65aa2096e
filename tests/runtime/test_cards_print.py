"""``cogtable cards print``: one tag sticker per card (its name beside it), the mat's pages,
owners' deck lists, and the tag data shipped with each game."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from cogtable.card_decks import load_deck, owner_deck, parse_deck
from cogtable.cli import main
from cogtable.errors import UserError
from tests.system_tools import system_tool
from vision.cards.tags import BACK_ID, family
from vision.markers import dictionary


def tags_on(page: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(tag id, its image corners) of every card tag found on a printed page."""
    quads, ids, _ = cv2.aruco.ArucoDetector(family()).detectMarkers(
        cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
    )
    if ids is None:
        return []
    return [(int(i), quad.reshape(4, 2)) for i, quad in zip(ids.ravel(), quads, strict=True)]


def name_is_beside(page: np.ndarray, corners: np.ndarray) -> bool:
    """Dark print (the name) lies right of the tag, within its height."""
    x1 = int(corners[:, 0].max())
    y0, y1 = int(corners[:, 1].min()), int(corners[:, 1].max())
    side = x1 - int(corners[:, 0].min())
    beside = page[y0:y1, x1 + side // 8 : x1 + side]
    return bool((beside.min(axis=2) < 100).sum() > 20)


def test_every_cookie_card_has_one_sticker_its_tag_decoding_to_it_and_its_name_beside(
    tmp_path: Path,
) -> None:
    out = tmp_path / "cookie.png"
    assert (
        main(["cards", "print", "cookie", "--paper", "letter", "--dpi", "100", "--out", str(out)])
        == 0
    )
    pages = sorted(tmp_path.glob("cookie-*.png"))
    found = [tag for path in pages for tag in tags_on(cv2.imread(str(path)))]
    deck = load_deck("cookie")
    faces = [(tag_id, corners) for tag_id, corners in found if tag_id != BACK_ID]
    assert sorted(tag_id for tag_id, _ in faces) == sorted(tag.tag_id for tag in deck.tags)
    assert len(found) - len(faces) == len(deck.tags)  # a back sticker for every card
    assert {deck.card(tag_id).name for tag_id, _ in faces} >= {"Cookie", "Sword", "Role: Blue"}
    page = cv2.imread(str(pages[0]))
    assert all(name_is_beside(page, corners) for _, corners in tags_on(page))
    assert abs(page.shape[0] / 100 * 25.4 - 279.4) < 1  # Letter, to scale


def test_the_commissars_pdf_holds_186_stickers_on_a4_pages(tmp_path: Path) -> None:
    out = tmp_path / "commissars.pdf"
    assert main(["cards", "print", "commissars", "--dpi", "100", "--out", str(out)]) == 0
    data = out.read_bytes()
    pages = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    # 18 card stickers a page, then 24 back stickers a page
    assert len(pages) == 11 + 8 and abs(float(pages[0][1]) - 841.89) < 1
    subprocess.run(
        [
            system_tool("pdftoppm"),
            "-r",
            "150",
            "-f",
            "11",
            "-l",
            "12",
            "-png",
            str(out),
            str(tmp_path / "p"),
        ],
        check=True,
    )
    last, backs = (cv2.imread(str(path)) for path in sorted(tmp_path.glob("p*.png")))
    assert [tag_id for tag_id, _ in tags_on(backs)] == [BACK_ID] * 24
    ids = sorted(tag_id for tag_id, _ in tags_on(last))
    assert ids == list(range(180, 186))  # the last page: the six leaders
    deck = load_deck("commissars")
    assert {deck.card(i).deck for i in ids} == {"leaders"}
    assert all(name_is_beside(last, corners) for _, corners in tags_on(last))


def test_an_owners_deck_list_prints_just_those_cards(tmp_path: Path) -> None:
    deck_file = tmp_path / "mine.toml"
    deck_file.write_text('[cards]\n"Propaganda" = 2\n"Computin" = 1\n', encoding="utf-8")
    out = tmp_path / "mine.png"
    assert main(["cards", "print", "commissars", "--deck", str(deck_file), "--out", str(out)]) == 0
    ids = sorted(tag_id for tag_id, _ in tags_on(cv2.imread(str(tmp_path / "mine-1.png"))))
    deck = load_deck("commissars")
    assert [deck.card(i).name for i in ids] == ["Propaganda", "Propaganda", "Computin"]
    backs = [tag_id for tag_id, _ in tags_on(cv2.imread(str(tmp_path / "mine-2.png")))]
    assert backs == [BACK_ID] * 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[cards]\n"Propagandaa" = 2\n', "'Propagandaa' is not a commissars card"),
        ("garbage[", "is not valid TOML"),
        (
            '[cards]\n"Propaganda" = 99\n',
            "Propaganda = 99, but the commissars tag data has 42 tags",
        ),
        ('[cards]\n"Propaganda" = "two"\n', "expected a whole number of copies"),
        ("deck = 1\n", "expected only a \\[cards\\] table"),
    ],
)
def test_a_broken_deck_file_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    deck_file = tmp_path / "bad.toml"
    deck_file.write_text(text, encoding="utf-8")
    out = tmp_path / "out.pdf"
    assert main(["cards", "print", "commissars", "--deck", str(deck_file), "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1 and re.search(message, error)
    assert not out.exists()


def markers_on(path: Path) -> list[int]:
    """The DICT_4X4_50 ids found on a printed page, sorted."""
    page = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY)
    _, ids, _ = cv2.aruco.ArucoDetector(dictionary()).detectMarkers(page)
    return [] if ids is None else sorted(int(i) for i in ids.ravel())


def test_the_mat_prints_to_scale_tiled_then_its_four_marker_stickers(tmp_path: Path) -> None:
    out = tmp_path / "mat.png"
    assert main(["cards", "print", "mat", "--dpi", "100", "--out", str(out)]) == 0
    pages = sorted(tmp_path.glob("mat-*.png"), key=lambda path: int(path.stem.split("-")[1]))
    assert len(pages) == 10  # the page map, 4 x 2 A4 tiles, the stickers
    assert markers_on(pages[0]) == [40, 41, 42, 43]  # the map shows the whole mat
    assert markers_on(pages[-1]) == [40, 41, 42, 43]
    tiles = [markers_on(page) for page in pages[1:-1]]
    assert sorted(i for ids in tiles for i in ids) == [40, 41, 42, 43]  # one corner each


def test_shipped_tag_data_is_checked_naming_the_entry() -> None:
    good = load_deck("commissars")
    assert len({tag.tag_id for tag in good.tags}) == 186
    assert all(tag.tag_id != BACK_ID for tag in good.tags)
    twice = 'game = "cookie"\n[[card]]\nname = "Sword"\nids = [200]\n'
    twice += '[[card]]\nname = "Hill"\nids = [200]\n'
    with pytest.raises(UserError, match=r"card 2 \(Hill\): tag 200 is already Sword's"):
        parse_deck(twice, "cookie", "test.toml")
    with pytest.raises(UserError, match="name = 'Swordd' is not a card of this game"):
        parse_deck('game = "cookie"\n[[card]]\nname = "Swordd"\nids = [1]\n', "cookie", "t")
    with pytest.raises(UserError, match="586 is the card back"):
        parse_deck('game = "cookie"\n[[card]]\nname = "Sword"\nids = [586]\n', "cookie", "t")
    with pytest.raises(UserError, match="cannot read it"):
        owner_deck("cookie", Path("/nonexistent/deck.toml"))


MOCK_PROFILE = Path(__file__).resolve().parents[2] / "hardware" / "profiles" / "mock.toml"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("width_mm = 680\n", "width_mm = -5\n", "cards.width_mm = -5: expected a positive number"),
        ("id = 40\n", "id = 0\n", r"cards.markers = \[0\]: expected ids not used by board"),
        (
            'name = "seat6"\nseat = 6\n',
            'name = "seat6"\nseat = 9\n',
            r"cards.zones\[5\].seat = 9: expected a seat number, 1 to 6",
        ),
        ("x_mm = 340\ny_mm = 245\n", "x_mm = 340\ny_mm = 200\n", r"cards.zones\[\d\] = .*clear of"),
        ('name = "centre"\n', 'name = "seat1"\n', "each zone name once"),
    ],
)
def test_a_bad_cards_section_is_one_line_naming_key_value_and_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, message: str
) -> None:
    text = MOCK_PROFILE.read_text(encoding="utf-8")
    cards_at = text.index("[cards]")
    profile = tmp_path / "bad.toml"
    profile.write_text(text[:cards_at] + text[cards_at:].replace(old, new, 1), encoding="utf-8")
    out = tmp_path / "mat.pdf"
    assert main(["cards", "print", "mat", "--profile", str(profile), "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert re.search(message, error), error
    assert not out.exists()


def test_the_mat_printed_is_the_profiles(tmp_path: Path) -> None:
    text = MOCK_PROFILE.read_text(encoding="utf-8")
    cards_at = text.index("[cards]")
    mine = text[:cards_at] + text[cards_at:].replace("id = 43\n", "id = 47\n", 1)
    profile = tmp_path / "mine.toml"
    profile.write_text(mine, encoding="utf-8")
    out = tmp_path / "mat.png"
    args = ["cards", "print", "mat", "--profile", str(profile), "--dpi", "100", "--out", str(out)]
    assert main(args) == 0
    assert markers_on(tmp_path / "mat-1.png") == [40, 41, 42, 47]
