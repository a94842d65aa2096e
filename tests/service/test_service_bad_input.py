"""The service's commands refuse what cannot be in one line (exit status 2), creating nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cogtable.service.runner import read_status
from tests.unprivileged import Snapshot, run_cli


def _one_error(result_err: str) -> str:
    lines = result_err.strip().splitlines()
    assert len(lines) == 1, result_err
    assert "Traceback" not in result_err
    return lines[0]


def test_service_run_refuses_a_state_folder_that_cannot_be_made(tmp_path: Path) -> None:
    result = run_cli(["service", "run", "--state-dir", "/proc/nope"])
    assert result.status == 2
    assert _one_error(result.err) == (
        "cogtable service: cannot use /proc/nope as the state folder: No such file or directory"
    )
    assert not os.path.exists("/proc/nope")


def test_service_run_refuses_a_file_as_its_state_folder(tmp_path: Path) -> None:
    file = tmp_path / "a-file"
    file.write_text("mine")
    before = Snapshot.of(tmp_path)
    result = run_cli(["service", "run", "--state-dir", str(file)])
    assert result.status == 2
    assert _one_error(result.err) == (
        f"cogtable service: cannot use {file} as the state folder: it is a file, not a folder"
    )
    assert Snapshot.of(tmp_path) == before


@pytest.mark.parametrize("content", [bytes(range(256)), b"\xff\xfe{", b"\x00" * 64])
def test_status_of_a_binary_status_file_is_one_line(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "status.json").write_bytes(content)
    result = run_cli(["status", "--state-dir", str(tmp_path)])
    assert result.status == 2
    error = _one_error(result.err)
    assert error.startswith("cogtable status: ") and str(tmp_path / "status.json") in error


def test_read_status_names_a_status_that_is_not_text(tmp_path: Path) -> None:
    (tmp_path / "status.json").write_bytes(b"\x80\x81")
    with pytest.raises(Exception, match="does not hold a cogtable status \\(not text\\)"):
        read_status(tmp_path)


@pytest.mark.parametrize("action", ["install", "uninstall"])
@pytest.mark.parametrize("dry_run", [["--dry-run"], []])
def test_service_install_refuses_a_root_that_is_a_file_or_missing(
    tmp_path: Path, action: str, dry_run: list[str]
) -> None:
    file = tmp_path / "a-file"
    file.write_text("mine")
    before = Snapshot.of(tmp_path)
    missing = tmp_path / "no" / "root"
    for root, why in ((file, "it is a file, not a folder"), (missing, "there is no such folder")):
        result = run_cli(["service", action, *dry_run, "--root", str(root)])
        assert result.status == 2
        assert _one_error(result.err) == f"cogtable service: --root {root}: {why}"
        assert result.out == ""
    assert Snapshot.of(tmp_path) == before
