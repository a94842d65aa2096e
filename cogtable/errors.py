"""Errors a user can cause, reported by the command line as one clear line."""


class UserError(Exception):
    """Bad input from a person: a missing file, a broken profile, a bad argument."""
