"""The typefaces the letter model trains on, and the reserved ones it must never see.

Fonts are TrueType/OpenType files from the system's Debian font packages. The
Liberation, URW base35 (Nimbus, C059, P052, ...), TeX Gyre and GNU FreeFont
families are reserved for held-out measurement: :func:`refuse_reserved` raises for
any of them, by file path or family name, and every corpus function calls it.
A few families (:data:`DEVELOPMENT_FAMILIES`) are kept for tuning and tests, never
trained on; of the rest, a share of families (:func:`is_validation`) is held back
to fit the temperature and report validation figures.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.layout import LETTERS

FONT_ROOTS = (Path("/usr/share/fonts"), Path("/usr/share/texmf/fonts/opentype"))
"""Where the Debian font packages put their files."""

RESERVED_PATTERNS = (
    "liberation",
    "nimbus",
    "urw",
    "gsfonts",
    "gyre",
    "freefont",
    "freesans",
    "freeserif",
    "freemono",
    "c059",
    "p052",
    "d050000l",
    "z003",
    "standardsymbols",
    "arimo",
    "tinos",
    "cousine",
)
"""Lower-case fragments of a reserved font's path or name (spaces, dashes and underscores
removed). Arimo, Tinos and Cousine are Liberation 2's own designs under other names."""

DEVELOPMENT_FAMILIES = ("go", "charissil", "karla")
"""Families (file-name prefixes, normalised) kept for tuning and tests: never trained on."""

VALIDATION_SHARE = 0.15
"""About this share of the training families is held back for validation and temperature."""


class ReservedFontError(ValueError):
    """A reserved (held-out) typeface was offered for training or tuning."""


def _normalised(text: str) -> str:
    return re.sub(r"[\s_\-.]+", "", text.lower())


def is_reserved(name: str | Path) -> bool:
    """True for a path or family name of a reserved typeface (Liberation, URW base35, TeX Gyre,
    GNU FreeFont): 'DejaVu Math TeX Gyre' is reserved too."""
    text = _normalised(str(name))
    return any(pattern in text for pattern in RESERVED_PATTERNS)


def refuse_reserved(name: str | Path) -> None:
    """Raise :class:`ReservedFontError` for a reserved typeface, naming it."""
    if is_reserved(name):
        raise ReservedFontError(
            f"{name}: a reserved typeface (Liberation, URW base35, TeX Gyre, GNU FreeFont) "
            "is kept for held-out measurement and is never trained or tuned on"
        )


def family_of(path: Path) -> str:
    """A font file's family key: its file name up to the first style word, normalised."""
    stem = _normalised(path.stem.split("-")[0])
    return re.sub(r"(regular|bold|italic|oblique|light|medium|thin|black)+$", "", stem) or stem


def is_development(path: Path) -> bool:
    """A font of a development family (tuning and tests only)."""
    family = family_of(path)
    return family == "go" or family.startswith(DEVELOPMENT_FAMILIES[1:])


def is_validation(path: Path) -> bool:
    """A training-pool font whose family is held back for validation (by a stable hash)."""
    digest = hashlib.sha256(family_of(path).encode()).digest()
    return digest[0] < 256 * VALIDATION_SHARE


@dataclass(frozen=True)
class FontFile:
    """One usable typeface file."""

    path: Path

    @property
    def name(self) -> str:
        return self.path.stem


def _all_files(roots: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            files += [p for p in root.rglob("*") if p.suffix.lower() in (".ttf", ".otf")]
    return sorted(set(files))


def checked(paths: Iterable[Path]) -> list[FontFile]:
    """The paths as fonts, refusing any reserved one (ReservedFontError)."""
    fonts = []
    for path in paths:
        refuse_reserved(path)
        fonts.append(FontFile(Path(path)))
    return fonts


@cache
def fingerprint(path: Path) -> np.ndarray | None:
    """The 26 capitals drawn small (26, 256) float32, or None when the font cannot draw 26
    distinct capital letters (symbols, '?' boxes)."""
    try:
        face = cv2.FontFace(str(path))
    except cv2.error:
        return None
    masks = []
    for letter in LETTERS:
        canvas = np.zeros((64, 64), np.uint8)
        try:
            cv2.putText(canvas, letter, (8, 52), 255, face, 44)
        except cv2.error:
            return None
        if canvas.max() == 0:
            return None
        masks.append(cv2.resize(canvas, (16, 16), interpolation=cv2.INTER_AREA).astype(np.float32))
    stacked = np.stack(masks).reshape(26, -1)
    gaps = np.abs(stacked[:, None] - stacked[None]).mean(axis=2) + np.eye(26) * 1e9
    return stacked if gaps.min() > 0.5 else None


def letters_render(path: Path) -> bool:
    """True when the font draws 26 distinct capital letters."""
    return fingerprint(path) is not None


SAME_DESIGN = 1.5
"""Two fonts whose small capitals differ by less than this (mean absolute, 0..255) are one
design (a glyph fallback, an optical size of the same face): only the first is kept."""


def _distinct(paths: list[Path]) -> list[Path]:
    kept: list[Path] = []
    prints: list[np.ndarray] = []
    for path in paths:
        print_ = fingerprint(path)
        if print_ is None:
            continue
        if prints and min(np.abs(other - print_).mean() for other in prints) < SAME_DESIGN:
            continue
        kept.append(path)
        prints.append(print_)
    return kept


def corpus(roots: Iterable[Path] = FONT_ROOTS) -> dict[str, list[FontFile]]:
    """The system's usable fonts split into 'train', 'validation' and 'development'.

    Reserved fonts are left out here (never opened); :func:`checked` refuses them.
    """
    split: dict[str, list[FontFile]] = {"train": [], "validation": [], "development": []}
    for path in _distinct([p for p in _all_files(roots) if not is_reserved(p)]):
        if is_development(path):
            split["development"].append(FontFile(path))
        elif is_validation(path):
            split["validation"].append(FontFile(path))
        else:
            split["train"].append(FontFile(path))
    for fonts in split.values():
        checked(font.path for font in fonts)
    return split
