"""Reliable delivery over the wire protocol: the send ring and the selective-repeat channel.

Apart from :mod:`firmware_bridge.wire` (frames and payloads) so that neither
module is too big for a Pico to compile from source in one go: MicroPython
parses a whole module before compiling it, and its heap must hold that. Like
wire.py it runs on CPython and on MicroPython: the host imports it as
``firmware_bridge.channel``, the firmware as ``channel`` (``cogtable firmware
flash`` copies it onto the Pico beside wire.py).

>>> sender, receiver = Channel(), Channel()
>>> sender.queue(wire.BUTTON, wire.pack_button(4, wire.PRESSED, 29))
>>> [frame] = sender.transmit(now=0)
>>> (seq, mtype, payload), = wire.Decoder().feed(frame)
>>> receiver.receive(seq, mtype, payload)[0] == [(wire.BUTTON, payload)]
True
"""

if __name__ == "channel":  # on the Pico, and under its tests: wire.py lies beside this file
    import wire
else:
    from firmware_bridge import wire


SLOT_SENT = 1  # a send ring slot's flags: written to the line at least once
SLOT_HELD = 2  # a NAK said the peer holds it, waiting for an earlier one
SLOT_RESENT = 4  # retransmitted: its ACK no longer times the round trip (Karn)
SLOT_TIMED = 8  # a reply has timed its round trip (the reply's copy must not)
SLOTS_PER_BLOCK = 16
"""Payload slots per bytearray: small blocks fit a heap whose free space is in pieces."""


