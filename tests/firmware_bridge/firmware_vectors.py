"""Vectors printed by the wire protocol and the firmware logic, one per line.

Run by tests/firmware_bridge/test_firmware_bridge_micropython.py under both
CPython and the real MicroPython interpreter: the two outputs must be equal.
Written in the subset both run (no typing, no dataclasses, no f-string specs).
"""

import wire
from app import Firmware
from channel import Channel
from inputs import Button, Die
from leds import Leds


def hexed(data):
    """Bytes as hex text (bytes.hex is not in every MicroPython)."""
    return "".join(f"{byte:02x}" for byte in data)


def show(name, value):
    print(name + ": " + str(value))


def diff(later, earlier):
    return later - earlier


class FakePin:
    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


class FakeStrip:
    def __init__(self, count):
        self.pixels = [(0, 0, 0)] * count
        self.writes = 0

    def __setitem__(self, index, colour):
        self.pixels[index] = colour

    def write(self):
        self.writes += 1


class FakePort:
    def __init__(self):
        self.incoming = b""
        self.written = []

    def read(self, wait_ms=0):
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data):
        self.written.append(bytes(data))


def wire_vectors():
    for data in (b"123456789", b"", b"A", b"\x00", bytes(range(256))):
        show("crc " + hexed(data[:12]), f"{wire.crc16(data):04x} {wire.crc16_table(data):04x}")
    for data in (b"\x00", b"\x11\x22\x00\x33", bytes(range(1, 255)), bytes(600)):
        encoded = wire.cobs_encode(data)
        show("cobs " + hexed(data[:8]), hexed(encoded[:16]) + " " + str(len(encoded)))
        show("uncobs " + hexed(data[:8]), wire.cobs_decode(encoded) == data)
    frames = [
        wire.encode_frame(0, wire.HELLO, wire.pack_hello(wire.PROTOCOL_VERSION, 0xDEADBEEF)),
        wire.encode_frame(7, wire.BUTTON, wire.pack_button(3, wire.HELD, 123456)),
        wire.encode_frame(255, wire.SET_LEDS, wire.pack_set_leds(5, b"\x00\x01\x02" * 3)),
        wire.encode_frame(9, wire.ANIMATE, wire.pack_animate(1, 3, 10, 5, 255, 0, 0, 800)),
        wire.encode_frame(1, wire.ERROR, wire.pack_error(2, "naïve")),
    ]
    for frame in frames:
        show("frame", hexed(frame))
    decoder = wire.Decoder()
    stream = b"\x05\x00garbage" + frames[1] + frames[2][:-3] + b"\x00" + b"\x01\x00" + frames[3]
    for seq, mtype, payload in decoder.feed(stream):
        show("decoded", f"{seq} {mtype} {hexed(payload)}")
    show("rejected", f"{decoder.rejected} {sorted(decoder.reasons.items())}")
    code, text = wire.unpack_error(wire.pack_error(2, "naïve"))
    show("error", f"{code} {text}")


def seqs(frames):
    """The sequence numbers of the frames in ``frames``."""
    decoder = wire.Decoder()
    return [seq for seq, _, _ in decoder.feed(b"".join(frames))]


def receive_all(receiver, frames, delivered):
    """Hand frames to a receiver; its last reply (which answers them all)."""
    reply = None
    decoder = wire.Decoder()
    for seq, mtype, payload in decoder.feed(b"".join(frames)):
        messages, reply = receiver.receive(seq, mtype, payload)
        delivered += [message[0] for _, message in messages]
    return reply


def answer(sender, reply, now):
    """Hand a reply's frames (every copy) to the sender; what it writes back."""
    out = []
    decoder = wire.Decoder()
    for seq, mtype, payload in decoder.feed(reply):
        act = sender.on_ack if mtype == wire.ACK else sender.on_nak
        out += act(seq, now, payload)
    return out


