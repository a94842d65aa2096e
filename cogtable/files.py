"""A command's output files: all of them checked before any is written, each written atomically.

A command that writes files (``calibrate``'s calibration and overlay,
``export --out``, ``board print --out``) first asks :func:`check_output` about
every one of them, before it does any slow or irreversible work, and at the
end hands them all to :func:`write_files`. That writes each to a temporary
file in the target's own folder and only then renames them into place
(``os.replace``), so a command that fails leaves nothing behind: no first
file of two, no half file, no temporary file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cogtable.errors import UserError


@dataclass(frozen=True)
class Output:
    """One file a command writes: where, and its bytes."""

    path: Path
    data: bytes


def check_output(path: Path) -> None:
    """Refuse, before anything is written, a path that cannot become a file.

    A folder, a path in a folder that does not exist (or is a file), or a
    folder this user may not write to is a :class:`UserError` naming the path.
    """
    if path.is_dir():
        raise UserError(f"cannot write {path}: it is a folder; give a file name")
    folder = _folder_of(path)
    if not folder.exists():
        raise UserError(f"cannot write {path}: there is no folder {folder}")
    if not folder.is_dir():
        raise UserError(f"cannot write {path}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"cannot write {path}: the folder {folder} is not writable")


def write_files(outputs: Sequence[Output]) -> None:
    """Write every output or none of them; a failure is a :class:`UserError` naming the file.

    Every path is checked first; then every file is written to a temporary
    beside it (flushed to disk); then each is renamed over its target.
    Temporaries are removed whatever happens.
    """
    for output in outputs:
        check_output(output.path)
    temporaries: list[Path] = []
    current = outputs[0].path if outputs else Path()
    try:
        for output in outputs:
            current = output.path
            temporaries.append(_write_temporary(output))
        for output, temporary in zip(outputs, temporaries, strict=True):
            current = output.path
            os.replace(temporary, output.path)
    except OSError as error:
        raise UserError(f"cannot write {current}: {error.strerror or error}") from error
    finally:
        for temporary in temporaries:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)


def write_file(path: Path, data: bytes) -> None:
    """Write one file atomically (see :func:`write_files`)."""
    write_files([Output(path, data)])


def _folder_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _write_temporary(output: Output) -> Path:
    """``output``'s bytes in a new hidden file beside its target, with the target's mode."""
    target = output.path
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    mode = target.stat().st_mode & 0o7777 if target.is_file() else 0o666  # less the umask
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(output.data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def ensure_folder(path: Path, what: str) -> Path:
    """The folder ``path``, created (with its parents) if needed; else a one-line UserError.

    ``what`` names it in the message ("the state folder").
    """
    check_folder(path, what)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot use {path} as {what}: {error.strerror or error}") from error
    return path


def check_folder(path: Path, what: str) -> None:
    """Refuse, before anything is created, a ``path`` that is a file (a missing one is fine)."""
    if path.exists() and not path.is_dir():
        raise UserError(f"cannot use {path} as {what}: it is a file, not a folder")
    if not path.exists() and path.parent.exists() and not path.parent.is_dir():
        raise UserError(f"cannot use {path} as {what}: {path.parent} is a file, not a folder")


def read_text(path: Path, limit: int, what: str) -> str:
    """The UTF-8 text of a file a person named; OSError if it holds more than ``limit`` bytes.

    At most ``limit`` + 1 bytes are read, so that a device or a huge file
    (``/dev/zero``, a video named as a record) is refused at once instead of
    being read into memory. ``what`` names what the file should have been.
    The callers already report OSError and UnicodeDecodeError in one line.
    """
    with path.open("rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise OSError(f"it holds over {limit // 1024 // 1024} MiB: too big to be {what}")
    return data.decode("utf-8")
