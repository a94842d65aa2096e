"""Errors a user can cause, reported by the command line as one clear line."""


class UserError(Exception):
    """Bad input from a person: a missing file, a broken profile, a bad argument."""


def data_fault(error: Exception) -> str:
    """Why data read back from a file (JSON a run kept) is not what was kept, in words.

    A missing key or a value of the wrong kind surfaces as Python's KeyError or
    TypeError, whose own text (``'world'``, ``'int' object is not subscriptable``)
    tells a person nothing; other errors already say it in words.
    """
    if isinstance(error, KeyError):
        return f"it has no {error.args[0]!r} (not what a run of cogtable kept)"
    if isinstance(error, TypeError | AttributeError):
        return "a value in it is of the wrong kind (not what a run of cogtable kept)"
    return str(error)