def channel_vectors():
    sender = Channel(timeout_ms=20, min_timeout_ms=5, max_timeout_ms=80)
    receiver = Channel()
    for number in range(20):
        sender.queue(wire.LOG, bytes((number,)))
    first = sender.transmit(0)
    show("in flight", len(first))
    delivered = []
    reply = receive_all(receiver, first[:3] + first[4:], delivered)  # frame 3 lost
    show("reply", hexed(reply))
    resent = answer(sender, reply, 4)
    show("resent after nak", seqs(resent))
    show("round trip", (sender.round_trip_ms(), sender.resend_timeout_ms()))
    reply = receive_all(receiver, resent, delivered)
    show("after the gap", (answer(sender, reply, 6), len(sender.pending)))
    show("delivered", delivered)
    sender.queue(wire.LOG, b"tail")
    receive_all(receiver, sender.transmit(7), delivered)  # its ACK is lost
    wait = sender.resend_timeout_ms()
    show("probe", (seqs(sender.poll(6 + wait)), seqs(sender.poll(7 + wait))))
    show("old nak", seqs(sender.on_nak(20, 100)))
    show("counters", (sender.retransmissions, sender.timeouts, receiver.gaps, receiver.naks))
    show("duplicates", receiver.duplicates)


def button_vectors():
    pin = FakePin()
    button = Button(pin, 4, diff, debounce_ms=20, hold_ms=100)
    events = []
    timeline = [(0, 1), (5, 0), (8, 1), (9, 0), (15, 0), (29, 0), (40, 0), (130, 0), (150, 1)]
    timeline += [(160, 0), (165, 1), (200, 1)]
    for now, level in timeline:
        pin.level = level
        events += button.poll(now)
    show("button events", events)


def die_vectors():
    randoms = iter([255, 252, 7, 0, 251, 5])
    die = Die(0, None, 10, (9, 9, 9), lambda: next(randoms))
    show("rolls", [die.roll(), die.roll(), die.roll(), die.roll()])
    show("face", hexed(die.face()))


def led_vectors():
    strip = FakeStrip(12)
    leds = Leds(strip, 12, 0, diff)
    leds.fill(2, 4, (10, 20, 30))
    leds.animate(0, wire.ANIM_CHASE, 6, 4, colour=(1, 2, 3), period_ms=400, now=0)
    leds.animate(1, wire.ANIM_PULSE, 10, 2, colour=(200, 100, 50), period_ms=1000, now=0)
    leds.set_host_lost(True, 0)
    for now in (0, 150, 250, 750, 1500):
        show(f"frame {now}", leds.frame(now))
    try:
        leds.fill(10, 5, (1, 1, 1))
    except ValueError as error:
        show("range", error)


def firmware_vectors():
    port = FakePort()
    strip = FakeStrip(20)
    clock = [0]
    randoms = iter([1, 2, 3, 4, 77, 200])
    die = Die(0, None, 10, (5, 5, 5), lambda: next(randoms))
    firmware = Firmware(
        port, strip, led_count=20, clock=lambda: clock[0], clock_diff=diff,
        random_byte=lambda: next(randoms), dice=[die], version=(1, 2, 3),
    )  # fmt: skip
    show("boot identify", hexed(port.written.pop()))
    port.incoming = wire.encode_frame(0, wire.HELLO, wire.pack_hello(wire.PROTOCOL_VERSION, 42))
    port.incoming += wire.encode_frame(0, wire.FILL, wire.pack_fill(0, 3, 9, 8, 7))
    port.incoming += wire.encode_frame(1, wire.ROLL, wire.pack_roll(0))
    port.incoming += wire.encode_frame(
        2, wire.SET_LEDS, wire.pack_set_leds(19, b"\x01\x02\x03" * 2)
    )
    firmware.step(now=10)
    firmware.step(now=11)
    show("written", [hexed(frame) for frame in port.written])
    show("leds", strip.pixels[:4] + strip.pixels[10:17])
    show("host lost at 2999", firmware.step(now=2999) or firmware.leds.host_lost)
    firmware.step(now=3011)
    show("host lost at 3011", firmware.leds.host_lost)
    firmware.step(now=4511)  # half a breath later: full red
    show("status led", strip.pixels[0])


wire_vectors()
channel_vectors()
button_vectors()
die_vectors()
led_vectors()
firmware_vectors()
