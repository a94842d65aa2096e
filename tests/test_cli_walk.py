"""Every subcommand, fed every kind of bad input that applies to it.

Each case asserts: exit status 2, exactly one line on stderr naming what is
wrong, no traceback, and nothing created or changed in the case's folder.
The subcommands are listed from the CLI parser, so a new one fails
:func:`test_every_subcommand_is_walked` until its cases are added (in
:mod:`tests.cli_walk_cases`), and every whole-number or decimal option of
every subcommand is also fed a word (:func:`test_every_number_option_refuses_a_word`)
without being listed.

Kinds of bad input: a missing file, a garbage file, a binary file, a folder
where a file belongs, wrong types (well-formed, wrong values), absurd
numbers, an output that cannot be written, and a read-only state folder (as
root, run by a forked child that became ``nobody``: see tests/unprivileged.py).
Everything runs in-process; the whole walk takes a few seconds.
"""

from __future__ import annotations

import argparse
import io
import json
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from cogtable.cli import build_parser
from cogtable.journal import Journal
from games.kogworks import Place, peg_at
from hardware.profile import default_profile_path
from tests.cli_walk_cases import (
    BINARY,
    GARBAGE,
    WALKS,
    Case,
)
from tests.unprivileged import READ_ONLY, Snapshot, as_reader, run_cli, shared_folder

# -- the folder every case starts from ----------------------------------------------


def _journal_bytes(folder: Path, action: dict[str, object] | None = None) -> bytes:
    """A journal with one Kogworks game of one move (``action`` replaces the move's JSON)."""
    path = folder / "template.sqlite3"
    with Journal(path) as journal:
        journal.new_game("kogworks", seed=4).apply(Place(peg_at(8, 0), player=0), "camera")
    if action is not None:
        raw = sqlite3.connect(path)
        with raw:
            raw.execute("UPDATE actions SET action = ?", (json.dumps(action),))
        raw.close()  # the last connection checkpoints the WAL into the file
    data = path.read_bytes()
    path.unlink()
    return data


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A sound journal and one whose only action has values of the wrong types."""
    folder = tmp_path_factory.mktemp("journals")
    wrong = {"type": "Place", "peg": "nine", "player": [0]}
    return {"good": _journal_bytes(folder), "wrong": _journal_bytes(folder, wrong)}


STATUS = {"updated": 1.0, "parts": {}, "waiting_for": [{"key": "k1", "player": 0}]}


def _lay_out(d: Path, journals: dict[str, bytes]) -> None:
    """The inputs cases name: files of each kind, and state folders holding each kind."""
    mock = default_profile_path().read_text(encoding="utf-8")
    files: dict[str, str | bytes] = {
        "garbage.txt": GARBAGE,
        "binary.bin": BINARY,
        "afile": "a file, not a folder\n",
        "wrong.toml": mock.replace("resolution = [1280, 720]", 'resolution = "big"'),
        "wrong.json": json.dumps({"game": "kogworks", "options": [], "seed": "x", "actions": 5}),
        "good/journal.sqlite3": journals["good"],
        "good/status.json": json.dumps(STATUS),
        "wrong-journal/journal.sqlite3": journals["wrong"],
        "garbage-journal/journal.sqlite3": GARBAGE,
        "binary-journal/journal.sqlite3": BINARY,
        "empty-journal/journal.sqlite3": b"",
        "garbage-status/status.json": GARBAGE,
        "binary-status/status.json": BINARY,
        "wrong-status/status.json": json.dumps({"updated": "yesterday", "parts": []}),
        "garbage-world/mock-world.json": GARBAGE,
        "binary-world/mock-world.json": BINARY,
        "wrong-world/mock-world.json": json.dumps({"world": {"pieces": 5}, "people": []}),
        **{
            f"wrong-{game}-world/mock-world.json": json.dumps({"game": game, "people": {"x": 1}})
            for game in ("cog", "commissars", "cookie")
        },
        "ro-status/status.json": json.dumps(STATUS),
        "ro-empty-journal/journal.sqlite3": b"",
    }
    for name, content in files.items():
        path = d / name
        path.parent.mkdir(exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="latin-1")
        else:
            path.write_bytes(content)
    for folder in ("folder", "state", "out", "ro-state", "folder-journal/journal.sqlite3"):
        (d / folder).mkdir(parents=True, exist_ok=True)
    for folder in ("folder-status/status.json", "folder-world/mock-world.json"):
        (d / folder).mkdir(parents=True)
    for path in (d, *d.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)


def leaf_commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> Iterator[str]:
    """Every runnable command path of the parser ("service run", "play cog", ...)."""
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subparsers:
        yield " ".join(prefix)
        return
    for name, sub in subparsers[0].choices.items():
        yield from leaf_commands(sub, (*prefix, name))


def leaf_parser(path: str) -> argparse.ArgumentParser:
    """The parser of one command path."""
    parser = build_parser()
    for name in path.split():
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[name]
    return parser


ALL_CASES = [(path, one) for path, cases in WALKS.items() for one in cases]


def test_every_subcommand_is_walked() -> None:
    """A subcommand added to the CLI must get its bad inputs here (or say it takes none)."""
    assert sorted(leaf_commands(build_parser())) == sorted(WALKS)


# -- running a case -------------------------------------------------------------------


@pytest.fixture
def folder(journals: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The case's folder (laid out, readable by ``nobody``), the working directory and HOME."""
    with shared_folder() as d:
        _lay_out(d, journals)
        monkeypatch.chdir(d / "out")
        monkeypatch.setenv("XDG_STATE_HOME", str(d / "xdg"))
        monkeypatch.delenv("STATE_DIRECTORY", raising=False)
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        signals = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)  # service run installs its own
        handlers = {sig: signal.getsignal(sig) for sig in signals}
        try:
            yield d
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)


