"""Run part of a test as a user who may only read a folder, and the command line in-process.

``chmod`` does not stop root, and tests may run as root. Then
:func:`as_reader` runs the function in a forked child that has become the
unprivileged user ``nobody``, so a folder made read-only with ``chmod`` is
really read-only to it. Everything the function needs must already be
imported (the child may not be able to read root's Python installation):
:func:`warm_up` runs a command once first. Without root the function simply
runs here, under ``chmod``'s protection.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import pwd
import shutil
import signal
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from cogtable.cli import main

T = TypeVar("T")
CHILD_TIMEOUT_S = 60
READ_ONLY = stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH


@dataclass(frozen=True)
class CliResult:
    """What one ``cogtable`` command did: its exit status and what it printed."""

    status: int | str | None
    out: str
    err: str

    def error_lines(self) -> list[str]:
        """The non-empty lines it wrote to stderr."""
        return [line for line in self.err.splitlines() if line.strip()]


def run_cli(argv: Sequence[str]) -> CliResult:
    """``cogtable ARGV`` in this process, its output captured (argparse's exits included)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status: int | str | None = main(list(argv))
        except SystemExit as exit_:
            status = exit_.code
    return CliResult(status, out.getvalue(), err.getvalue())


def unprivileged_user() -> pwd.struct_passwd | None:
    """``nobody`` when running as root (None when not root, or there is no such user)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        return None


def as_reader(function: Callable[[], T]) -> T:
    """``function()`` as a user who cannot write a read-only folder (see the module docstring)."""
    user = unprivileged_user()
    if user is None:
        return function()
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        signal.alarm(CHILD_TIMEOUT_S)  # a child stuck on a lock another thread held dies
        try:
            os.close(read_end)
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            try:
                payload: tuple[bool, object] = (True, function())
            except BaseException as error:
                payload = (False, f"{type(error).__name__}: {error}")
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(pickle.dumps(payload))
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    os.waitpid(child, 0)
    if not data:
        raise AssertionError(f"the child running as {user.pw_name} died without an answer")
    ok, value = pickle.loads(data)
    if not ok:
        raise AssertionError(f"as {user.pw_name}: {value}")
    return value  # type: ignore[no-any-return]


@contextlib.contextmanager
def shared_folder() -> Iterator[Path]:
    """A temporary folder ``nobody`` may enter (pytest's own tmp_path is root's only)."""
    folder = Path(tempfile.mkdtemp(prefix="cogtable-test-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            if path.is_dir():
                path.chmod(0o755)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class Snapshot:
    """Every file under a folder: its bytes, mode and modification time (to see nothing changed)."""

    files: dict[str, tuple[bytes, int, int]]

    @classmethod
    def of(cls, folder: Path) -> Snapshot:
        """What ``folder`` holds now."""
        files = {}
        for path in sorted(folder.rglob("*")):
            info = path.lstat()
            data = path.read_bytes() if path.is_file() else b""
            files[str(path.relative_to(folder))] = (data, info.st_mode, info.st_mtime_ns)
        return cls(files)
