"""The examples in the Kogworks camera modules' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "name",
    [
        "vision.peg_disk.parallax",
        "vision.sharpness",
        "vision.peg_disk.scene_conditions",
        "vision.peg_disk.renderer",
        "cogtable.camera_check",
    ],
)
def test_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
