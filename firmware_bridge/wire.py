"""The wire protocol between the Pi and the Pico: framing, messages, reliable delivery.

One module for both ends: the host imports it as ``firmware_bridge.wire`` and
the firmware as ``wire`` (``cogtable firmware flash`` copies it onto the Pico).
It is therefore written in the subset of Python that CPython and MicroPython
both run: no typing imports, no dataclasses, no f-string format specs, only
``struct`` and (when present) ``binascii``.

A frame on the wire is ``COBS(seq, type, length, payload, CRC-16) 0x00``:

- ``seq`` (1 byte): the sequence number of a reliable message, or the acked
  sequence number of an ACK/NAK, or 0 for other control messages;
- ``type`` (1 byte): one of the message types below;
- ``length`` (2 bytes, little-endian): the payload's length. A frame that lost
  or gained bytes, or two frames merged by a lost delimiter, fail this check
  before the CRC is even asked, so far fewer damaged frames can slip through
  the 16-bit CRC by chance;
- ``payload``: at most ``MAX_PAYLOAD`` bytes, packed by the ``pack_*`` helpers;
- CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), big-endian, over all before it.

The zero byte only ever appears as a delimiter, so a receiver that lost sync
finds the start of the next frame at the next zero (Klipper does the same with
its sync byte). Reliable messages travel through a :class:`Channel` on each
side: selective repeat with a window, cumulative ACKs, a NAK for a gap,
time-outs that back off, and duplicate suppression by sequence number.

>>> frame = encode_frame(7, PING, b"ab")
>>> Decoder().feed(b"garbage" + frame)
[(7, 5, b'ab')]
"""

import struct

try:
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx
    _crc_hqx = None

PROTOCOL_VERSION = 1
"""Bumped on every incompatible change; both ends must agree at the handshake."""

MAX_PAYLOAD = 1024
"""The largest payload in one frame: a 300-LED chain's colours fit in one SET_LEDS."""

MAX_WIRE_FRAME = MAX_PAYLOAD + 6 + (MAX_PAYLOAD + 6) // 254 + 2
"""The longest COBS-encoded frame (without its delimiter) a receiver accepts."""

# Control messages: not sequenced, never acknowledged.
HELLO = 1  # host -> Pico: protocol version, host id
IDENTIFY = 2  # Pico -> host: protocol, firmware version, boot id, host id, LEDs, buttons, dice
ACK = 3  # seq = the last sequence number received in order
NAK = 4  # seq = the sequence number the receiver expects next (a gap was seen)
PING = 5  # heartbeat, payload echoed by PONG
PONG = 6
REPL = 7  # host -> Pico: leave the firmware loop for the REPL (before flashing)

# Reliable messages: sequenced, acknowledged, retransmitted, delivered once in order.
SET_LEDS = 16  # host -> Pico: start index (u16) + RGB bytes
FILL = 17  # host -> Pico: start, count (u16 each), r, g, b
ANIMATE = 18  # host -> Pico: slot, kind, start, count, r, g, b, period ms
ROLL = 19  # host -> Pico: roll an electronic die
BUTTON = 20  # Pico -> host: button id, action, Pico milliseconds
DICE = 21  # Pico -> host: die id, value
ERROR = 22  # either way: code (u8) + UTF-8 text
LOG = 23  # Pico -> host: UTF-8 text

RELIABLE = (SET_LEDS, FILL, ANIMATE, ROLL, BUTTON, DICE, ERROR, LOG)

PRESSED = 1
RELEASED = 2
HELD = 3
BUTTON_ACTIONS = {PRESSED: "pressed", RELEASED: "released", HELD: "held"}

ANIM_OFF = 0
ANIM_BLINK = 1
ANIM_PULSE = 2
ANIM_CHASE = 3
ANIMATION_KINDS = {ANIM_OFF: "off", ANIM_BLINK: "blink", ANIM_PULSE: "pulse", ANIM_CHASE: "chase"}
ANIMATION_SLOTS = 8

