"""The host's serial link to the Pico: events in, LED commands out, surviving anything.

:class:`Link` owns one worker thread that opens the port, shakes hands,
reads frames, acknowledges and retransmits (through :class:`firmware_bridge.channel.Channel`),
sends heartbeats and, when the line fails, reopens it with back-off (capped
near one second), shakes hands again and re-sends the current LED state.
Button and dice events arrive exactly once and in order on :attr:`Link.events`.
Any thread may send: sends are serialised by one lock.

>>> link = Link("/dev/serial/by-id/usb-Raspberry_Pi_Pico-if00")  # doctest: +SKIP
>>> link.start(); link.wait_connected(5)  # doctest: +SKIP
>>> link.fill(0, 10, (0, 40, 0))  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import enum
import os
import queue
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import serial
from serial.tools import list_ports

from firmware_bridge import wire
from firmware_bridge.channel import Channel

PICO_VENDOR_ID = 0x2E8A  # Raspberry Pi
HEARTBEAT_S = 0.5
SILENCE_S = 3.0  # no frame at all from the Pico this long: the line is dead, reopen it
HELLO_EVERY_S = 0.1
HANDSHAKE_S = 2.0
RECONNECT_FIRST_S = 0.05
RECONNECT_CAP_S = 1.0
READ_TIMEOUT_S = 0.005
LED_CHUNK = 300  # LEDs per SET_LEDS message (900 bytes of colour)
LED_STATE = frozenset({wire.SET_LEDS, wire.FILL, wire.ANIMATE})
"""Messages that only set LED state: the handshake re-sends the whole state."""
SEND_QUEUE_MESSAGES = 4096
"""Messages the host keeps for the Pico until they are acknowledged."""


class Status(enum.Enum):
    """Where the link is."""

    IDLE = "idle"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    VERSION_MISMATCH = "version mismatch"
    CLOSED = "closed"


class LinkError(Exception):
    """Something about the Pico link a person must fix; the message says what."""


class VersionMismatch(LinkError):
    """The connected firmware speaks another protocol version."""


class PortNotFound(LinkError):
    """No port by that name, or no Pico found for ``auto``."""


@dataclass(frozen=True)
class FirmwareInfo:
    """What the firmware said about itself at the handshake."""

    protocol: int
    version: tuple[int, int, int]
    boot_id: int
    leds: int
    buttons: int
    dice: int

    @property
    def version_text(self) -> str:
        """The firmware version as ``major.minor.patch``."""
        return ".".join(str(part) for part in self.version)


@dataclass(frozen=True)
class ButtonEvent:
    """A seat or table button changed: ``action`` is pressed, released or held."""

    button: int
    action: str
    pico_ms: int


@dataclass(frozen=True)
class DiceEvent:
    """An electronic die rolled ``value``."""

    die: int
    value: int


@dataclass(frozen=True)
class FirmwareMessage:
    """A log line (``code`` None) or an error report from the firmware."""

    text: str
    code: int | None = None


class SerialPort(Protocol):
    """What the link needs from a pyserial port."""

    in_waiting: int

    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...


class _Reconnect(Exception):
    """Internal: drop this connection and open the port again."""


class _Rehandshake(Exception):
    """Internal: the Pico rebooted under us; shake hands again on the same port."""


def find_pico() -> str:
    """The device path of the first connected Pico (by USB vendor id)."""
    for info in sorted(list_ports.comports(), key=lambda port: port.device):
        if info.vid == PICO_VENDOR_ID:
            return info.device
    raise PortNotFound("no Raspberry Pi Pico found on USB (vendor id 2e8a); is it plugged in?")


def resolve_port(port: str) -> str:
    """A device path for ``port``: a path as given, or ``auto`` for the connected Pico."""
    return find_pico() if port == "auto" else port


def open_serial(path: str) -> SerialPort:
    """Open a port with pyserial in the link's read mode."""
    return serial.Serial(path, baudrate=115200, timeout=READ_TIMEOUT_S, write_timeout=1.0)


def update_hint(port: str) -> str:
    """How to put matching firmware on the Pico."""
    return f"update it with `cogtable firmware flash --port {port}`"


