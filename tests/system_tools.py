"""System tools some tests need beyond the Python install (Debian packages).

Where a tool is missing, the test that needs it is skipped with the one line that
installs it, so the README's test command passes on a fresh machine. CI's
``.ci/run`` installs every tool listed here and sets :data:`REQUIRE_TOOLS`, which
turns that skip into a failure: CI never passes by skipping.
"""

from __future__ import annotations

import os
import shutil

import pytest

REQUIRE_TOOLS = "COGTABLE_REQUIRE_SYSTEM_TOOLS"
"""Set (to anything) where every system tool must be present: a missing one fails its tests."""

DEBIAN_PACKAGES = {
    "pdftoppm": "poppler-utils",
    "chromium": "chromium",
    "mosquitto": "mosquitto",
    "openssl": "openssl",
    "reserved typefaces": "fonts-liberation fonts-urw-base35 fonts-texgyre fonts-freefont-ttf",
    "development typeface": "fonts-go",
}
"""Each tool a test runs, and the Debian package that brings it (``.ci/run`` installs these)."""


def system_tool(name: str, *alternatives: str) -> str:
    """The path of tool ``name`` (or of an alternative name); skips or fails the test without it."""
    for candidate in (name, *alternatives):
        found = shutil.which(candidate)
        if found:
            return found
    require_installed(name, False)
    raise AssertionError("unreachable")  # require_installed skipped or failed the test


def require_installed(name: str, present: bool) -> None:
    """Skip (or, under :data:`REQUIRE_TOOLS`, fail) the test when ``name`` is not installed."""
    if present:
        return
    needed = f"{name} needed here: apt-get install -y {DEBIAN_PACKAGES[name]}"
    if os.environ.get(REQUIRE_TOOLS):
        pytest.fail(f"{needed} ({REQUIRE_TOOLS} is set)")
    pytest.skip(needed)
