"""The command line: help, version, and errors without tracebacks."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cogtable
from cogtable.cli import command_modules, main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"cogtable {cogtable.__version__}"


def test_help_lists_every_subcommand_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    modules = command_modules()
    assert modules, "no subcommands found"
    for module in modules:
        assert module.NAME in out
        assert module.HELP.split()[0] in out


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "commands" in capsys.readouterr().out


def test_console_script_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cogtable", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cogtable ")
