"""The letter model's typeface corpus: reserved typefaces are refused by name, never trained on."""

from __future__ import annotations

from pathlib import Path

import pytest

from training.letters.fonts import (
    ReservedFontError,
    checked,
    corpus,
    is_development,
    is_reserved,
    is_validation,
    refuse_reserved,
)
from training.letters.tiles import Typeface
from training.letters.train import typefaces

RESERVED = (
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    "/usr/share/fonts/type1/gsfonts/n019003l.pfb",
    "/usr/share/fonts/opentype/urw-base35/C059-Roman.otf",
    "/usr/share/fonts/opentype/urw-base35/P052-Italic.otf",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheros-regular.otf",
    "/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
    "FreeSerif",
    "TeX Gyre Pagella",
    "Nimbus Roman",
    "Liberation Mono",
)


@pytest.mark.parametrize("name", RESERVED)
def test_every_reserved_typeface_is_refused_by_name(name: str) -> None:
    assert is_reserved(name)
    with pytest.raises(ReservedFontError, match="reserved typeface"):
        refuse_reserved(name)
    with pytest.raises(ReservedFontError):
        checked([Path(name)])
    with pytest.raises(ReservedFontError):
        Typeface(Path(name))


def test_the_training_script_refuses_a_reserved_font_it_is_given() -> None:
    from training.letters.fonts import FontFile

    liberation = FontFile(Path("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"))
    with pytest.raises(ReservedFontError, match="LiberationSans-Bold"):
        typefaces([liberation])


@pytest.mark.parametrize(
    "name", ["DejaVuSans.ttf", "Roboto-Regular.ttf", "Lato-Black.ttf", "Go-Regular.ttf"]
)
def test_ordinary_typefaces_are_not_reserved(name: str) -> None:
    assert not is_reserved(name)
    refuse_reserved(name)


def test_the_corpus_holds_no_reserved_font_and_keeps_development_fonts_out_of_training() -> None:
    split = corpus()
    everything = [font.path for fonts in split.values() for font in fonts]
    assert not [path for path in everything if is_reserved(path)]
    assert not [font for font in split["train"] if is_development(font.path)]
    assert not [font for font in split["train"] if is_validation(font.path)]
    assert all(is_development(font.path) for font in split["development"])
