"""The simulated Pico: the real firmware sources in a process of their own.

Run by :class:`firmware_bridge.simulator.Simulator`, never by hand. ``machine``,
``neopixel``, ``rp2`` and ``micropython`` are the stand-ins in ``stubs/``;
``time`` gains MicroPython's ``ticks_ms``/``ticks_diff``/``sleep_ms``; stdin and
stdout are the USB serial line, exactly as on the Pico. A socket (``--control-fd``)
carries JSON-line requests from the simulator (press a button, read the LEDs)
that this process carries out between two firmware steps, so the firmware
never sees a second thread.

This file is a script (run by path, not as part of the package), so it
imports nothing from ``firmware_bridge``.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BRIDGE = HERE.parent
TICKS_PERIOD = 1 << 30
START = time.monotonic()


def install_ticks() -> None:
    """Give CPython's time module the MicroPython tick functions the firmware uses."""

    def ticks_ms() -> int:
        return int((time.monotonic() - START) * 1000) % TICKS_PERIOD

    def ticks_diff(later: int, earlier: int) -> int:
        return ((later - earlier + TICKS_PERIOD // 2) % TICKS_PERIOD) - TICKS_PERIOD // 2

    def ticks_add(ticks: int, delta: int) -> int:
        return (ticks + delta) % TICKS_PERIOD

    time.ticks_ms = ticks_ms  # type: ignore[attr-defined]
    time.ticks_diff = ticks_diff  # type: ignore[attr-defined]
    time.ticks_add = ticks_add  # type: ignore[attr-defined]
    time.sleep_ms = lambda ms: time.sleep(ms / 1000)  # type: ignore[attr-defined]


class Stdio:
    """An unbuffered stdin/stdout with ``.buffer`` and ``fileno()``, like the Pico's."""

    def __init__(self, fd: int, mode: str) -> None:
        self.fd = fd
        self.buffer = os.fdopen(fd, mode, buffering=0)

    def fileno(self) -> int:
        return self.fd


class Harness:
    """Carries out the simulator's requests on the firmware, between steps."""

    def __init__(self, firmware: Any, config: Any, control: socket.socket) -> None:
        self.firmware = firmware
        self.config = config
        self.control = control
        self.requests: queue.Queue[dict[str, Any]] = queue.Queue()
        self.to_emit = 0
        self.emitted = 0
        self.commands: list[list[Any]] = []
        self._record_commands()

    def _record_commands(self) -> None:
        """Keep every host command the firmware carries out, in order, for the tests."""
        original = self.firmware._command

        def recording(mtype: int, payload: bytes, now: int) -> None:
            self.commands.append([mtype, bytes(payload).hex()])
            original(mtype, payload, now)

        self.firmware._command = recording

    def listen(self) -> None:
        """Read requests from the control socket; exit when the simulator goes away."""
        with self.control.makefile("r", encoding="utf-8") as lines:
            for line in lines:
                self.requests.put(json.loads(line))
        os._exit(0)

    def service(self) -> None:
        """Answer waiting requests and feed scheduled button events to the firmware."""
        while not self.requests.empty():
            request = self.requests.get()
            answer = getattr(self, "op_" + request.pop("op"))(**request)
            self.control.sendall((json.dumps(answer) + "\n").encode("utf-8"))
        self._emit_scheduled()

    def _emit_scheduled(self) -> None:
        """Queue scheduled events while the firmware's send queue has room."""
        buttons = max(1, len(self.config.BUTTONS))
        while self.to_emit and self.firmware.channel.room() > 16:
            self.firmware.emit_button(self.emitted % buttons, 1, self.emitted)
            self.emitted += 1
            self.to_emit -= 1

    def _pin(self, button: int | None, die: int | None) -> Any:
        import machine

        if die is not None:
            gpio = next(g for d, g, _, _ in self.config.DICE if d == die)
        else:
            gpio = next(g for b, g in self.config.BUTTONS if b == button)
        return machine.PINS[gpio]

    def op_level(self, level: int, button: int | None = None, die: int | None = None) -> dict:
        self._pin(button, die).level = level
        return {"ok": True}

    def op_emit(self, count: int) -> dict:
        self.to_emit += count
        return {"ok": True}

    def op_leds(self) -> dict:
        import neopixel

        return {"leds": [list(colour) for colour in neopixel.STRIPS[0].shown]}

    def op_commands(self, since: int = 0) -> dict:
        return {"commands": self.commands[since:]}

    def op_state(self) -> dict:
        firmware = self.firmware
        return {
            "boot_id": firmware.boot_id,
            "host_id": firmware.host_id,
            "host_lost": firmware.leds.host_lost,
            "emitted": self.emitted,
            "to_emit": self.to_emit,
            "backlog": len(firmware.channel.pending),
            "retransmissions": firmware.channel.retransmissions,
            "duplicates": firmware.channel.duplicates,
            "rejected": firmware.decoder.rejected,
            "errors": firmware.errors,
            "commands": len(self.commands),
        }


def main() -> None:
    """Boot the firmware and serve until the simulator closes the control socket."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--control-fd", type=int, required=True)
    parser.add_argument("--protocol", type=int, default=None)
    args = parser.parse_args()
    sys.path[:0] = [str(HERE / "stubs"), str(BRIDGE / "firmware"), str(BRIDGE)]
    install_ticks()
    sys.stdin = Stdio(0, "rb")  # type: ignore[assignment]
    sys.stdout = Stdio(1, "wb")  # type: ignore[assignment]
    import wire

    if args.protocol is not None:  # play a firmware built for another protocol
        wire.PROTOCOL_VERSION = args.protocol
    import config
    import main as firmware_main  # imported, not run: __name__ is "main"

    firmware = firmware_main.build()
    harness = Harness(firmware, config, socket.socket(fileno=args.control_fd))
    threading.Thread(target=harness.listen, daemon=True).start()
    while firmware.running:
        firmware.step()
        harness.service()


if __name__ == "__main__":
    main()
