"""Every constant's docstring stands right under the constant it describes.

A docstring string under a module constant (or a class attribute) documents
that name only if it follows its assignment at once. A new constant inserted
between a constant and its docstring leaves two strings in a row: the second
documents nothing and the first constant loses its words (it happened to
``CONFIG_PATH``, ``CHOICE_SHOWN_SECONDS`` and ``PATIENCE_FRAMES``).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "vision", "hardware", "firmware_bridge", "cogtable", "benchmarks")


def strings_in_a_row(tree: ast.Module) -> list[int]:
    """Line numbers of bare strings that follow another bare string in one body."""
    bodies = [tree.body] + [node.body for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    return [
        second.lineno
        for body in bodies
        for first, second in itertools.pairwise(body)
        if _is_bare_string(first) and _is_bare_string(second)
    ]


def _is_bare_string(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def test_the_check_finds_a_docstring_left_behind_and_passes_one_in_place() -> None:
    left_behind = "PATH = 'x'\nLIMIT = 2\n'The limit.'\n'The path.'\n"
    in_place = "PATH = 'x'\n'The path.'\nLIMIT = 2\n'The limit.'\n"
    assert strings_in_a_row(ast.parse(left_behind)) == [4]
    assert strings_in_a_row(ast.parse(in_place)) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_docstring_is_left_behind_by_a_constant_put_in_between(package: str) -> None:
    stray = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line in strings_in_a_row(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert stray == []