REPL_MAGIC = b"cogtable-repl"
"""The payload a REPL message must carry, so line noise can never stop the firmware."""

TICKS_MASK = 0x3FFFFFFF
"""MicroPython's ticks_ms wraps at 2**30; elapsed times are computed modulo that."""


class FrameError(ValueError):
    """A frame or payload that cannot be accepted; ``reason`` says why in words."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _crc_table():
    """The 256-entry table of CRC-16/CCITT-FALSE remainders."""
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16_table(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data``, table-driven: what MicroPython runs.

    >>> hex(crc16_table(b"123456789"))
    '0x29b1'
    """
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[(crc >> 8) ^ byte]
    return crc


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data``, in C where the interpreter has it.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    if _crc_hqx is None:
        return crc16_table(data, crc)
    return _crc_hqx(data, crc)


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` rewritten without any zero byte.

    >>> cobs_encode(b"\\x11\\x00\\x22")
    b'\\x02\\x11\\x02"'
    """
    out = bytearray()
    for part in bytes(data).split(b"\x00"):
        start = 0
        while len(part) - start >= 254:
            out.append(255)
            out.extend(part[start : start + 254])
            start += 254
        out.append(len(part) - start + 1)
        out.extend(part[start:])
    return bytes(out)


def cobs_decode(data):
    """The bytes that :func:`cobs_encode` turned into ``data``; FrameError if malformed."""
    out = bytearray()
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        if code == 0:
            raise FrameError("a zero byte inside a COBS block")
        end = index + code
        if end > size:
            raise FrameError("a COBS block runs past the end of the frame")
        out.extend(data[index + 1 : end])
        index = end
        if code < 255 and index < size:
            out.append(0)
    return bytes(out)


def encode_frame(seq, mtype, payload=b""):
    """One complete frame, delimiter included, ready to write to the line."""
    if len(payload) > MAX_PAYLOAD:
        raise FrameError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    size = len(payload)
    body = bytes((seq & 0xFF, mtype & 0xFF, size & 0xFF, size >> 8)) + bytes(payload)
    crc = crc16(body)
    return cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_frame(encoded):
    """``(seq, type, payload)`` from one frame without its delimiter; FrameError if bad."""
    raw = cobs_decode(encoded)
    if len(raw) < 6:
        raise FrameError(f"frame too short ({len(raw)} bytes)")
    if raw[2] | raw[3] << 8 != len(raw) - 6:
        raise FrameError("length field disagrees with the frame")
    body = raw[:-2]
    if crc16(body) != (raw[-2] << 8) | raw[-1]:
        raise FrameError("CRC mismatch")
    return (body[0], body[1], body[4:])


class Decoder:
    """Turns a byte stream, garbage and all, into frames.

    Bytes are buffered up to the next zero delimiter; a frame that fails COBS,
    length or CRC checks is counted in ``rejected`` with its reason in
    ``last_reason`` and ``reasons``, and decoding carries on at the next frame.
    """

    def __init__(self, max_frame=MAX_WIRE_FRAME):
        self.max_frame = max_frame
        self.frames = 0
        self.rejected = 0
        self.last_reason = None
        self.reasons = {}
        self._buffer = bytearray()
        self._overflow = False

    def feed(self, data):
        """Every complete valid frame in ``data`` (plus what was buffered), in order."""
        data = bytes(data)
        frames = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            if end < 0:
                self._keep(data[start:])
                return frames
            self._finish(data[start:end], frames)
            start = end + 1

    def _keep(self, piece):
        """Buffer the start of a frame, dropping it once it is longer than any valid frame."""
        if self._overflow:
            return
        self._buffer.extend(piece)
        if len(self._buffer) > self.max_frame:
            self._buffer = bytearray()
            self._overflow = True

    def _finish(self, piece, frames):
        """Decode the frame that ends with ``piece``; record a rejection if it is bad."""
        encoded = bytes(self._buffer) + piece if self._buffer else piece
        self._buffer = bytearray()
        if self._overflow:
            self._overflow = False
            self._reject(f"frame longer than {self.max_frame} bytes")
        elif len(encoded) > self.max_frame:
            self._reject(f"frame longer than {self.max_frame} bytes")
        elif encoded:
            try:
                frames.append(decode_frame(encoded))
                self.frames += 1
            except FrameError as error:
                self._reject(error.reason)

    def _reject(self, reason):
        """Count one rejected frame and remember why."""
        self.rejected += 1
        self.last_reason = reason
        self.reasons[reason] = self.reasons.get(reason, 0) + 1


def elapsed_ms(now, then):
    """Milliseconds from ``then`` to ``now`` on a clock that wraps like ticks_ms."""
    return (now - then) & TICKS_MASK


def seq_distance(later, earlier):
    """How many steps forward ``later`` is from ``earlier`` in the 8-bit sequence space."""
    return (later - earlier) & 0xFF


class Channel:
    """Reliable, ordered, exactly-once delivery of one side's messages (selective repeat).

    The sender numbers each message, keeps it until it is acknowledged and has
    at most ``window`` in flight. The receiver delivers in order only, holds
    frames that arrive after a gap, re-acks duplicates (so a lost ACK heals)
    and NAKs the first missing number; the sender then resends just that one.
    When nothing comes back in time the oldest is resent and the wait doubles,
    up to ``max_timeout_ms``. Methods that may put bytes on the line return the
    frames to write; the caller owns the line and the clock (any millisecond
    counter: ticks_ms on the Pico, a monotonic clock on the host, a fake one in
    tests).
    """

    def __init__(self, window=16, timeout_ms=25, max_timeout_ms=400, capacity=256):
        self.window = window
        self.base_timeout_ms = timeout_ms
        self.max_timeout_ms = max_timeout_ms
        self.capacity = capacity
        self.pending = []  # [(seq, type, payload)], oldest first; the first `sent` are in flight
        self.sent = 0
        self.next_seq = 0
        self.expected = 0
        self.held = {}  # seq -> (type, payload): arrived after a gap, waiting for it
        self.timeout_ms = timeout_ms
        self.sent_at = None
        self.gap_frames = 0
        self.retransmissions = 0
        self.duplicates = 0
        self.gaps = 0

    # Sending --------------------------------------------------------------------------

    def room(self):
        """How many more messages may be queued."""
        return self.capacity - len(self.pending)

    def queue(self, mtype, payload):
        """Number and keep one message for sending; FrameError if the queue is full."""
        if len(self.pending) >= self.capacity:
            raise FrameError(f"send queue full ({self.capacity} messages)")
        if len(payload) > MAX_PAYLOAD:
            raise FrameError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
        self.pending.append((self.next_seq, mtype, bytes(payload)))
        self.next_seq = (self.next_seq + 1) & 0xFF

    def transmit(self, now):
        """Frames for queued messages that now fit in the window."""
        frames = []
        while self.sent < len(self.pending) and self.sent < self.window:
            frames.append(encode_frame(*self.pending[self.sent]))
            self.sent += 1
        if frames and self.sent_at is None:
            self.sent_at = now
        return frames

    def on_ack(self, seq, now):
        """The peer has everything up to ``seq``: forget those, send what now fits."""
        self._acknowledge(seq, now)
        return self.transmit(now)

    def on_nak(self, seq, now):
        """The peer has everything before ``seq`` and misses ``seq``: resend just that."""
        self._acknowledge((seq - 1) & 0xFF, now)
        frames = []
        if self.sent and self.pending[0][0] == seq:
            frames.append(self._resend_oldest())
        return frames + self.transmit(now)

    def poll(self, now):
        """The oldest unacknowledged frame again if its time is up (the wait then doubles)."""
        frames = []
        if self.sent and elapsed_ms(now, self.sent_at) >= self.timeout_ms:
            self.timeout_ms = min(self.timeout_ms * 2, self.max_timeout_ms)
            self.sent_at = now
            frames.append(self._resend_oldest())
        return frames + self.transmit(now)

    def _acknowledge(self, seq, now):
        """Drop the in-flight messages up to and including ``seq`` (others are stale)."""
        if not self.sent:
            return
        count = seq_distance(seq, self.pending[0][0]) + 1
        if count <= self.sent:
            del self.pending[:count]
            self.sent -= count
            self.timeout_ms = self.base_timeout_ms
            self.sent_at = now if self.sent else None

    def _resend_oldest(self):
        """The frame of the oldest unacknowledged message, counted as a retransmission."""
        self.retransmissions += 1
        return encode_frame(*self.pending[0])

    # Receiving ------------------------------------------------------------------------

    def receive(self, seq, mtype, payload):
        """``(messages, reply)``: the ``(type, payload)`` now deliverable, in order, and
        the ACK or NAK to answer with (None: stay quiet)."""
        ahead = seq_distance(seq, self.expected)
        if ahead == 0:
            return self._deliver(mtype, payload), self._reply()
        if ahead >= 128:  # behind: delivered before, our ACK was lost
            self.duplicates += 1
            return [], self._reply()
        if ahead >= 64:  # further ahead than any window: not from this peer's stream
            return [], None
        if seq in self.held:
            self.duplicates += 1
        else:
            self.held[seq] = (mtype, bytes(payload))
        return [], self._nak_for_gap()

    def _deliver(self, mtype, payload):
        """This message and every held one that now follows in order."""
        messages = [(mtype, bytes(payload))]
        self.expected = (self.expected + 1) & 0xFF
        while self.expected in self.held:
            messages.append(self.held.pop(self.expected))
            self.expected = (self.expected + 1) & 0xFF
        self.gap_frames = 0
        return messages

    def _reply(self):
        """ACK everything so far, or NAK the next missing number if frames wait behind it."""
        if self.held:
            return encode_frame(self.expected, NAK)
        return encode_frame((self.expected - 1) & 0xFF, ACK)

    def _nak_for_gap(self):
        """NAK a gap on the first frame after it, then on every second (the NAK may be lost)."""
        self.gaps += 1
        self.gap_frames += 1
        if self.gap_frames % 2 == 1:
            return encode_frame(self.expected, NAK)
        return None

    # Restarts -------------------------------------------------------------------------

    def rewind(self):
        """After a reconnect to the same peer: send every unacknowledged message again."""
        self.sent = 0
        self.sent_at = None
        self.timeout_ms = self.base_timeout_ms

    def restart(self, keep_pending):
        """After the peer restarted: number from 0 again in both directions.

        With ``keep_pending`` the unacknowledged messages are renumbered and sent
        again (the Pico keeps its button events for a new host); without it they
        are dropped (the host re-sends its LED state instead).
        """
        kept = self.pending if keep_pending else []
        self.pending = []
        self.next_seq = 0
        for _, mtype, payload in kept:
            self.queue(mtype, payload)
        self.expected = 0
        self.held = {}
        self.gap_frames = 0
        self.rewind()


# Payloads -----------------------------------------------------------------------------


def _unpack(fmt, payload, what):
    """struct.unpack with a FrameError that names the message when the size is wrong."""
    if len(payload) != struct.calcsize(fmt):
        raise FrameError(f"{what} payload is {len(payload)} bytes, expected {struct.calcsize(fmt)}")
    return struct.unpack(fmt, payload)


def pack_hello(protocol, host_id):
    """HELLO: the host's protocol version and its random id for this run."""
    return struct.pack("<BI", protocol, host_id)


def unpack_hello(payload):
    """``(protocol, host_id)``; the protocol byte alone is enough to refuse a stranger."""
    if len(payload) < 1:
        raise FrameError("HELLO payload is empty")
    if len(payload) != 5:
        return payload[0], 0
    return _unpack("<BI", payload, "HELLO")


def pack_identify(protocol, version, boot_id, host_id, leds, buttons, dice):  # noqa: PLR0917 - the wire layout
    """IDENTIFY: what the firmware is and which host it now serves."""
    fields = (protocol, version[0], version[1], version[2], boot_id, host_id, leds, buttons, dice)
    return struct.pack("<BBBBIIHBB", *fields)


def unpack_identify(payload):
    """``(protocol, (major, minor, patch), boot_id, host_id, leds, buttons, dice)``.

    The protocol byte comes first and stays first in every version, so a host
    can always tell which protocol a firmware speaks even if the rest differs.
    """
    if len(payload) < 1:
        raise FrameError("IDENTIFY payload is empty")
    if payload[0] != PROTOCOL_VERSION:
        return payload[0], (0, 0, 0), 0, 0, 0, 0, 0
    fields = _unpack("<BBBBIIHBB", payload, "IDENTIFY")
    # MicroPython has no starred expressions in tuple displays
    return (fields[0], (fields[1], fields[2], fields[3])) + tuple(fields[4:])  # noqa: RUF005


def pack_set_leds(start, rgb):
    """SET_LEDS: the first LED index and 3 bytes (r, g, b) per LED from there."""
    if len(rgb) % 3:
        raise FrameError(f"LED colours must be 3 bytes each, got {len(rgb)} bytes")
    return struct.pack("<H", start) + bytes(rgb)


def unpack_set_leds(payload):
    """``(start, rgb_bytes)``."""
    if len(payload) < 2 or (len(payload) - 2) % 3:
        raise FrameError(f"SET_LEDS payload of {len(payload)} bytes is not 2 + 3n")
    return struct.unpack("<H", payload[:2])[0], payload[2:]


def pack_fill(start, count, r, g, b):
    """FILL: ``count`` LEDs from ``start`` in one colour."""
    return struct.pack("<HHBBB", start, count, r, g, b)


def unpack_fill(payload):
    """``(start, count, r, g, b)``."""
    return _unpack("<HHBBB", payload, "FILL")


def pack_animate(slot, kind, start, count, r, g, b, period_ms):  # noqa: PLR0917 - the wire layout
    """ANIMATE: run (or with ANIM_OFF stop) an animation in one of the Pico's slots."""
    return struct.pack("<BBHHBBBH", slot, kind, start, count, r, g, b, period_ms)


def unpack_animate(payload):
    """``(slot, kind, start, count, r, g, b, period_ms)``."""
    return _unpack("<BBHHBBBH", payload, "ANIMATE")


def pack_button(button, action, pico_ms):
    """BUTTON: which button, PRESSED/RELEASED/HELD, and the Pico's ticks_ms then."""
    return struct.pack("<BBI", button, action, pico_ms & 0xFFFFFFFF)


def unpack_button(payload):
    """``(button, action, pico_ms)``."""
    return _unpack("<BBI", payload, "BUTTON")


def pack_dice(die, value):
    """DICE: which die and the value it rolled."""
    return struct.pack("<BB", die, value)


def unpack_dice(payload):
    """``(die, value)``."""
    return _unpack("<BB", payload, "DICE")


def pack_roll(die):
    """ROLL: ask the Pico to roll one electronic die."""
    return struct.pack("<B", die)


def unpack_roll(payload):
    """``die``."""
    return _unpack("<B", payload, "ROLL")[0]


def pack_error(code, text):
    """ERROR: a numeric code and a sentence."""
    return struct.pack("<B", code) + _utf8(text)[: MAX_PAYLOAD - 1]


def unpack_error(payload):
    """``(code, text)``."""
    if not payload:
        raise FrameError("ERROR payload is empty")
    return payload[0], _text(payload[1:])


def pack_log(text):
    """LOG: one line of text from the firmware."""
    return _utf8(text)[:MAX_PAYLOAD]


def unpack_log(payload):
    """The log line."""
    return _text(payload)


def _utf8(text):
    """Text as UTF-8 bytes."""
    return str(text).encode("utf-8")


def _text(data):
    """UTF-8 bytes as text; FrameError if they are not UTF-8."""
    try:
        return bytes(data).decode("utf-8")
    except UnicodeError:
        raise FrameError("text is not valid UTF-8") from None
