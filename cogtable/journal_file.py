"""The journal's file: what may be opened as a journal, and how to read one without writing.

Split from :mod:`cogtable.journal` (the database's games and actions): the
checks made on the file itself before SQLite opens it, and the URI a reader
opens it with.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Final

from cogtable.errors import UserError

SQLITE_HEADER: Final = b"SQLite format 3\x00"
WAL_FORMAT: Final = 2
"""The database header's read/write version bytes (offsets 18 and 19) in WAL mode."""


class JournalError(UserError):
    """The journal cannot be opened, read or written; the message says why."""


def read_only_uri(path: Path) -> str:
    """The SQLite URI that reads ``path`` without writing anything, not even a ``-shm``.

    A WAL database is read through its ``-shm`` index, which a reader creates
    when it is missing: ``mode=ro`` then leaves a ``-wal`` and a ``-shm`` behind,
    or fails in a folder it may not write to. So:

    - a ``-wal`` that holds something, or has its ``-shm`` (a writer is running,
      or one was killed): ``mode=ro``, which reads the committed actions in it;
    - otherwise everything is in the database file itself: ``immutable=1``
      reads just that file, with no ``-shm`` and no locks. A writer that starts
      meanwhile writes to its own new ``-wal`` first and into the file only
      at a checkpoint, which at worst makes this reader fail with an error;
    - a database not in WAL mode (never made so by cogtable): ``mode=ro``.
    """
    quoted = urllib.parse.quote(str(path.absolute()))
    wal = path.with_name(path.name + "-wal")
    shm = path.with_name(path.name + "-shm")
    writer = wal.exists() and (shm.exists() or wal.stat().st_size > 0)
    return f"file:{quoted}?{'mode=ro' if writer or not _in_wal_mode(path) else 'immutable=1'}"


def _in_wal_mode(path: Path) -> bool:
    """The database header says WAL (read/write versions 2)."""
    with path.open("rb") as file:
        header = file.read(20)
    return header[18:20] == bytes((WAL_FORMAT, WAL_FORMAT))


def refuse_missing_or_empty(path: Path) -> None:
    """A reader needs a journal: no file, a folder or an empty file is not one."""
    if not path.exists():
        raise JournalError(f"no journal at {path.parent} (no {path.name}; use --state-dir)")
    if not path.is_file():
        raise JournalError(f"{path} is not a file: not a journal")
    if path.stat().st_size == 0:
        raise JournalError(f"{path} is empty: not a journal")


def refuse_foreign_file(path: Path) -> None:
    """Refuse a file that is neither empty nor SQLite, without opening it for writing."""
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise JournalError(
                f"cannot create the journal {path}: no folder {path.parent}"
            ) from None
        return
    except OSError as error:
        raise JournalError(f"cannot read the journal {path}: {error}") from error
    if header and header != SQLITE_HEADER:
        raise JournalError(
            f"{path} is not a cogtable journal (not an SQLite database); left as it is"
        )
