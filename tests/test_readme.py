"""The README's quick start stays true: CI runs its test command verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_start_commands() -> list[str]:
    """The shell commands in the README's quick start section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```sh\n(.+?)\n```", section, flags=re.MULTILINE | re.DOTALL)


def test_quick_start_has_exactly_two_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in command for command in commands)


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    test_command = quick_start_commands()[1]
    assert "pytest" in test_command
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci_lines