def _refused(d: Path, argv: tuple[str, ...], read_only: str, expect: str) -> None:
    """Run ``argv`` in ``d``; assert one line, status 2, no traceback, nothing changed."""
    args = [part.replace("{d}", str(d)) for part in argv]
    if read_only:
        run_cli(["profile", "show"])  # imports what the command reads, before any fork
        (d / read_only).chmod(READ_ONLY)
    before = Snapshot.of(d)
    result = as_reader(lambda: run_cli(args)) if read_only else run_cli(args)
    assert "Traceback" not in result.err
    lines = result.error_lines()
    assert result.status == 2, (args, result.status, result.out[-300:], result.err)
    assert len(lines) == 1, (args, result.err)
    assert expect.replace("{d}", str(d)) in lines[0], (args, lines[0])
    assert Snapshot.of(d) == before, args


@pytest.mark.parametrize(
    ("path", "bad"),
    ALL_CASES,
    ids=[f"{path}-{bad.kind}-{i}" for i, (path, bad) in enumerate(ALL_CASES)],
)
def test_bad_input_is_one_line_exit_2_and_changes_nothing(
    folder: Path, path: str, bad: Case
) -> None:
    assert bad.argv[: len(path.split())] == tuple(path.split()), "a case runs its own command"
    _refused(folder, bad.argv, bad.read_only, bad.expect)


NUMBER_TYPES = (int, float)
"""Options of these types take a number; so do the commands' own checked number types."""


def _takes_a_number(action: argparse.Action) -> bool:
    kind = action.type
    named = getattr(kind, "__name__", "").lstrip("_")
    return kind in NUMBER_TYPES or named in ("positive", "rate", "seed", "game_count", "game_id")


NUMBER_OPTIONS = sorted(
    (path, action.option_strings[-1])
    for path in WALKS
    for action in leaf_parser(path)._actions
    if action.option_strings and _takes_a_number(action)
)


def test_the_walk_finds_number_options() -> None:
    assert ("calibrate", "--frames") in NUMBER_OPTIONS
    assert ("sim kogworks", "--seed") in NUMBER_OPTIONS


@pytest.mark.parametrize(("path", "option"), NUMBER_OPTIONS)
def test_every_number_option_refuses_a_word(folder: Path, path: str, option: str) -> None:
    _refused(folder, (*path.split(), option, "many"), "", option)
