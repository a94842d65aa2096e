"""The firmware's main loop: the protocol, the LEDs, buttons, dice and the host watchdog.

:class:`Firmware` takes every part as an argument (the serial port, the LED
chain, the inputs, the clock, the random source), so ``main.py`` builds it from
real pins on the Pico and tests build it from fakes with a fake clock.
"""

import wire
from channel import Channel
from leds import Leds

ERR_BAD_MESSAGE = 1
ERR_UNKNOWN_TYPE = 2
ERR_INTERNAL = 3
IDENTIFY_EVERY_MS = 200  # at most this often, tell a stranger who we are
SEND_SLOT_BYTES = 64  # a send queue slot: a button event is 6 bytes, an error's text is cut


class Firmware:
    """One Pico: call :meth:`step` forever (``run``), or step by step in tests."""

    def __init__(
        self,
        port,
        strip,
        *,
        led_count,
        clock,
        clock_diff,
        random_byte,
        buttons=(),
        dice=(),
        status_led=0,
        version=(0, 0, 0),
        host_timeout_ms=3000,
        frame_ms=20,
        protocol=wire.PROTOCOL_VERSION,
    ):
        self.port = port
        self.clock = clock
        self.leds = Leds(strip, led_count, status_led, clock_diff)
        self.buttons = list(buttons)
        self.dice = list(dice)
        self.version = version
        self.protocol = protocol
        self.host_timeout_ms = host_timeout_ms
        self.frame_ms = frame_ms
        self._diff = clock_diff
        self.boot_id = random_byte() | random_byte() << 8 | random_byte() << 16
        self.boot_id |= random_byte() << 24
        self.decoder = wire.Decoder()
        self.channel = Channel(slot_bytes=SEND_SLOT_BYTES)  # the whole queue, at boot
        self.host_id = None
        self.reply = None  # the ACK or NAK for the frames read in this step
        self.running = True
        self.errors = 0
        now = clock()
        self.last_heard = now
        self.last_shown = now
        self.last_identify = None
        self._send_identify(now)

    # The loop -----------------------------------------------------------------------

    def run(self):
        """Serve the host until a REPL message asks us to stop."""
        while self.running:
            self.step()

    def step(self, now=None, wait_ms=1):
        """One pass: read the line, poll inputs, resend, watch the host, refresh LEDs."""
        data = self.port.read(wait_ms)
        if now is None:
            now = self.clock()
        try:
            for frame in self.decoder.feed(data):
                self._on_frame(frame, now)
            self._poll_inputs(now)
        except Exception as error:  # the table must keep running whatever happened
            self.errors += 1
            self.report(ERR_INTERNAL, f"firmware error: {error!r}")
        self._answer()
        self._flush(now)
        self._watch_host(now)
        self._refresh(now)

    def _flush(self, now):
        """Write retransmissions and newly admitted messages, once a host is known."""
        if self.host_id is not None:
            self._write(self.channel.poll(now))

    def _answer(self):
        """Write the reply to the last reliable frame read: it answers all the earlier ones."""
        if self.reply is not None:
            self._write((self.reply,))
            self.reply = None

    def _write(self, frames):
        """Put frames on the line, after a delimiter that ends any half frame before them.

        Without it the first frame after a quiet spell would be lost whenever the
        last one before it lost its delimiter on the line: the receiver would
        take both for one frame.
        """
        if frames:
            self.port.write(wire.DELIMITER)
        for frame in frames:
            self.port.write(frame)

    # Outgoing events ------------------------------------------------------------------

    def emit(self, mtype, payload):
        """Queue a reliable message to the host; False (and counted) if the queue is full."""
        try:
            self.channel.queue(mtype, payload)
            return True
        except wire.FrameError:
            self.errors += 1
            return False

    def emit_button(self, button, action, pico_ms):
        """Report a button event."""
        return self.emit(wire.BUTTON, wire.pack_button(button, action, pico_ms))

    def report(self, code, text):
        """Report an error to the host (its text cut to fit a send queue slot)."""
        return self.emit(wire.ERROR, wire.pack_error(code, text, self.channel.slot_bytes))

    def _poll_inputs(self, now):
        """Debounce every button and roll every die whose button was pressed."""
        for button in self.buttons:
            for button_id, action, when in button.poll(now):
                self.emit_button(button_id, action, when)
        for die in self.dice:
            if die.wants_roll(now):
                self.roll(die.die_id)

    def roll(self, die_id):
        """Roll one die, show its pips, report the value."""
        for die in self.dice:
            if die.die_id == die_id:
                value = die.roll()
                self.leds.set_rgb(die.first_led, die.face())
                self.emit(wire.DICE, wire.pack_dice(die_id, value))
                return value
        raise ValueError(f"there is no die {die_id} on this table")

    # Incoming frames ------------------------------------------------------------------

    def _on_frame(self, frame, now):
        """Handle one valid frame from the host."""
        seq, mtype, payload = frame
        self.last_heard = now
        self.leds.set_host_lost(False, now)
        if mtype in wire.RELIABLE:
            self._on_reliable(seq, mtype, payload, now)
        elif mtype == wire.HELLO:
            self._on_hello(payload, now)
        elif mtype == wire.PING:
            self.port.write(wire.encode_frame(0, wire.PONG, payload))
        elif mtype == wire.ACK:
            self._write(self.channel.on_ack(seq, now, payload))
        elif mtype == wire.NAK:
            self._write(self.channel.on_nak(seq, now, payload))
        elif mtype == wire.REPL and bytes(payload) == wire.REPL_MAGIC:
            self.running = False

    def _on_hello(self, payload, now):
        """A host says hello: a new host gets fresh sequence numbers and our pending events."""
        _, host_id = wire.unpack_hello(payload)
        if host_id != self.host_id:
            self.host_id = host_id
            self.channel.restart(keep_pending=True)
            self.reply = None  # it answered the previous host's frames
        self._send_identify(now)

    def _send_identify(self, now):
        """Tell the host what we are (also unasked, at boot and to a stranger)."""
        self.last_identify = now
        payload = wire.pack_identify(
            self.protocol,
            self.version,
            self.boot_id,
            self.host_id or 0,
            self.leds.count,
            len(self.buttons),
            len(self.dice),
        )
        self.port.write(wire.encode_frame(0, wire.IDENTIFY, payload))

    def _on_reliable(self, seq, mtype, payload, now):
        """Deliver a sequenced message once, in order, and acknowledge it."""
        if self.host_id is None:  # a host from before our reset: it must say hello first
            if self._diff(now, self.last_identify) >= IDENTIFY_EVERY_MS:
                self._send_identify(now)
            return
        messages, reply = self.channel.receive(seq, mtype, payload)
        if reply is not None:
            self.reply = reply
        for message_type, message in messages:
            self._execute(message_type, message, now)

    def _execute(self, mtype, payload, now):
        """Carry out one command; a bad one is reported to the host, never fatal."""
        try:
            self._command(mtype, payload, now)
        except ValueError as error:  # wire.FrameError included
            self.report(ERR_BAD_MESSAGE, f"message type {mtype} refused: {error}")

    def _command(self, mtype, payload, now):
        """Apply one host command."""
        if mtype == wire.SET_LEDS:
            start, rgb = wire.unpack_set_leds(payload)
            self.leds.set_rgb(start, rgb)
        elif mtype == wire.FILL:
            start, count, r, g, b = wire.unpack_fill(payload)
            self.leds.fill(start, count, (r, g, b))
        elif mtype == wire.ANIMATE:
            slot, kind, start, count, r, g, b, period = wire.unpack_animate(payload)
            self.leds.animate(slot, kind, start, count, colour=(r, g, b), period_ms=period, now=now)
        elif mtype == wire.ROLL:
            self.roll(wire.unpack_roll(payload))
        else:
            self.report(ERR_UNKNOWN_TYPE, f"message type {mtype} is not for the Pico")

    # Watchdog and display -------------------------------------------------------------

    def _watch_host(self, now):
        """After HOST_TIMEOUT_MS without a valid frame, show the host-lost pattern."""
        if self._diff(now, self.last_heard) >= self.host_timeout_ms:
            self.leds.set_host_lost(True, now)

    def _refresh(self, now):
        """Write the chain when it changed, and at the frame rate while it animates."""
        due = self._diff(now, self.last_shown) >= self.frame_ms
        if self.leds.dirty or (due and self.leds.moving()):
            self.leds.show(now)
            self.last_shown = now
