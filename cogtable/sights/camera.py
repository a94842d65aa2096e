"""What every sight shares: how it hands the runtime an input, and the camera's own status."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cogtable.inputs import Input, PartStatus


class Offer(Protocol):
    """How a sight hands an input to the runtime (queued; in lock step with a mock world)."""

    def __call__(self, item: Input, seen_at: float | None = None) -> None: ...


@dataclass
class CameraPart:
    """The camera's own status, sent only when it changes."""

    offer: Offer
    status: str = "unknown"

    def report(self, status: str, detail: str) -> None:
        """Say the camera's status if it changed (``ok``, ``no camera``, ``not used``)."""
        if status != self.status:
            self.status = status
            self.offer(PartStatus("camera", status, detail if status != "ok" else ""))
