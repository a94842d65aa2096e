"""The table latency benchmark runs: its smallest mode finishes and prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_table_latency_benchmark_smallest_mode_exits_0() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_table_latency.py"),
            *("--only", "kogworks", "--camera", "truth", "--only", "cookie"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.split()[:3] == ["kogworks", "settled", "board"] for line in lines if line)
    # the mock profile's card mat: the Cookie's cards come through the camera
    assert any(line.split()[:3] == ["cookie", "settled", "board"] for line in lines if line)
