"""Fixtures for the C.O.G. kit's tests: the engine tests' positions (``construct``)."""

from tests.cog.conftest import construct

__all__ = ["construct"]
