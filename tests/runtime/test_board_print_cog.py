"""``cogtable board print cog``: marker stickers and part maps (tiled when bigger than the
paper), to scale, as PDF or PNG pages."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from cogtable.cli import main
from vision.markers import dictionary

MARKERS = 4 + 4 * 4
"""The board's four stickers and four on each of the four mats."""


def test_a_pdf_holds_the_sticker_pages_then_a_map_of_each_part(tmp_path: Path) -> None:
    out = tmp_path / "cog.pdf"
    assert main(["board", "print", "cog", "--out", str(out), "--dpi", "60"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    pages = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    # 2 sticker pages; the 400 mm board tiled 3 x 2 on A4 after its page map; each 265 x 185 mm
    # mat, too big for one A4 page, tiled 2 x 1 after its page map
    assert len(pages) == 2 + (1 + 6) + 4 * (1 + 2)
    portrait = pages[0]
    assert abs(float(portrait[0]) - 595.28) < 1 and abs(float(portrait[1]) - 841.89) < 1  # A4


def test_png_pages_carry_every_marker_once_readable_and_to_scale(tmp_path: Path) -> None:
    out = tmp_path / "cog.png"
    assert main(["board", "print", "cog", "--out", str(out), "--paper", "letter"]) == 0
    stickers = [cv2.imread(str(tmp_path / f"cog-{n}.png")) for n in (1, 2)]
    found: list[int] = []
    detector = cv2.aruco.ArucoDetector(dictionary())
    for page in stickers:
        _, ids, _ = detector.detectMarkers(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY))
        found += [] if ids is None else [int(i) for i in np.ravel(ids)]
    assert sorted(found) == [*range(10, 14), *range(20, 36)]
    assert len(found) == MARKERS
    height_px = stickers[0].shape[0]
    assert abs(height_px / 150 * 25.4 - 279.4) < 1  # Letter, at the default 150 dpi


def test_a_bad_output_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["board", "print", "cog", "--out", str(tmp_path / "cog.jpg")]) == 2
    assert "name a .pdf or a .png" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
