"""The direction of imports (docs/ARCHITECTURE.md), checked on the source with :mod:`ast`.

Every ``import`` anywhere in a module counts, also inside a function or under
``TYPE_CHECKING``: a circle through a type hint is still a circle for a reader.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cogtable", "games", "vision", "firmware_bridge", "hardware")
GAMES = ("kogworks", "cog", "commissars", "cookie")
TABLE_CORE = (
    "cogtable.table",
    "cogtable.table_display",
    "cogtable.runtime",
    "cogtable.controller",
    "cogtable.sensing",
    "cogtable.screen",
    "cogtable.web",
)
GAME_WORD = re.compile(r"\b(kogworks|commissars|cookie|cog)\b|c\.o\.g\.", re.IGNORECASE)

KNOWN_MOCK_USERS = {
    # The commands that inject the mock: the mock profile's still camera, the self-test's person.
    ("cogtable.commands.service", "cogtable.mock.camera"),
    ("cogtable.selftest_camera", "cogtable.mock.world"),
    ("cogtable.commands.calibrate", "cogtable.mock.teach_frames"),
    ("cogtable.commands.selftest", "cogtable.mock.world"),
    ("cogtable.commands.selftest", "cogtable.mock.people.selftest"),
}
"""Imports of the mock from outside it and the sim command, still to go (shrink only)."""


def module_name(path: Path) -> str:
    """``cogtable/tables/__init__.py`` -> ``cogtable.tables``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of our packages, by dotted name."""
    micropython = ROOT / "firmware_bridge" / "firmware"  # runs on the Pico, not the host
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if not path.is_relative_to(micropython)
    }


def imported(tree: ast.AST, name: str, is_package: bool) -> Iterator[str]:
    """The modules ``tree`` imports (``from a import b`` is ``a.b`` when that is a module)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node, name, is_package)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield full if full in modules() else base


def resolve(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The absolute module a ``from`` import names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    parts = name.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    return ".".join([*parts[:keep], *([node.module] if node.module else [])])


@cache
def graph() -> dict[str, frozenset[str]]:
    """Module -> the modules it imports (anything: ours, the standard library, third party)."""
    edges = {}
    for name, path in modules().items():
        tree = ast.parse(path.read_text(), str(path))
        edges[name] = frozenset(imported(tree, name, path.name == "__init__.py"))
    return edges


def ours(target: str) -> str | None:
    """The module of ours that ``target`` names (or its package), None for anything else."""
    while target and target not in modules():
        target = target.rpartition(".")[0]
    return target or None


def in_package(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(f"{p}.") for p in packages)


def edges(where: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(importer, our imported module) for every importer inside ``where``."""
    for name, targets in graph().items():
        if in_package(name, *where):
            for target in targets:
                if (mine := ours(target)) is not None:
                    yield name, mine


def circles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    local = {
        name: sorted({mine for t in targets if (mine := ours(t)) not in (None, name)})
        for name, targets in graph().items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in local[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while (top := stack.pop()) != node:
                group.append(top)
            group.append(node)
            if len(group) > 1:
                found.append(sorted(group))

    for node in local:
        if node not in index:
            visit(node)
    return found


def test_the_walk_sees_our_modules_and_their_imports() -> None:
    assert {"cogtable.table", "games.core", "vision.frame", "hardware.leds"} <= set(modules())
    assert ("cogtable.table", "games.core") in set(edges(("cogtable.table",)))


def test_no_import_circles() -> None:
    assert circles() == []


def test_games_import_only_the_standard_library_and_games() -> None:
    wrong = {
        (name, target)
        for name, targets in graph().items()
        if in_package(name, "games")
        for target in targets
        if target.split(".")[0] not in {*sys.stdlib_module_names, "games", "__future__"}
    }
    assert wrong == set()


def test_sensor_packages_import_no_other_package_of_ours() -> None:
    for package in ("vision", "firmware_bridge", "hardware"):
        others = tuple(p for p in PACKAGES if p != package)
        wrong = {(n, t) for n, t in edges((package,)) if in_package(t, *others)}
        assert wrong == set(), package


def test_only_the_mock_and_the_sim_command_import_the_mock() -> None:
    wrong = {
        (name, target)
        for name, target in edges(PACKAGES)
        if in_package(target, "cogtable.mock")
        and not in_package(name, "cogtable.mock")
        and not name.startswith(("cogtable.commands.sim", "cogtable.commands._sim"))
    }
    assert wrong <= KNOWN_MOCK_USERS, "new imports of cogtable.mock"
    assert wrong >= KNOWN_MOCK_USERS, "gone: unlist it"


def test_the_simulated_people_never_import_the_referee() -> None:
    wrong = {(n, t) for n, t in edges(("cogtable.mock",)) if in_package(t, "cogtable.tables")}
    assert wrong == set(), "the simulated people decide from what they see, not the referee's code"


def test_the_table_core_names_no_game() -> None:
    kits = tuple(f"cogtable.tables.{game}" for game in GAMES)
    engines = tuple(f"games.{game}" for game in GAMES)
    assert {(n, t) for n, t in edges(TABLE_CORE) if in_package(t, *kits, *engines)} == set()
    assert sorted(game_strings()) == []


def game_strings() -> Iterator[tuple[str, int, str]]:
    """(module, line, text) of each string in the table core naming a game (docstrings aside)."""
    for name, path in modules().items():
        if in_package(name, *TABLE_CORE):
            tree = ast.parse(path.read_text(), str(path))
            docstrings = {id(doc) for doc in docstring_nodes(tree)}
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in docstrings
                    and GAME_WORD.search(node.value)
                ):
                    yield name, node.lineno, node.value


def docstring_nodes(tree: ast.AST) -> Iterator[ast.Constant]:
    """The docstrings of a module, its classes and functions, and of attributes (a string after)."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if (
                isinstance(statement, ast.Expr)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                yield statement.value
