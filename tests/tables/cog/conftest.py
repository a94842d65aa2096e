"""Fixtures for the C.O.G. kit's tests: the engine tests' positions (``construct``), and a
table at a seeded position (``table_at``, one set of journals per test module)."""

from pathlib import Path

import pytest

from tests.cog.conftest import construct
from tests.tables.cog.at_the_table import Journals, TableAt


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> Journals:
    return Journals(tmp_path_factory.mktemp("cog-positions"))


@pytest.fixture
def table_at(journals: Journals, tmp_path: Path) -> TableAt:
    return lambda position: journals.table_at(tmp_path, position)


__all__ = ["construct"]