class Link:
    """A reliable, reconnecting link to one Pico."""

    def __init__(
        self,
        port: str,
        *,
        opener: Callable[[str], SerialPort] = open_serial,
        clock: Callable[[], float] = time.monotonic,
        reconnect_cap_s: float = RECONNECT_CAP_S,
        on_status: Callable[[Status], None] | None = None,
    ) -> None:
        self.port_name = port
        self.events: queue.Queue[ButtonEvent | DiceEvent | FirmwareMessage] = queue.Queue()
        self.info: FirmwareInfo | None = None
        self.error: str | None = None
        self.stats: dict[str, int] = {"reconnects": 0, "firmware_resets": 0, "duplicates": 0}
        self._opener = opener
        self._clock = clock
        self._reconnect_cap_s = reconnect_cap_s
        self._on_status = on_status
        self._status = Status.IDLE
        self._changed = threading.Condition()
        self._lock = threading.RLock()
        self._channel = Channel(capacity=SEND_QUEUE_MESSAGES, up_front=False)
        self._decoder = wire.Decoder()
        self._host_id = random.getrandbits(32) or 1
        self._serial: SerialPort | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._leds = bytearray()
        self._animations: dict[int, tuple[int, ...]] = {}

    # Public API -----------------------------------------------------------------------

    @property
    def status(self) -> Status:
        """Connected, reconnecting, version mismatch, ..."""
        return self._status

    def start(self) -> Link:
        """Start the worker thread (once); it connects (and reconnects) by itself."""
        if self._thread is not None:
            return self
        self._thread = threading.Thread(target=self._work, name="pico-link", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the worker and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._set_status(Status.CLOSED)

    def __enter__(self) -> Link:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_status(self, wanted: Iterable[Status], timeout: float) -> Status:
        """Block until the status is one of ``wanted`` (or ``timeout`` seconds); the status."""
        wanted = set(wanted)
        with self._changed:
            self._changed.wait_for(lambda: self._status in wanted, timeout)
            return self._status

    def wait_connected(self, timeout: float) -> FirmwareInfo:
        """Block until connected; LinkError (with what to do) if that fails."""
        final = {Status.CONNECTED, Status.VERSION_MISMATCH, Status.CLOSED}
        status = self.wait_status(final, timeout)
        if status == Status.VERSION_MISMATCH:
            raise VersionMismatch(self.error or "firmware protocol mismatch")
        if status != Status.CONNECTED or self.info is None:
            reason = f": {self.error}" if self.error else ""
            raise LinkError(f"no answer from the Pico on {self.port_name} in {timeout:g} s{reason}")
        return self.info

    def set_leds(self, start: int, colours: Sequence[Sequence[int]] | bytes) -> None:
        """Set LEDs from ``start`` to ``colours`` ((r, g, b) triples, or r, g, b bytes)."""
        rgb = colours if isinstance(colours, bytes | bytearray) else _rgb_bytes(colours)
        if len(rgb) % 3:
            raise ValueError(f"LED colours must be 3 bytes each, got {len(rgb)} bytes")
        self._check_range(start, len(rgb) // 3)
        with self._lock:
            self._mirror(start, bytes(rgb))
            for offset in range(0, len(rgb), 3 * LED_CHUNK):
                chunk = rgb[offset : offset + 3 * LED_CHUNK]
                self._send(wire.SET_LEDS, wire.pack_set_leds(start + offset // 3, chunk))

    def fill(self, start: int, count: int, colour: Sequence[int]) -> None:
        """Set ``count`` LEDs from ``start`` to one colour."""
        self._check_range(start, count)
        r, g, b = _colour(colour)
        with self._lock:
            self._mirror(start, bytes((r, g, b)) * count)
            self._send(wire.FILL, wire.pack_fill(start, count, r, g, b))

    def animate(
        self, slot: int, kind: str, start: int, count: int, *, colour: Sequence[int], period_ms: int
    ) -> None:
        """Run ``kind`` (blink, pulse, chase, off) on LEDs start..start+count-1 in ``slot``."""
        kinds = {name: number for number, name in wire.ANIMATION_KINDS.items()}
        if kind not in kinds:
            raise ValueError(f"unknown animation {kind!r}; expected one of {', '.join(kinds)}")
        if not 0 <= slot < wire.ANIMATION_SLOTS:
            raise ValueError(f"animation slot {slot} is not 0..{wire.ANIMATION_SLOTS - 1}")
        if not 1 <= period_ms <= 0xFFFF:
            raise ValueError(f"animation period {period_ms} ms is not 1..65535")
        self._check_range(start, count)
        fields = (slot, kinds[kind], start, count, *_colour(colour), period_ms)
        with self._lock:
            self._animations[slot] = fields
            self._send(wire.ANIMATE, wire.pack_animate(*fields))

    def roll(self, die: int) -> None:
        """Ask the Pico to roll electronic die ``die``; a DiceEvent follows."""
        if not 0 <= die <= 255:
            raise ValueError(f"die {die} is not 0..255")
        with self._lock:
            self._send(wire.ROLL, wire.pack_roll(die))

    def leds(self) -> list[tuple[int, int, int]]:
        """The LED state the host wants shown (re-sent after every reconnect)."""
        with self._lock:
            data = bytes(self._leds)
        return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]

    def flush(self, timeout: float) -> bool:
        """Wait until the Pico has acknowledged everything sent; False on time-out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if not self._channel.pending:
                    return True
            time.sleep(0.001)
        return False

    def counters(self) -> dict[str, int]:
        """Reliability counters: retransmissions, resend-timer expiries, NAKs sent,
        duplicates, rejected frames, reconnects, the round trip in ms (-1: not measured)."""
        with self._lock:
            round_trip = self._channel.round_trip_ms()
            return {
                **self.stats,
                "retransmissions": self._channel.retransmissions,
                "timeouts": self._channel.timeouts,
                "naks": self._channel.naks,
                "round_trip_ms": -1 if round_trip is None else round_trip,
                "duplicates": self._channel.duplicates,
                "rejected_frames": self._decoder.rejected,
                "backlog": len(self._channel.pending),
            }

    # Sending --------------------------------------------------------------------------

    def _check_range(self, start: int, count: int) -> None:
        """ValueError unless the LEDs exist (once the chain's length is known)."""
        limit = self.info.leds if self.info else 0xFFFF
        if start < 0 or count < 0 or start + count > limit:
            raise ValueError(f"LEDs {start}..{start + count - 1} are outside the {limit}-LED chain")

    def _mirror(self, start: int, rgb: bytes) -> None:
        """Remember what the LEDs should show, for re-sending after a reconnect."""
        end = 3 * start + len(rgb)
        if len(self._leds) < end:
            self._leds.extend(bytes(end - len(self._leds)))
        self._leds[3 * start : end] = rgb

    def _send(self, mtype: int, payload: bytes) -> None:
        """Queue a reliable message and write what the window allows (lock held).

        While the Pico is away the LED state is only remembered (:meth:`_mirror`,
        the animations): the handshake re-sends all of it (:meth:`_resend_state`),
        so queueing each change too would only fill the queue with stale frames,
        and a full queue would leave no room for that state when the Pico is back.
        """
        if mtype in LED_STATE and self._status != Status.CONNECTED:
            return
        try:
            self._channel.queue(mtype, payload)
        except wire.FrameError as error:
            raise LinkError(f"cannot send to the Pico: {error.reason}") from None
        if self._status == Status.CONNECTED:
            self._write(self._channel.transmit(self._now_ms()))

    def _write(self, frames: Iterable[bytes]) -> None:
        """Write frames; a failing line is left for the worker to notice and reopen."""
        port = self._serial
        data = b"".join(frames)
        if port is None or not data:
            return
        with contextlib.suppress(serial.SerialException, OSError):
            port.write(wire.DELIMITER + data)  # ends any half frame a fault left before it

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    # The worker -----------------------------------------------------------------------

    def _set_status(self, status: Status) -> None:
        with self._changed:
            changed = status != self._status
            self._status = status
            self._changed.notify_all()
        if changed and self._on_status is not None:
            self._on_status(status)

    def _work(self) -> None:
        """Connect, serve, reconnect with back-off, until closed or refused."""
        backoff = RECONNECT_FIRST_S
        self._set_status(Status.CONNECTING)
        while not self._stop.is_set():
            try:
                self._session()
                backoff = RECONNECT_FIRST_S
            except VersionMismatch as error:
                self.error = str(error)
                self._set_status(Status.VERSION_MISMATCH)
                return
            except (LinkError, _Reconnect, serial.SerialException, OSError) as error:
                self.error = str(error) or type(error).__name__
            finally:
                self._disconnect()
            if self._stop.is_set():
                break
            self._set_status(Status.RECONNECTING)
            self.stats["reconnects"] += 1
            self._pause(backoff)
            backoff = min(backoff * 2, self._reconnect_cap_s)

    def _pause(self, seconds: float) -> None:
        """Wait before the next attempt, but go at once when the port path reappears."""
        path = self.port_name
        was_there = path == "auto" or os.path.exists(path)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not self._stop.is_set():
            if not was_there and os.path.exists(path):
                return
            time.sleep(0.02)

    def _disconnect(self) -> None:
        with self._lock:
            port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _session(self) -> None:
        """One connection: open, shake hands, serve until the line fails."""
        port = self._opener(resolve_port(self.port_name))
        with self._lock:
            self._serial = port
            self._decoder = wire.Decoder()
        while True:
            self._handshake(port)
            try:
                self._serve(port)
            except _Rehandshake:
                self._set_status(Status.CONNECTING)

    def _handshake(self, port: SerialPort) -> None:
        """Say hello until the Pico identifies itself to us; refuse another protocol."""
        hello = wire.encode_frame(
            0, wire.HELLO, wire.pack_hello(wire.PROTOCOL_VERSION, self._host_id)
        )
        deadline = time.monotonic() + HANDSHAKE_S
        next_hello = 0.0
        while time.monotonic() < deadline and not self._stop.is_set():
            if time.monotonic() >= next_hello:
                port.write(b"\x00" + hello)  # the leading zero ends any half frame
                next_hello = time.monotonic() + HELLO_EVERY_S
            for _, mtype, payload in self._read_frames(port):
                if mtype == wire.IDENTIFY and self._identified(payload):
                    return
        raise _Reconnect(f"no handshake from the Pico on {self.port_name}")

    def _identified(self, payload: bytes) -> bool:
        """True if this IDENTIFY answers our HELLO; then the link is up."""
        try:
            protocol, version, boot_id, host_id, leds, buttons, dice = wire.unpack_identify(payload)
        except wire.FrameError:
            return False
        if protocol != wire.PROTOCOL_VERSION:
            raise VersionMismatch(
                f"the Pico on {self.port_name} runs firmware for protocol {protocol}, "
                f"but this cogtable speaks protocol {wire.PROTOCOL_VERSION}: "
                f"{update_hint(self.port_name)}"
            )
        if host_id != self._host_id:
            return False
        self._connected(FirmwareInfo(protocol, version, boot_id, leds, buttons, dice))
        return True

    def _connected(self, info: FirmwareInfo) -> None:
        """Bring sequence numbers in line with the Pico's and re-send the LED state."""
        with self._lock:
            if self.info is not None and info.boot_id != self.info.boot_id:
                self.stats["firmware_resets"] += 1
            if self.info is None or info.boot_id != self.info.boot_id:
                self._channel.restart(keep_pending=False)
            else:
                self._channel.rewind()
            self.info = info
            self._resend_state()
            self._set_status(Status.CONNECTED)
            self._write(self._channel.transmit(self._now_ms()))

    def _resend_state(self) -> None:
        """Queue the whole LED state and every running animation (lock held)."""
        rgb = bytes(self._leds[: 3 * self.info.leds]) if self.info else b""
        for offset in range(0, len(rgb), 3 * LED_CHUNK):
            chunk = rgb[offset : offset + 3 * LED_CHUNK]
            self._channel.queue(wire.SET_LEDS, wire.pack_set_leds(offset // 3, chunk))
        for fields in self._animations.values():
            self._channel.queue(wire.ANIMATE, wire.pack_animate(*fields))

    def _serve(self, port: SerialPort) -> None:
        """Read and answer frames, retransmit, send heartbeats, watch for silence."""
        last_heard = last_ping = time.monotonic()
        while not self._stop.is_set():
            frames = self._read_frames(port)
            now = time.monotonic()
            if frames:
                last_heard = now
            reply = None
            for frame in frames:
                reply = self._on_frame(frame) or reply
            with self._lock:
                self._write(([reply] if reply else []) + self._channel.poll(self._now_ms()))
            if now - last_ping >= HEARTBEAT_S:
                self._write((wire.encode_frame(0, wire.PING, b""),))
                last_ping = now
            if now - last_heard >= SILENCE_S:
                raise _Reconnect(f"the Pico on {self.port_name} went silent")

    def _read_frames(self, port: SerialPort) -> list[tuple[int, int, bytes]]:
        """The frames in whatever arrived within the read time-out."""
        data = port.read(max(1, port.in_waiting))
        if not data:
            return []
        with self._lock:
            return self._decoder.feed(data)

    def _on_frame(self, frame: tuple[int, int, bytes]) -> bytes | None:
        """Handle one valid frame from the Pico; the ACK or NAK to answer it with, if any."""
        seq, mtype, payload = frame
        if mtype in wire.RELIABLE:
            return self._on_reliable(seq, mtype, payload)
        with self._lock:
            if mtype == wire.ACK:
                self._write(self._channel.on_ack(seq, self._now_ms(), payload))
            elif mtype == wire.NAK:
                self._write(self._channel.on_nak(seq, self._now_ms(), payload))
        if mtype == wire.IDENTIFY:
            self._on_identify(payload)
        return None

    def _on_identify(self, payload: bytes) -> None:
        """An unasked IDENTIFY: if the Pico rebooted, shake hands again."""
        try:
            boot_id = wire.unpack_identify(payload)[2]
        except wire.FrameError:
            return
        if self.info is not None and boot_id != self.info.boot_id:
            raise _Rehandshake

    def _on_reliable(self, seq: int, mtype: int, payload: bytes) -> bytes | None:
        """Deliver an event once, in order; the reply that acknowledges it.

        The reply to the last frame of a read answers every frame before it, so
        :meth:`_serve` writes only that one.
        """
        with self._lock:
            messages, reply = self._channel.receive(seq, mtype, payload)
        for message_type, message in messages:
            self.events.put(_event(message_type, message))
        return reply


def _event(mtype: int, payload: bytes) -> ButtonEvent | DiceEvent | FirmwareMessage:
    """The event object for one delivered message from the Pico."""
    try:
        if mtype == wire.BUTTON:
            button, action, pico_ms = wire.unpack_button(payload)
            return ButtonEvent(button, wire.BUTTON_ACTIONS.get(action, str(action)), pico_ms)
        if mtype == wire.DICE:
            return DiceEvent(*wire.unpack_dice(payload))
        if mtype == wire.ERROR:
            code, text = wire.unpack_error(payload)
            return FirmwareMessage(text, code)
        if mtype == wire.LOG:
            return FirmwareMessage(wire.unpack_log(payload))
    except wire.FrameError as error:
        return FirmwareMessage(f"malformed message type {mtype}: {error.reason}", -1)
    return FirmwareMessage(f"message type {mtype} is not for the host", -1)


def _colour(colour: Sequence[int]) -> tuple[int, int, int]:
    """An (r, g, b) triple of bytes; ValueError otherwise."""
    values = tuple(colour)
    if len(values) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in values):
        raise ValueError(f"a colour is three numbers 0..255, got {values!r}")
    return values  # type: ignore[return-value]


def _rgb_bytes(colours: Sequence[Sequence[int]]) -> bytes:
    """(r, g, b) triples as bytes."""
    return b"".join(bytes(_colour(colour)) for colour in colours)


__all__: list[Any] = [
    "ButtonEvent",
    "DiceEvent",
    "FirmwareInfo",
    "FirmwareMessage",
    "Link",
    "LinkError",
    "PortNotFound",
    "Status",
    "VersionMismatch",
    "find_pico",
    "resolve_port",
]