class SendRing:
    """The sender's unacknowledged messages, oldest first, in storage allocated once.

    ``capacity`` slots, each holding one message's payload (up to ``slot_bytes``;
    :data:`SLOTS_PER_BLOCK` slots to a bytearray), its sequence number, type and
    length, and what the sender has learnt of it: when and in which order it
    was last written, and its flags (:data:`SLOT_SENT`, :data:`SLOT_HELD`,
    :data:`SLOT_RESENT`, :data:`SLOT_TIMED`). Nothing is allocated as messages
    come and go, so a Pico's heap holds the whole queue from boot: a queue that
    fills while the host is away cannot run the heap out or fragment it. A
    message's frame is encoded each time it is written (a frame lives only
    until the line has it).

    ``len()`` is the number of messages held; index 0 is the oldest. A slot
    (:meth:`slot`) stays the same while its message is held.

    ``up_front=False`` (the host) allocates a block of slots the first time a
    message lands in it instead: the host's deep queue (thousands of slots of
    a kilobyte) then costs only what a backlog has ever used, which in a game
    is a block or two.
    """

    def __init__(self, capacity, slot_bytes, up_front=True):
        if capacity < 1 or slot_bytes < 0:
            raise ValueError(f"a send ring of {capacity} slots of {slot_bytes} bytes")
        self.capacity = capacity
        self.slot_bytes = slot_bytes
        blocks = (capacity + SLOTS_PER_BLOCK - 1) // SLOTS_PER_BLOCK
        self.blocks = [self._block() if up_front else None for _ in range(blocks)]
        self.lengths = [0] * capacity
        self.seqs = bytearray(capacity)
        self.types = bytearray(capacity)
        self.flags = bytearray(capacity)
        self.sent_at = [0] * capacity
        self.order = [0] * capacity  # the sender's transmission count when last written
        self.head = 0
        self.count = 0

    def __len__(self):
        return self.count

    def __bool__(self):
        return self.count > 0

    def slot(self, index):
        """The slot of the ``index``-th oldest message."""
        return (self.head + index) % self.capacity

    def add(self, seq, mtype, payload):
        """Keep one message after the others (the caller checked that it fits)."""
        slot = self.slot(self.count)
        block, start = self._place(slot)
        block[start : start + len(payload)] = payload
        self.lengths[slot] = len(payload)
        self.seqs[slot] = seq
        self.types[slot] = mtype
        self.flags[slot] = 0
        self.count += 1

    def payload(self, slot):
        """The payload kept in ``slot`` (a view into the ring: copy it to keep it)."""
        block, start = self._place(slot)
        return memoryview(block)[start : start + self.lengths[slot]]

    def _place(self, slot):
        """The bytearray holding ``slot``'s payload, and where in it the payload starts."""
        block = self.blocks[slot // SLOTS_PER_BLOCK]
        if block is None:  # a ring allocated as it is used (the host's)
            block = self.blocks[slot // SLOTS_PER_BLOCK] = self._block()
        return block, slot % SLOTS_PER_BLOCK * self.slot_bytes

    def _block(self):
        return bytearray(SLOTS_PER_BLOCK * self.slot_bytes)

    def allocated_bytes(self):
        """The payload storage allocated so far (all of it when allocated up front)."""
        return sum(len(block) for block in self.blocks if block is not None)

    def frame(self, slot):
        """The frame of the message in ``slot``, encoded now."""
        return wire.encode_frame(self.seqs[slot], self.types[slot], self.payload(slot))

    def drop(self, count):
        """Forget the ``count`` oldest messages."""
        self.head = (self.head + count) % self.capacity
        self.count -= count

    def clear(self):
        """Forget every message."""
        self.head = self.count = 0


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

    The messages wait in a :class:`SendRing` of ``capacity`` slots of
    ``slot_bytes`` each, allocated here once (the Pico's firmware asks for small
    slots: its messages are a few bytes), or as they are first used with
    ``up_front=False`` (the host's deep queue).

    Methods that may put bytes on the line return the frames to write; the
    caller owns the line and the clock (any millisecond counter: ticks_ms on
    the Pico, a monotonic clock on the host, a fake one in tests).
    """

    def __init__(
        self,
        window=32,
        *,
        timeout_ms=50,
        min_timeout_ms=5,
        max_timeout_ms=250,
        capacity=256,
        slot_bytes=wire.MAX_PAYLOAD,
        up_front=True,
    ):
        if not 1 <= window <= wire.MAX_WINDOW:
            raise ValueError(f"window {window} is not 1..{wire.MAX_WINDOW}")
        if not 0 <= slot_bytes <= wire.MAX_PAYLOAD:
            raise ValueError(f"slot_bytes {slot_bytes} is not 0..{wire.MAX_PAYLOAD}")
        self.window = window
        self.min_timeout_ms = min_timeout_ms
        self.max_timeout_ms = max_timeout_ms
        self.capacity = capacity
        self.slot_bytes = slot_bytes
        self.pending = SendRing(capacity, slot_bytes, up_front)  # the first `sent` are in flight
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
            raise wire.FrameError(f"send queue full ({self.capacity} messages)")
        if len(payload) > wire.MAX_PAYLOAD:
            raise wire.FrameError(f"payload of {len(payload)} bytes exceeds {wire.MAX_PAYLOAD}")
        if len(payload) > self.slot_bytes:
            raise wire.FrameError(
                f"payload of {len(payload)} bytes exceeds a send slot's {self.slot_bytes}"
            )
        self.pending.add(self.next_seq, mtype, payload)
        self.next_seq = (self.next_seq + 1) & 0xFF

    def numbers(self):
        """The sequence numbers of every unacknowledged message, oldest first."""
        ring = self.pending
        return [ring.seqs[ring.slot(index)] for index in range(len(ring))]

    def held_numbers(self):
        """The sequence numbers of the messages in flight that the peer holds (a NAK said)."""
        ring = self.pending
        slots = [ring.slot(index) for index in range(self.sent)]
        return [ring.seqs[slot] for slot in slots if ring.flags[slot] & SLOT_HELD]

    def round_trip_ms(self):
        """The smoothed round trip in milliseconds, or None before the first sample."""
        return self.srtt8 >> 3 if self.samples else None

    def resend_timeout_ms(self):
        """How long the oldest unanswered frame waits before it is resent: the timeout,
        doubled for every expiry in a row beyond the first few (a dead line), up to the cap."""
        doublings = min(self.expiries - wire.STEADY_EXPIRIES, 16)
        timeout = self.timeout_ms << doublings if doublings > 0 else self.timeout_ms
        return min(timeout, self.max_timeout_ms)

    def transmit(self, now):
        """Frames for queued messages that now fit in the window."""
        frames = []
        while self.sent < len(self.pending) and self.sent < self.window:
            frames.append(self._write(self.pending.slot(self.sent), now))
            self.sent += 1
        if frames and self.timer_at is None:
            self.timer_at = now
        return frames

    def on_ack(self, seq, now, payload=b""):
        """The peer has everything up to ``seq`` and holds nothing: forget those, resend
        what the line has certainly lost (see :meth:`on_nak`), send what now fits."""
        latest = wire.unpack_ack(payload)
        if latest is None:
            self._acknowledge(seq, now)
            return self.transmit(now)
        return self._on_reply(seq, latest, b"", now) + self.transmit(now)

    def on_nak(self, seq, now, payload=b""):
        """The peer has everything before ``seq``, misses ``seq`` and holds what the
        bitmap says; it has just read frame ``latest``. The line keeps the order of
        what is written, so every frame written before that one and neither
        acknowledged nor held is lost: resend those, each once per loss."""
        latest, bitmap = wire.unpack_nak(payload)
        if latest is not None:
            return self._on_reply((seq - 1) & 0xFF, latest, bitmap, now) + self.transmit(now)
        self._acknowledge((seq - 1) & 0xFF, now)  # a NAK without a bitmap: resend just seq
        frames = []
        ring = self.pending
        oldest = ring.slot(0)
        if (
            self.sent
            and ring.seqs[oldest] == seq
            and wire.elapsed_ms(now, ring.sent_at[oldest]) >= self.min_timeout_ms
        ):
            frames.append(self._resend(oldest, now))
        return frames + self.transmit(now)

    def poll(self, now):
        """On expiry of the resend timer, probe with the oldest unanswered frame; then
        send what fits. The probe's answer says what else is missing."""
        frames = []
        if self.sent and wire.elapsed_ms(now, self.timer_at) >= self.resend_timeout_ms():
            frames = self._expire(now)
        return frames + self.transmit(now)

    def _expire(self, now):
        """Resend the oldest in-flight frame the peer does not hold (unless a NAK just did)."""
        ring = self.pending
        for index in range(self.sent):
            slot = ring.slot(index)
            if ring.flags[slot] & SLOT_HELD:
                continue
            if wire.elapsed_ms(now, ring.sent_at[slot]) < self.resend_timeout_ms():
                self.timer_at = ring.sent_at[slot]  # a NAK resent it: time from then
                return []
            self.timeouts += 1
            self.expiries += 1
            self.timer_at = now
            return [self._resend(slot, now)] * wire.PROBE_COPIES
        self.timer_at = now
        return []

    def _on_reply(self, cumulative, latest, bitmap, now):
        """Everything up to ``cumulative`` arrived, the bitmap's frames are held and
        ``latest`` was read last: resend what was written before it and is missing."""
        ring = self.pending
        answered = self._in_flight(latest)  # its slot keeps what it learnt once acknowledged
        self._acknowledge(cumulative, now)
        if bitmap and self.sent and ring.seqs[ring.slot(0)] == (cumulative + 1) & 0xFF:
            self._note_held(bitmap)
        if answered is None:
            return []  # not a frame in flight: no telling what was lost
        self._sample(answered, now)
        seen = ring.order[answered]
        frames = []
        for index in range(self.sent):
            slot = ring.slot(index)
            if not ring.flags[slot] & SLOT_HELD and _written_before(ring.order[slot], seen):
                frames.append(self._resend(slot, now))
        return frames

    def _in_flight(self, seq):
        """The slot of the in-flight message numbered ``seq``, or None."""
        if not self.sent:
            return None
        ring = self.pending
        index = wire.seq_distance(seq, ring.seqs[ring.slot(0)])
        return ring.slot(index) if index < self.sent else None

    def _note_held(self, bitmap):
        """Mark the in-flight frames the bitmap says the peer holds (never resent by time)."""
        ring = self.pending
        for index in range(1, self.sent):
            bit = index - 1
            if bit >> 3 < len(bitmap) and bitmap[bit >> 3] >> (bit & 7) & 1:
                ring.flags[ring.slot(index)] |= SLOT_HELD

    def _acknowledge(self, seq, now):
        """Drop the in-flight messages up to and including ``seq`` (others are stale)."""
        if not self.sent:
            return
        ring = self.pending
        count = wire.seq_distance(seq, ring.seqs[ring.slot(0)]) + 1
        if count <= self.sent:
            ring.drop(count)
            self.sent -= count
            self.expiries = 0
            self.timer_at = now if self.sent else None

    def _sample(self, slot, now):
        """The round trip of the frame a reply answers (if it was sent only once: Karn;
        and only at its first reply), into the smoothed estimate and the resend timeout."""
        ring = self.pending
        if ring.flags[slot] & (SLOT_RESENT | SLOT_TIMED):
            return
        ring.flags[slot] |= SLOT_TIMED
        sample = wire.elapsed_ms(now, ring.sent_at[slot])
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

    def _write(self, slot, now):
        """The frame of one message, stamped with when and in which order it was written."""
        ring = self.pending
        self.transmissions = (self.transmissions + 1) & wire.TICKS_MASK
        ring.order[slot] = self.transmissions
        ring.sent_at[slot] = now
        ring.flags[slot] |= SLOT_SENT
        return ring.frame(slot)

    def _resend(self, slot, now):
        """The frame of a message again, counted as a retransmission."""
        self.retransmissions += 1
        self.pending.flags[slot] |= SLOT_RESENT
        return self._write(slot, now)

    # Receiving ------------------------------------------------------------------------

    def receive(self, seq, mtype, payload):
        """``(messages, reply)``: the ``(type, payload)`` now deliverable, in order, and
        the bytes to answer with: the ACK or NAK, ``REPLY_COPIES`` times (None: stay
        quiet). The reply to the last frame of a batch says all that the replies to
        the earlier ones did, so a caller writes only that one."""
        ahead = wire.seq_distance(seq, self.expected)
        if ahead == 0:
            return self._deliver(mtype, payload), self._reply(seq)
        if ahead >= 128:  # behind: delivered before, our ACK was lost
            self.duplicates += 1
            return [], self._reply(seq)
        if ahead >= wire.FOREIGN_AHEAD:  # further ahead than any window: not this peer's stream
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
            furthest = max(furthest, wire.seq_distance(seq, self.expected))
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
            reply = wire.encode_frame((self.expected - 1) & 0xFF, wire.ACK, wire.pack_ack(latest))
        else:
            self.naks += 1
            reply = wire.encode_frame(
                self.expected, wire.NAK, wire.pack_nak(latest, self._held_bitmap())
            )
        return reply * wire.REPLY_COPIES

    def _held_bitmap(self):
        """Bit n set: frame expected + 1 + n is held."""
        bitmap = bytearray(wire.NAK_BITMAP_BYTES)
        for seq in self.held:
            bit = wire.seq_distance(seq, self.expected) - 1
            if 0 <= bit < 8 * wire.NAK_BITMAP_BYTES:
                bitmap[bit >> 3] |= 1 << (bit & 7)
        return bitmap

    # Restarts -------------------------------------------------------------------------

    def rewind(self):
        """After a reconnect to the same peer: send every unacknowledged message again."""
        self.sent = 0
        self.timer_at = None
        self.expiries = 0
        ring = self.pending
        for index in range(len(ring)):
            slot = ring.slot(index)
            if ring.flags[slot] & SLOT_SENT:  # sent before: a reply no longer says which copy
                ring.flags[slot] = (ring.flags[slot] & ~SLOT_HELD) | SLOT_RESENT

    def restart(self, keep_pending):
        """After the peer restarted: number from 0 again in both directions.

        With ``keep_pending`` the unacknowledged messages are renumbered and sent
        again (the Pico keeps its button events for a new host); without it they
        are dropped (the host re-sends its LED state instead).
        """
        ring = self.pending
        if not keep_pending:
            ring.clear()
        for index in range(len(ring)):
            slot = ring.slot(index)
            ring.seqs[slot] = index & 0xFF
            ring.flags[slot] = 0  # as if queued afresh
        self.next_seq = len(ring) & 0xFF
        self.expected = 0
        self.held = {}
        self.rewind()


def _written_before(order, other):
    """True if transmission ``order`` came before transmission ``other`` (counts wrap)."""
    distance = (other - order) & wire.TICKS_MASK
    return 0 < distance < (wire.TICKS_MASK >> 1)
