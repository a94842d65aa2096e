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
its sync byte). Reliable messages travel through a channel on each side
(:class:`firmware_bridge.channel.Channel`, in its own module): selective
repeat with a window, cumulative ACKs, a NAK at once for every gap (with a
bitmap of the frames held after it), a resend timer from the measured round
trip, and duplicate suppression by sequence number.

>>> frame = encode_frame(7, PING, b"ab")
>>> Decoder().feed(b"garbage" + DELIMITER + frame)  # the garbage is one rejected frame
[(7, 5, b'ab')]
"""

import struct

try:
    from binascii import crc_hqx as _crc_hqx
except ImportError:  # MicroPython's binascii has no crc_hqx
    _crc_hqx = None

PROTOCOL_VERSION = 1
"""Bumped on every incompatible change; both ends must agree at the handshake."""

DELIMITER = b"\x00"
"""Ends every frame; a writer may also put one before a burst of frames."""

MAX_PAYLOAD = 1024
"""The largest payload in one frame: a 300-LED chain's colours fit in one SET_LEDS."""

MAX_WIRE_FRAME = MAX_PAYLOAD + 6 + (MAX_PAYLOAD + 6) // 254 + 2
"""The longest COBS-encoded frame (without its delimiter) a receiver accepts."""

# Control messages: not sequenced, never acknowledged.
HELLO = 1  # host -> Pico: protocol version, host id
IDENTIFY = 2  # Pico -> host: protocol, firmware version, boot id, host id, LEDs, buttons, dice
ACK = 3  # seq = the last sequence number received in order; payload: the latest frame
NAK = 4  # seq = the number the receiver expects next; payload: the latest frame and those held
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

NAK_BITMAP_BYTES = 4
"""A NAK's bitmap of held frames covers the 32 numbers after the missing one it names."""

MAX_WINDOW = 8 * NAK_BITMAP_BYTES + 1
"""The most frames in flight: every one after the oldest fits in a NAK's bitmap."""

REPLY_COPIES = 2
"""A receiver writes its reply to a batch of frames this many times. The reply is
all the sender hears about the batch: lost, it would leave a sender whose window
is full waiting for the resend timer; a second copy makes that several times
rarer on a line that loses one short frame in five."""

PROBE_COPIES = 2
"""Copies of the frame a sender resends when its resend timer expires, for the same reason."""

STEADY_EXPIRIES = 3
"""Resend timer expiries in a row at the plain timeout before it starts doubling."""

FOREIGN_AHEAD = 64
"""A frame this far ahead of the expected number belongs to no window of this stream."""


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
    if len(raw) - 6 > MAX_PAYLOAD:
        raise FrameError(f"payload of {len(raw) - 6} bytes exceeds {MAX_PAYLOAD}")
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


def pack_ack(latest):
    """ACK: the number of the frame just received."""
    return bytes((latest & 0xFF,))


def unpack_ack(payload):
    """The number of the frame the ACK answers; None for an ACK without it."""
    return payload[0] if len(payload) == 1 else None


def pack_nak(latest, bitmap):
    """NAK: the number of the frame just received, then the bitmap of the frames held."""
    return bytes((latest & 0xFF,)) + bytes(bitmap)


def unpack_nak(payload):
    """``(latest, bitmap)``; ``(None, b"")`` for a NAK without them."""
    if len(payload) < 2:
        return None, b""
    return payload[0], bytes(payload[1:])


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


def pack_error(code, text, limit=MAX_PAYLOAD):
    """ERROR: a numeric code and a sentence, cut (between characters) to ``limit`` bytes.

    >>> pack_error(3, "naïve", limit=4)
    b'\\x03na'
    """
    return struct.pack("<B", code) + _cut_utf8(_utf8(text), limit - 1)


def unpack_error(payload):
    """``(code, text)``."""
    if not payload:
        raise FrameError("ERROR payload is empty")
    return payload[0], _text(payload[1:])


def unpack_log(payload):
    """The log line."""
    return _text(payload)


def _utf8(text):
    """Text as UTF-8 bytes."""
    return str(text).encode("utf-8")


def _cut_utf8(data, size):
    """The first ``size`` bytes of UTF-8 ``data``, less a character they would cut."""
    if len(data) <= size:
        return data
    end = size
    while end > 0 and data[end] & 0xC0 == 0x80:  # data[end] continues a character: drop it
        end -= 1
    return data[:end]


def _text(data):
    """UTF-8 bytes as text; FrameError if they are not UTF-8."""
    try:
        return bytes(data).decode("utf-8")
    except UnicodeError:
        raise FrameError("text is not valid UTF-8") from None
