"""A simulated Pico on a pseudo-terminal, with a fault-injecting relay in the line.

The real firmware sources run in a child process (``child.py``) under the real
MicroPython Unix port, against stand-ins for ``machine``, ``neopixel`` and
``rp2`` (``stubs/``). Which interpreter runs it, and what happens where the
MicroPython Unix port is missing (a Raspberry Pi: an explicit CPython fallback
with a logged warning, or a refusal), is decided and documented in
:mod:`firmware_bridge.simulator.interpreter`; :attr:`Simulator.interpreter` says
which one is running.

The firmware's USB serial line (its stdin/stdout) is relayed to the master side
of a pseudo-terminal; the host opens the slave side with pyserial through a
stable symlink (:attr:`Simulator.port`), exactly as it opens
``/dev/serial/by-id/...``. The relay can drop, corrupt, duplicate and delay
bytes (:class:`Faults`), pull the cable (:meth:`Simulator.unplug`: the pty and
its symlink vanish) and reset the Pico (:meth:`Simulator.reset`: a fresh
firmware process on the same line). Two pipes carry the simulator's requests
(press a button, read the LEDs) to the child and its JSON answers back; the
child serves them between two firmware steps. The child's stderr (a firmware
traceback, say) goes to ``firmware.log`` beside the port.

>>> with Simulator() as sim:  # doctest: +SKIP
...     link = Link(sim.port); link.start(); link.wait_connected(5)
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import subprocess
import tempfile
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_bridge.simulator.interpreter import Interpreter, SimulatorError, choose

HERE = Path(__file__).resolve().parent
CHILD = HERE / "child.py"
BRIDGE = HERE.parent
CHUNK = 4096
ANSWER_S = 30.0  # the child answers in milliseconds; this only catches a hung one
__all__ = ["Faults", "Interpreter", "Simulator", "SimulatorError"]


@dataclass
class Faults:
    """What the line does to bytes in one direction: each a probability per byte.

    ``delay`` is a probability per chunk of holding it back ``delay_s`` seconds.
    """

    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    delay_s: float = 0.01
    seed: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def active(self) -> bool:
        """True if this line does anything to bytes at all."""
        return bool(self.drop or self.corrupt or self.duplicate or self.delay)

    def apply(self, data: bytes) -> bytes:
        """The bytes that come out of the line when ``data`` goes in."""
        if not self.active():
            return data
        if self.delay and self._rng.random() < self.delay:
            self._count("delayed")
            time.sleep(self.delay_s)
        out = bytearray()
        for byte in data:
            out.extend(self._byte(byte))
        return bytes(out)

    def _byte(self, byte: int) -> bytes:
        """What becomes of one byte."""
        roll = self._rng.random()
        if roll < self.drop:
            self._count("dropped")
            return b""
        roll -= self.drop
        if roll < self.corrupt:
            self._count("corrupted")
            return bytes((byte ^ self._rng.randrange(1, 256),))
        roll -= self.corrupt
        if roll < self.duplicate:
            self._count("duplicated")
            return bytes((byte, byte))
        return bytes((byte,))

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


class Simulator:
    """One simulated Pico, its pseudo-terminal and the relay between them.

    ``interpreter`` is ``auto``, ``micropython`` or ``cpython`` (default: the
    ``COGTABLE_SIM_INTERPRETER`` environment variable, else ``auto``); see
    :mod:`firmware_bridge.simulator.interpreter`. With a ``dice_seed`` the dice
    roll the same values every run (a seeded mock table replays its game);
    without one they draw from ``os.urandom``, as on a Pico.
    """

    def __init__(
        self,
        *,
        protocol: int | None = None,
        to_host: Faults | None = None,
        to_firmware: Faults | None = None,
        directory: str | None = None,
        interpreter: str | None = None,
        dice_seed: int | None = None,
    ) -> None:
        self.protocol = protocol
        self.dice_seed = dice_seed
        self._boots = 0
        self.to_host = to_host or Faults()
        self.to_firmware = to_firmware or Faults()
        self._tmp = tempfile.TemporaryDirectory(prefix="cogtable-sim-", dir=directory)
        self.port = str(Path(self._tmp.name) / "ttyPico")
        self.log_path = Path(self._tmp.name) / "firmware.log"
        self._choice = interpreter
        self.interpreter: Interpreter | None = None  # known once started
        self.implementation: dict[str, str] = {}  # what the child says runs it
        self._lock = threading.RLock()
        self._control_lock = threading.Lock()
        self._closing = threading.Event()
        self._master: int | None = None
        self._slave: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._control: int | None = None  # the request pipe's write end
        self._replies: int | None = None  # the answer pipe's read end
        self._pending = b""  # answer bytes read but not yet taken
        self.plugged = False

    # Life cycle -----------------------------------------------------------------------

    def start(self) -> Simulator:
        """Boot the firmware and plug in the line; SimulatorError if it cannot run."""
        self.interpreter = choose(self._choice)
        try:
            self._boot()
        except (SimulatorError, OSError):
            self._halt()
            raise
        self.plug()
        threading.Thread(target=self._host_to_firmware, daemon=True).start()
        return self

    def close(self) -> None:
        """Stop the firmware, remove the line."""
        self._closing.set()
        self.unplug()
        self._halt()
        self._tmp.cleanup()

    def __enter__(self) -> Simulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reset(self) -> None:
        """Reset the Pico: everything in its RAM is gone, it boots afresh on the same line."""
        with self._lock:
            self._halt()
            self._boot()

    def _boot(self) -> None:
        """Start a firmware process and the relay from its stdout; wait for it to answer."""
        requests, control = os.pipe()
        replies_in, replies = os.pipe()
        try:
            process = self._spawn(requests, replies)
        except OSError:
            os.close(control)
            os.close(replies_in)
            raise
        finally:
            os.close(requests)  # the child's ends: the parent must not keep them open
            os.close(replies)
        with self._control_lock:
            self._process, self._control, self._replies = process, control, replies_in
            self._pending = b""
        threading.Thread(target=self._firmware_to_host, args=(process,), daemon=True).start()
        self._hello()

    def _spawn(self, requests: int, replies: int) -> subprocess.Popen[bytes]:
        """The firmware process, with stdin/stdout as its USB line and stderr to the log."""
        arguments = [str(BRIDGE), str(requests), str(replies)]
        if self.protocol is not None:
            arguments.append(f"protocol={self.protocol}")
        if self.dice_seed is not None:
            arguments += [f"dice_seed={self.dice_seed}", f"boot={self._boots}"]
        self._boots += 1
        command = self.interpreter.run(str(CHILD), *arguments)  # type: ignore[union-attr]
        with open(self.log_path, "ab") as log:
            return subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                pass_fds=(requests, replies),
            )

    def _hello(self) -> None:
        """Ask the new firmware process what runs it: proof that it booted."""
        self.implementation = self.request("hello")
        wanted = self.interpreter.name  # type: ignore[union-attr]
        if self.implementation.get("implementation") != wanted:
            raise SimulatorError(f"the simulated Pico runs on {self.implementation}, not {wanted}")

    def _halt(self) -> None:
        """Stop the firmware process (a request waiting on it then fails), close its pipes."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                with contextlib.suppress(OSError):
                    stream.close()  # type: ignore[union-attr]
        with self._control_lock:
            for fd in (self._control, self._replies):
                if fd is not None:
                    os.close(fd)
            self._control = self._replies = None

    # The cable ------------------------------------------------------------------------

    def plug(self) -> None:
        """Plug the cable in: a new pseudo-terminal appears at :attr:`port`."""
        with self._lock:
            if self.plugged:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing, before anyone opens it
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            link = self.port + ".new"
            os.symlink(os.ttyname(slave), link)
            os.replace(link, self.port)
            self.plugged = True

    def unplug(self) -> None:
        """Pull the cable: the pseudo-terminal and its path vanish; the host sees an error."""
        with self._lock:
            if not self.plugged:
                return
            self.plugged = False
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None

    # The relay ------------------------------------------------------------------------

    def _firmware_to_host(self, process: subprocess.Popen[bytes]) -> None:
        """Carry the firmware's output to the host, through the faults, while plugged in."""
        fd = process.stdout.fileno()  # type: ignore[union-attr]
        while True:
            try:
                data = os.read(fd, CHUNK)
            except OSError:
                return
            if not data:
                return
            self._write_master(self.to_host.apply(data))

    def _write_master(self, data: bytes) -> None:
        """Write to the host's side; lost if the cable is out, as on a real line."""
        while data and not self._closing.is_set():
            with self._lock:
                if self._master is None:
                    return
                try:
                    data = data[os.write(self._master, data) :]
                    continue
                except BlockingIOError:
                    master = self._master
                except OSError:
                    return
            select.select([], [master], [], 0.05)

    def _host_to_firmware(self) -> None:
        """Carry the host's output to the firmware, through the faults."""
        while not self._closing.is_set():
            data = self._read_master()
            if data:
                self._write_firmware(self.to_firmware.apply(data))

    def _read_master(self) -> bytes:
        """Whatever the host wrote, waiting at most 50 ms."""
        master = self._master
        if master is None:
            time.sleep(0.02)
            return b""
        try:
            ready, _, _ = select.select([master], [], [], 0.05)
            return os.read(master, CHUNK) if ready else b""
        except OSError:  # unplugged meanwhile, or no host has the port open
            time.sleep(0.01)
            return b""

    def _write_firmware(self, data: bytes) -> None:
        """Feed bytes to the firmware's USB serial input."""
        process = self._process
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            process.stdin.write(data)  # type: ignore[union-attr]
            process.stdin.flush()  # type: ignore[union-attr]

    # The table around the Pico --------------------------------------------------------

    def request(self, op: str, **arguments: Any) -> dict[str, Any]:
        """Ask the firmware process for something; its JSON answer."""
        line = (json.dumps({"op": op, **arguments}) + "\n").encode()
        with self._control_lock:
            if self._control is None:
                raise SimulatorError("the simulated Pico is not running")
            try:
                os.write(self._control, line)  # a short line: one atomic pipe write
            except BrokenPipeError:
                raise SimulatorError(self._stopped()) from None
            return json.loads(self._answer())

    def _answer(self) -> bytes:
        """The next answer line from the firmware process."""
        deadline = time.monotonic() + ANSWER_S
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._replies], [], [], left)[0]:
                raise SimulatorError(f"the simulated Pico did not answer within {ANSWER_S:g} s")
            data = os.read(self._replies, 1 << 16)  # type: ignore[arg-type]
            if not data:
                raise SimulatorError(self._stopped())
            self._pending += data
        line, _, self._pending = self._pending.partition(b"\n")
        return line

    def _stopped(self) -> str:
        """Why the firmware process is gone, from the last line of its stderr."""
        with contextlib.suppress(OSError):
            lines = self.log_path.read_text(errors="replace").strip().splitlines()
            if lines:
                return f"the simulated Pico stopped: {lines[-1]} (see {self.log_path})"
        return "the simulated Pico stopped"

    def press(self, button: int) -> None:
        """Hold a button down (the debouncer decides when it counts)."""
        self.request("level", level=0, button=button)

    def release(self, button: int) -> None:
        """Let a button go."""
        self.request("level", level=1, button=button)

    def press_roll(self, die: int, hold_s: float = 0.05) -> None:
        """Press and release a die's roll button."""
        self.request("level", level=0, die=die)
        time.sleep(hold_s)
        self.request("level", level=1, die=die)

    def emit_buttons(self, count: int) -> None:
        """Have the firmware send ``count`` button events (button ``i % n``, PRESSED,
        Pico time ``i``) as fast as its send queue takes them."""
        self.request("emit", count=count)

    def leds(self) -> list[tuple[int, int, int]]:
        """What the LED chain shows now."""
        return [tuple(colour) for colour in self.request("leds")["leds"]]  # type: ignore[misc]

    def commands(self, since: int = 0) -> list[tuple[int, bytes]]:
        """Every host command the firmware carried out since boot, in order."""
        found = self.request("commands", since=since)["commands"]
        return [(mtype, bytes.fromhex(payload)) for mtype, payload in found]

    def state(self) -> dict[str, Any]:
        """The firmware's counters: boot id, host id, backlog, retransmissions, ..."""
        return self.request("state")
