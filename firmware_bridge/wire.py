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
side: selective repeat with a window, cumulative ACKs, a NAK at once for every
gap (with a bitmap of the frames held after it), a resend timer from the
measured round trip, and duplicate suppression by sequence number.

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


class Outgoing:
    """One message in flight and what its sender has learnt about it."""

    def __init__(self, seq, mtype, payload):
        self.seq = seq
        self.mtype = mtype
        self.payload = payload
        self.frame = None  # encoded at its first transmission, then written as it is
        self.sent_at = 0
        self.order = 0  # the sender's transmission count when it was last written
        self.held = False  # a NAK said the peer holds it, waiting for an earlier one
        self.resent = False  # retransmitted: its ACK no longer times the round trip (Karn)
        self.timed = False  # a reply has timed its round trip (the reply's copy must not)


class Channel:
    """Reliable, ordered, exactly-once delivery of one side's messages (selective repeat).

    The sender numbers each message, keeps it until it is acknowledged and has
    at most ``window`` in flight. The receiver delivers in order only, holds
    frames that arrive after a gap and answers every batch of frames at once:
    an ACK of everything so far, or (while it holds frames) a NAK naming the
    first missing number, the frame it has just received and a bitmap of those
    it holds. The line keeps the order of what is written, so every message
    the sender wrote before that latest frame and the peer neither holds nor
    has is lost: it is resent at once, each loss exactly once. What no NAK
    reveals (a lost NAK, a lost last frame) is resent when the resend timer
    expires: the smoothed round trip plus four times its variation (Jacobson's
    estimator, sampled only from frames sent once), between ``min_timeout_ms``
    and ``max_timeout_ms``, doubling while expiries make no progress.

    Methods that may put bytes on the line return the frames to write; the
    caller owns the line and the clock (any millisecond counter: ticks_ms on
    the Pico, a monotonic clock on the host, a fake one in tests).
    """

    def __init__(
        self, window=32, timeout_ms=50, min_timeout_ms=5, max_timeout_ms=250, capacity=256
    ):
        if not 1 <= window <= MAX_WINDOW:
            raise ValueError(f"window {window} is not 1..{MAX_WINDOW}")
        self.window = window
        self.min_timeout_ms = min_timeout_ms
        self.max_timeout_ms = max_timeout_ms
        self.capacity = capacity
        # Oldest first. The first `sent` are in flight, each an Outgoing; the rest are
        # (seq, type, payload) tuples until sent, so a full queue stays small on a Pico.
        self.pending = []
        self.sent = 0
        self.next_seq = 0
        self.expected = 0
        self.held = {}  # seq -> (type, payload): arrived after a gap, waiting for it
        self.timeout_ms = timeout_ms  # the resend timeout before any back-off
        self.srtt8 = 0  # smoothed round trip, ms x 8
        self.rttvar4 = 0  # its mean deviation, ms x 4
        self.samples = 0
        self.expiries = 0  # resend timer expiries in a row without progress
        self.timer_at = None  # when the resend timer was (re)started; None: nothing in flight
        self.transmissions = 0
        self.retransmissions = 0
        self.timeouts = 0
        self.duplicates = 0
        self.gaps = 0
        self.naks = 0

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

    def numbers(self):
        """The sequence numbers of every unacknowledged message, oldest first."""
        return [entry.seq if isinstance(entry, Outgoing) else entry[0] for entry in self.pending]

    def round_trip_ms(self):
        """The smoothed round trip in milliseconds, or None before the first sample."""
        return self.srtt8 >> 3 if self.samples else None

    def resend_timeout_ms(self):
        """How long the oldest unanswered frame waits before it is resent: the timeout,
        doubled for every expiry in a row beyond the first few (a dead line), up to the cap."""
        doublings = min(self.expiries - STEADY_EXPIRIES, 16)
        timeout = self.timeout_ms << doublings if doublings > 0 else self.timeout_ms
        return min(timeout, self.max_timeout_ms)

    def transmit(self, now):
        """Frames for queued messages that now fit in the window."""
        frames = []
        while self.sent < len(self.pending) and self.sent < self.window:
            entry = self.pending[self.sent]
            if not isinstance(entry, Outgoing):
                entry = Outgoing(entry[0], entry[1], entry[2])
                entry.frame = encode_frame(entry.seq, entry.mtype, entry.payload)
                self.pending[self.sent] = entry
            frames.append(self._write(entry, now))
            self.sent += 1
        if frames and self.timer_at is None:
            self.timer_at = now
        return frames

    def on_ack(self, seq, now, payload=b""):
        """The peer has everything up to ``seq`` and holds nothing: forget those, resend
        what the line has certainly lost (see :meth:`on_nak`), send what now fits."""
        latest = unpack_ack(payload)
        if latest is None:
            self._acknowledge(seq, now)
            return self.transmit(now)
        return self._on_reply(seq, latest, b"", now) + self.transmit(now)

    def on_nak(self, seq, now, payload=b""):
        """The peer has everything before ``seq``, misses ``seq`` and holds what the
        bitmap says; it has just read frame ``latest``. The line keeps the order of
        what is written, so every frame written before that one and neither
        acknowledged nor held is lost: resend those, each once per loss."""
        latest, bitmap = unpack_nak(payload)
        if latest is not None:
            return self._on_reply((seq - 1) & 0xFF, latest, bitmap, now) + self.transmit(now)
        self._acknowledge((seq - 1) & 0xFF, now)  # a NAK without a bitmap: resend just seq
        frames = []
        oldest = self.pending[0] if self.sent else None
        if oldest and oldest.seq == seq and elapsed_ms(now, oldest.sent_at) >= self.min_timeout_ms:
            frames.append(self._resend(oldest, now))
        return frames + self.transmit(now)

    def poll(self, now):
        """On expiry of the resend timer, probe with the oldest unanswered frame; then
        send what fits. The probe's answer says what else is missing."""
        frames = []
        if self.sent and elapsed_ms(now, self.timer_at) >= self.resend_timeout_ms():
            frames = self._expire(now)
        return frames + self.transmit(now)

    def _expire(self, now):
        """Resend the oldest in-flight frame the peer does not hold (unless a NAK just did)."""
        for index in range(self.sent):
            entry = self.pending[index]
            if entry.held:
                continue
            if elapsed_ms(now, entry.sent_at) < self.resend_timeout_ms():
                self.timer_at = entry.sent_at  # a NAK resent it: time from then
                return []
            self.timeouts += 1
            self.expiries += 1
            self.timer_at = now
            return [self._resend(entry, now)] * PROBE_COPIES
        self.timer_at = now
        return []

    def _on_reply(self, cumulative, latest, bitmap, now):
        """Everything up to ``cumulative`` arrived, the bitmap's frames are held and
        ``latest`` was read last: resend what was written before it and is missing."""
        answered = self._in_flight(latest)  # before acknowledging forgets it
        self._acknowledge(cumulative, now)
        if bitmap and self.sent and self.pending[0].seq == (cumulative + 1) & 0xFF:
            self._note_held(bitmap)
        if answered is None:
            return []  # not a frame in flight: no telling what was lost
        self._sample(answered, now)
        seen = answered.order
        frames = []
        for index in range(self.sent):
            entry = self.pending[index]
            if not entry.held and _written_before(entry.order, seen):
                frames.append(self._resend(entry, now))
        return frames

    def _in_flight(self, seq):
        """The in-flight message numbered ``seq``, or None."""
        if not self.sent:
            return None
        index = seq_distance(seq, self.pending[0].seq)
        return self.pending[index] if index < self.sent else None

    def _note_held(self, bitmap):
        """Mark the in-flight frames the bitmap says the peer holds (never resent by time)."""
        for index in range(1, self.sent):
            bit = index - 1
            if bit >> 3 < len(bitmap) and bitmap[bit >> 3] >> (bit & 7) & 1:
                self.pending[index].held = True

    def _acknowledge(self, seq, now):
        """Drop the in-flight messages up to and including ``seq`` (others are stale)."""
        if not self.sent:
            return
        count = seq_distance(seq, self.pending[0].seq) + 1
        if count <= self.sent:
            del self.pending[:count]
            self.sent -= count
            self.expiries = 0
            self.timer_at = now if self.sent else None

    def _sample(self, entry, now):
        """The round trip of the frame a reply answers (if it was sent only once: Karn;
        and only at its first reply), into the smoothed estimate and the resend timeout."""
        if entry.resent or entry.timed:
            return
        entry.timed = True
        sample = elapsed_ms(now, entry.sent_at)
        if self.samples:
            error = sample - (self.srtt8 >> 3)
            self.srtt8 += error
            self.rttvar4 += (error if error >= 0 else -error) - (self.rttvar4 >> 2)
        else:
            self.srtt8 = sample << 3
            self.rttvar4 = sample << 1
        self.samples += 1
        timeout = (self.srtt8 >> 3) + self.rttvar4
        self.timeout_ms = max(self.min_timeout_ms, min(timeout, self.max_timeout_ms))

    def _write(self, entry, now):
        """The frame of one message, stamped with when and in which order it was written."""
        self.transmissions = (self.transmissions + 1) & TICKS_MASK
        entry.order = self.transmissions
        entry.sent_at = now
        return entry.frame

    def _resend(self, entry, now):
        """The frame of a message again, counted as a retransmission."""
        self.retransmissions += 1
        entry.resent = True
        return self._write(entry, now)

    # Receiving ------------------------------------------------------------------------

    def receive(self, seq, mtype, payload):
        """``(messages, reply)``: the ``(type, payload)`` now deliverable, in order, and
        the bytes to answer with: the ACK or NAK, ``REPLY_COPIES`` times (None: stay
        quiet). The reply to the last frame of a batch says all that the replies to
        the earlier ones did, so a caller writes only that one."""
        ahead = seq_distance(seq, self.expected)
        if ahead == 0:
            return self._deliver(mtype, payload), self._reply(seq)
        if ahead >= 128:  # behind: delivered before, our ACK was lost
            self.duplicates += 1
            return [], self._reply(seq)
        if ahead >= FOREIGN_AHEAD:  # further ahead than any window: not this peer's stream
            return [], None
        if seq in self.held:
            self.duplicates += 1
        else:
            if (seq - 1) & 0xFF not in self.held and ahead > self._furthest_held():
                self.gaps += 1  # the frame before it is missing, and not known missing
            self.held[seq] = (mtype, bytes(payload))
        return [], self._reply(seq)

    def _furthest_held(self):
        """How far ahead of the expected number the furthest held frame is (0: none)."""
        furthest = 0
        for seq in self.held:
            furthest = max(furthest, seq_distance(seq, self.expected))
        return furthest

    def _deliver(self, mtype, payload):
        """This message and every held one that now follows in order."""
        messages = [(mtype, bytes(payload))]
        self.expected = (self.expected + 1) & 0xFF
        while self.expected in self.held:
            messages.append(self.held.pop(self.expected))
            self.expected = (self.expected + 1) & 0xFF
        return messages

    def _reply(self, latest):
        """ACK everything so far, or NAK the next missing number with what is held."""
        if not self.held:
            reply = encode_frame((self.expected - 1) & 0xFF, ACK, pack_ack(latest))
        else:
            self.naks += 1
            reply = encode_frame(self.expected, NAK, pack_nak(latest, self._held_bitmap()))
        return reply * REPLY_COPIES

    def _held_bitmap(self):
        """Bit n set: frame expected + 1 + n is held."""
        bitmap = bytearray(NAK_BITMAP_BYTES)
        for seq in self.held:
            bit = seq_distance(seq, self.expected) - 1
            if 0 <= bit < 8 * NAK_BITMAP_BYTES:
                bitmap[bit >> 3] |= 1 << (bit & 7)
        return bitmap

    # Restarts -------------------------------------------------------------------------

    def rewind(self):
        """After a reconnect to the same peer: send every unacknowledged message again."""
        self.sent = 0
        self.timer_at = None
        self.expiries = 0
        for index in range(len(self.pending)):
            entry = self.pending[index]
            if isinstance(entry, Outgoing):
                entry.held = False
                entry.resent = True  # sent before: a reply no longer says which copy it answers

    def restart(self, keep_pending):
        """After the peer restarted: number from 0 again in both directions.

        With ``keep_pending`` the unacknowledged messages are renumbered and sent
        again (the Pico keeps its button events for a new host); without it they
        are dropped (the host re-sends its LED state instead).
        """
        kept = self.pending if keep_pending else []
        self.pending = []
        self.next_seq = 0
        for entry in kept:
            if isinstance(entry, Outgoing):
                self.queue(entry.mtype, entry.payload)
            else:
                self.queue(entry[1], entry[2])
        self.expected = 0
        self.held = {}
        self.rewind()


def _written_before(order, other):
    """True if transmission ``order`` came before transmission ``other`` (counts wrap)."""
    distance = (other - order) & TICKS_MASK
    return 0 < distance < (TICKS_MASK >> 1)


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
