"""The wire protocol under CPython: CRC vectors, COBS, frames, the decoder, the channel."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import wire
from firmware_bridge.channel import SLOTS_PER_BLOCK, Channel, SendRing

# Published check values of CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection).
CRC_VECTORS = [(b"123456789", 0x29B1), (b"", 0xFFFF), (b"A", 0xB915), (b"\x00", 0xE1F0)]


@pytest.mark.parametrize(("data", "expected"), CRC_VECTORS)
def test_crc16_known_vectors(data: bytes, expected: int) -> None:
    assert wire.crc16(data) == expected
    assert wire.crc16_table(data) == expected


@given(st.binary(max_size=300))
def test_table_crc_equals_c_crc(data: bytes) -> None:
    assert wire.crc16_table(data) == wire.crc16(data)


def test_cobs_known_encodings() -> None:
    assert wire.cobs_encode(b"\x00") == b"\x01\x01"
    assert wire.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33"
    assert wire.cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255)) + b"\x01"


@given(st.binary(max_size=1200))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = wire.cobs_encode(data)
    assert 0 not in encoded
    assert wire.cobs_decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=wire.MAX_PAYLOAD))
def test_frame_round_trip(seq: int, mtype: int, payload: bytes) -> None:
    frame = wire.encode_frame(seq, mtype, payload)
    assert frame.endswith(b"\x00") and 0 not in frame[:-1]
    assert wire.decode_frame(frame[:-1]) == (seq, mtype, payload)


def test_oversized_payload_is_refused() -> None:
    with pytest.raises(wire.FrameError, match="exceeds"):
        wire.encode_frame(0, wire.LOG, bytes(wire.MAX_PAYLOAD + 1))


def test_decoder_resyncs_after_garbage_at_next_delimiter() -> None:
    good = wire.encode_frame(3, wire.PING, b"hi")
    decoder = wire.Decoder()
    assert decoder.feed(b"\x13\x37garbage" + good) == []
    assert decoder.rejected == 1
    assert decoder.feed(good) == [(3, wire.PING, b"hi")]


def test_decoder_assembles_frames_split_anywhere() -> None:
    stream = b"".join(wire.encode_frame(i, wire.LOG, bytes([i]) * i) for i in range(20))
    decoder = wire.Decoder()
    frames = []
    for i in range(0, len(stream), 7):
        frames += decoder.feed(stream[i : i + 7])
    assert frames == [(i, wire.LOG, bytes([i]) * i) for i in range(20)]
    assert decoder.rejected == 0


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        (wire.cobs_encode(b"\x01\x02\x01\x00\x05\x06\x07"), "CRC mismatch"),
        (
            wire.cobs_encode(b"\x01\x02\x02\x00\x05\x06\x07"),
            "length field disagrees with the frame",
        ),
        (wire.cobs_encode(b"\x01\x02\x00\x00\x05"), "frame too short (5 bytes)"),
        (b"\x09\x01\x02", "a COBS block runs past the end of the frame"),
        (b"\xff" * (wire.MAX_WIRE_FRAME + 5), f"frame longer than {wire.MAX_WIRE_FRAME} bytes"),
    ],
)
def test_corrupt_frames_are_rejected_with_a_reason(frame: bytes, reason: str) -> None:
    decoder = wire.Decoder()
    good = wire.encode_frame(1, wire.PONG)
    assert decoder.feed(frame + b"\x00" + good) == [(1, wire.PONG, b"")]
    assert decoder.last_reason == reason
    assert decoder.reasons == {reason: 1}


def test_every_single_bit_flip_is_caught() -> None:
    frame = bytearray(wire.encode_frame(9, wire.BUTTON, wire.pack_button(2, wire.PRESSED, 77)))
    for index in range(len(frame) - 1):
        for bit in range(8):
            corrupt = bytearray(frame)
            corrupt[index] ^= 1 << bit
            decoder = wire.Decoder()
            assert decoder.feed(bytes(corrupt) + b"\x00") == [], (index, bit)


@settings(max_examples=300, derandomize=True)
@given(st.binary(max_size=600))
def test_fuzz_arbitrary_bytes_never_raise_and_recover(noise: bytes) -> None:
    decoder = wire.Decoder()
    decoder.feed(noise)  # must not raise
    good = wire.encode_frame(42, wire.DICE, wire.pack_dice(1, 6))
    assert decoder.feed(b"\x00" + good) == [(42, wire.DICE, b"\x01\x06")]


@settings(max_examples=200, derandomize=True)
@given(st.data())
def test_fuzz_corrupted_streams_yield_only_real_frames(data: st.DataObject) -> None:
    sent = [(i, wire.LOG, bytes([i % 251 + 1]) * (i % 9)) for i in range(12)]
    stream = bytearray(b"".join(wire.encode_frame(*frame) for frame in sent))
    for _ in range(data.draw(st.integers(0, 6))):
        kind = data.draw(st.sampled_from(["flip", "drop", "insert"]))
        at = data.draw(st.integers(0, len(stream) - 1))
        if kind == "flip":
            stream[at] ^= data.draw(st.integers(1, 255))
        elif kind == "drop":
            del stream[at]
        else:
            stream.insert(at, data.draw(st.integers(0, 255)))
    decoder = wire.Decoder()
    got = decoder.feed(bytes(stream)) + decoder.feed(b"\x00" + wire.encode_frame(*sent[0]))
    assert got[-1] == sent[0]
    assert all(frame in sent for frame in got)  # a 16-bit CRC lets nothing made-up through here


def test_payload_errors_name_the_message() -> None:
    with pytest.raises(wire.FrameError, match="BUTTON payload is 2 bytes, expected 6"):
        wire.unpack_button(b"\x01\x02")
    with pytest.raises(wire.FrameError, match="not 2 \\+ 3n"):
        wire.unpack_set_leds(b"\x00\x00\x01")
    with pytest.raises(wire.FrameError, match="UTF-8"):
        wire.unpack_log(b"\xff")


def test_identify_round_trip_and_foreign_protocol() -> None:
    payload = wire.pack_identify(wire.PROTOCOL_VERSION, (1, 2, 3), 99, 7, 100, 6, 1)
    assert wire.unpack_identify(payload) == (wire.PROTOCOL_VERSION, (1, 2, 3), 99, 7, 100, 6, 1)
    foreign = bytes([wire.PROTOCOL_VERSION + 1]) + b"anything"
    assert wire.unpack_identify(foreign)[0] == wire.PROTOCOL_VERSION + 1


# The channel, with a fake clock ------------------------------------------------------


def deliver(frames: list[bytes]) -> list[tuple[int, int, bytes]]:
    decoder = wire.Decoder()
    return decoder.feed(b"".join(frames))


def sent_seqs(frames: list[bytes]) -> list[int]:
    return [seq for seq, _, _ in deliver(frames)]


def sender_with(count: int, now: int = 0, **options: int) -> tuple[Channel, list[bytes]]:
    """A sender with ``count`` one-byte messages queued and transmitted at ``now``."""
    sender = Channel(**options)
    for number in range(count):
        sender.queue(wire.BUTTON, bytes([number]))
    return sender, sender.transmit(now)


def answer(sender: Channel, reply: bytes, now: int) -> list[bytes]:
    """Hand every frame of a receiver's reply to the sender; the frames it writes back."""
    out: list[bytes] = []
    for seq, mtype, payload in deliver([reply]):
        act = sender.on_ack if mtype == wire.ACK else sender.on_nak
        out += act(seq, now, payload)
    return out


def test_a_payload_longer_than_max_payload_is_refused_even_with_right_length_and_crc() -> None:
    size = wire.MAX_PAYLOAD + 1
    body = bytes((0, wire.LOG, size & 0xFF, size >> 8)) + bytes(range(1, 256)) * 5
    body = body[: 4 + size]
    crc = wire.crc16(body)
    encoded = wire.cobs_encode(body + bytes((crc >> 8, crc & 0xFF)))
    assert len(encoded) <= wire.MAX_WIRE_FRAME  # the decoder's length limit lets it through
    reason = f"payload of {size} bytes exceeds {wire.MAX_PAYLOAD}"
    with pytest.raises(wire.FrameError, match=reason):
        wire.decode_frame(encoded)
    decoder = wire.Decoder()
    assert decoder.feed(encoded + b"\x00") == []
    assert decoder.reasons == {reason: 1}
    longest = wire.encode_frame(1, wire.LOG, bytes(wire.MAX_PAYLOAD))
    assert decoder.feed(longest) == [(1, wire.LOG, bytes(wire.MAX_PAYLOAD))]


def test_replies_come_twice_and_name_the_frame_they_answer() -> None:
    receiver = Channel()
    messages, reply = receiver.receive(0, wire.BUTTON, b"a")
    assert messages == [(wire.BUTTON, b"a")]
    assert deliver([reply]) == [(0, wire.ACK, wire.pack_ack(0))] * wire.REPLY_COPIES


def test_a_gap_is_naked_at_once_and_its_frame_resent_once() -> None:
    sender, frames = sender_with(5)
    receiver = Channel()
    replies = []
    for seq, mtype, payload in deliver(frames[:1] + frames[2:]):  # frame 1 is lost
        messages, reply = receiver.receive(seq, mtype, payload)
        replies.append(reply)
    assert receiver.gaps == 1 and receiver.naks == 3
    assert deliver([replies[-1]])[0] == (1, wire.NAK, wire.pack_nak(4, b"\x07\x00\x00\x00"))
    # The first NAK (after frame 2) resends frame 1; the later ones, about frames the
    # sender wrote before that resend, do not resend it again.
    resent = [sent_seqs(answer(sender, reply, now=2)) for reply in replies[1:]]
    assert resent == [[1], [], []]
    assert sender.retransmissions == 1
    assert sender.held_numbers() == sender.numbers()[1:] == [2, 3, 4]
    messages, reply = receiver.receive(*deliver(frames[1:2])[0])
    assert [payload for _, payload in messages] == [b"\x01", b"\x02", b"\x03", b"\x04"]
    assert answer(sender, reply, now=3) == [] and not sender.pending


def test_a_resend_lost_again_is_resent_on_the_next_nak() -> None:
    sender, frames = sender_with(6)
    receiver = Channel()
    for seq, mtype, payload in deliver(frames[:1] + frames[2:3]):  # frame 1 lost
        _, reply = receiver.receive(seq, mtype, payload)
    assert sent_seqs(answer(sender, reply, now=1)) == [1]  # this resend is lost too
    for seq, mtype, payload in deliver(frames[3:4]):  # written before the resend
        _, reply = receiver.receive(seq, mtype, payload)
    assert answer(sender, reply, now=2) == []  # the resend may still be on its way
    sender.queue(wire.BUTTON, b"\x06")
    later = sender.transmit(now=3)  # written after the resend
    _, reply = receiver.receive(*deliver(later)[0])
    assert sent_seqs(answer(sender, reply, now=4)) == [1, 4, 5]  # lost, all three


def test_a_lost_nak_is_recovered_by_the_timer_with_one_probe() -> None:
    sender, frames = sender_with(4, min_timeout_ms=5)
    receiver = Channel()
    _, reply = receiver.receive(*deliver(frames[:1])[0])
    assert answer(sender, reply, now=1) == []  # frame 0 acknowledged
    for seq, mtype, payload in deliver(frames[2:]):  # frame 1 lost
        receiver.receive(seq, mtype, payload)  # and both NAKs lost on the line
    wait = sender.resend_timeout_ms()
    assert sender.poll(now=1 + wait - 1) == []
    probe = sender.poll(now=1 + wait)
    assert sent_seqs(probe) == [1] * wire.PROBE_COPIES  # neither 2 nor 3, which may be held
    assert sender.timeouts == 1
    delivered = []
    for seq, mtype, payload in deliver(probe):
        messages, reply = receiver.receive(seq, mtype, payload)
        delivered += [payload for _, payload in messages]
    assert delivered == [b"\x01", b"\x02", b"\x03"]
    assert receiver.duplicates == wire.PROBE_COPIES - 1
    assert answer(sender, reply, now=2 + wait) == [] and not sender.pending


def test_duplicates_are_dropped_and_answered() -> None:
    receiver = Channel()
    delivered = []
    for seq in (0, 0, 2, 2, 1, 1, 2):
        messages, reply = receiver.receive(seq, wire.BUTTON, bytes([seq]))
        delivered += [payload for _, payload in messages]
        assert reply is not None
    assert delivered == [b"\x00", b"\x01", b"\x02"]
    assert receiver.duplicates == 4 and receiver.held == {}
    assert deliver([reply])[0] == (2, wire.ACK, wire.pack_ack(2))


def test_frames_from_no_live_window_are_ignored() -> None:
    receiver = Channel()
    assert receiver.receive(wire.FOREIGN_AHEAD, wire.BUTTON, b"x") == ([], None)
    assert receiver.held == {}


def ack_after(sender: Channel, milliseconds: list[int]) -> None:
    """Send one message at a time and have it acknowledged after each round trip."""
    now = 1000
    for round_trip in milliseconds:
        sender.queue(wire.BUTTON, b"x")
        [frame] = sender.transmit(now)
        seq = deliver([frame])[0][0]
        now += round_trip
        sender.on_ack(seq, now, wire.pack_ack(seq))
        now += 1


def test_the_round_trip_estimate_follows_the_samples_and_sets_the_timeout() -> None:
    sender = Channel(min_timeout_ms=5, max_timeout_ms=250)
    assert sender.round_trip_ms() is None and sender.resend_timeout_ms() == 50  # no sample yet
    ack_after(sender, [20])
    assert sender.round_trip_ms() == 20 and sender.resend_timeout_ms() == 20 + 4 * 10
    ack_after(sender, [20] * 40)
    assert sender.round_trip_ms() == 20
    assert 20 < sender.resend_timeout_ms() < 30  # the variation has nearly died away
    ack_after(sender, [40] * 40)
    assert 38 <= sender.round_trip_ms() <= 40


def test_both_copies_of_a_reply_time_the_round_trip_once() -> None:
    sender, frames = sender_with(2)
    receiver = Channel()
    _, reply = receiver.receive(*deliver(frames[1:])[0])  # frame 0 lost: a NAK, still in flight
    assert len(deliver([reply])) == wire.REPLY_COPIES == 2
    answer(sender, reply, now=6)
    assert sender.samples == 1 and sender.round_trip_ms() == 6
    assert sender.resend_timeout_ms() == 6 + 4 * 3


def test_the_timeout_keeps_to_its_floor_and_cap() -> None:
    fast, slow = Channel(min_timeout_ms=5), Channel(max_timeout_ms=250)
    ack_after(fast, [0, 1] * 20)
    ack_after(slow, [900] * 5)
    assert fast.round_trip_ms() <= 1 and fast.resend_timeout_ms() == 5
    assert slow.round_trip_ms() > 250 and slow.resend_timeout_ms() == 250


def test_a_retransmitted_frame_does_not_time_the_round_trip() -> None:
    sender, _ = sender_with(1, min_timeout_ms=5)
    sender.poll(now=sender.resend_timeout_ms())  # resent: now ambiguous (Karn)
    sender.on_ack(0, 5000, wire.pack_ack(0))
    assert sender.round_trip_ms() is None and not sender.pending


def test_the_timer_doubles_only_after_steady_expiries_and_resets_on_progress() -> None:
    sender, _ = sender_with(2, timeout_ms=10, max_timeout_ms=45)
    now, waits = 0, []
    for _ in range(wire.STEADY_EXPIRIES + 3):
        wait = sender.resend_timeout_ms()
        assert sender.poll(now + wait - 1) == []
        now += wait
        assert sent_seqs(sender.poll(now)) == [0] * wire.PROBE_COPIES
        waits.append(wait)
    assert waits == [10] * (wire.STEADY_EXPIRIES + 1) + [20, 40]
    assert sender.resend_timeout_ms() == 45  # the cap
    sender.on_ack(0, now, wire.pack_ack(0))
    assert sender.resend_timeout_ms() == 10


def test_a_probe_waits_for_a_frame_a_nak_has_just_resent() -> None:
    sender, frames = sender_with(3, timeout_ms=10)
    receiver = Channel()
    for seq, mtype, payload in deliver(frames[1:]):  # frame 0 lost
        _, reply = receiver.receive(seq, mtype, payload)
    assert sent_seqs(answer(sender, reply, now=8)) == [0]  # no progress: the timer runs on
    wait = sender.resend_timeout_ms()
    assert sender.poll(now=wait) == []  # frame 0 was resent at 8: its time runs from then
    assert sender.poll(now=8 + wait - 1) == []
    assert sent_seqs(sender.poll(now=8 + wait)) == [0] * wire.PROBE_COPIES


def test_replies_without_a_payload_still_work() -> None:
    """What a firmware from before the NAK bitmap sends: a plain ACK, a plain NAK."""
    sender, _ = sender_with(3, min_timeout_ms=5)
    assert sent_seqs(sender.on_nak(1, now=5)) == [1]
    assert sender.numbers() == [1, 2]
    assert sender.on_nak(1, now=6) == []  # just resent: not again at once
    assert sender.on_ack(2, now=7) == [] and not sender.pending


def test_channel_restart_renumbers_kept_messages_from_zero() -> None:
    sender, _ = sender_with(5)
    sender.on_ack(2, now=1)
    sender.restart(keep_pending=True)
    assert sender.numbers() == [0, 1]
    assert [payload for _, _, payload in deliver(sender.transmit(now=2))] == [b"\x03", b"\x04"]
    sender.restart(keep_pending=False)
    assert not sender.pending and sender.next_seq == 0


def test_rewind_sends_every_unacknowledged_message_again() -> None:
    sender, _ = sender_with(4)
    sender.on_ack(1, now=1)
    sender.rewind()
    assert sent_seqs(sender.transmit(now=2)) == [2, 3]


def test_channel_queue_full_is_an_error() -> None:
    channel = Channel(capacity=2)
    channel.queue(wire.LOG, b"1")
    channel.queue(wire.LOG, b"2")
    with pytest.raises(wire.FrameError, match="send queue full"):
        channel.queue(wire.LOG, b"3")


def test_a_ring_allocated_as_used_holds_only_the_blocks_its_messages_reached() -> None:
    ring = SendRing(4 * SLOTS_PER_BLOCK, 1024, up_front=False)
    assert ring.allocated_bytes() == 0
    for number in range(SLOTS_PER_BLOCK + 1):  # into the second block
        ring.add(number, wire.LOG, bytes([number]) * 3)
    assert ring.allocated_bytes() == 2 * SLOTS_PER_BLOCK * 1024
    assert bytes(ring.payload(ring.slot(SLOTS_PER_BLOCK))) == bytes([SLOTS_PER_BLOCK]) * 3
    assert SendRing(4 * SLOTS_PER_BLOCK, 1024).allocated_bytes() == 4 * SLOTS_PER_BLOCK * 1024


def test_a_channel_allocated_as_used_sends_and_resends_from_its_new_blocks() -> None:
    sender = Channel(capacity=4 * SLOTS_PER_BLOCK, up_front=False)
    assert sender.pending.allocated_bytes() == 0
    sender.queue(wire.LOG, b"first")
    frames = sender.transmit(now=0)
    sender.rewind()
    assert sender.transmit(now=1) == frames
    assert sender.pending.allocated_bytes() == SLOTS_PER_BLOCK * wire.MAX_PAYLOAD


def test_a_window_too_wide_for_the_nak_bitmap_is_refused() -> None:
    with pytest.raises(ValueError, match=f"window 34 is not 1..{wire.MAX_WINDOW}"):
        Channel(window=wire.MAX_WINDOW + 1)


class LossyLine:
    """Frames one way with a fixed delay; each frame lost or garbled with ``loss``."""

    def __init__(self, rng: random.Random, loss: float, delay_ms: int = 2) -> None:
        self.rng, self.loss, self.delay_ms = rng, loss, delay_ms
        self.in_flight: list[tuple[int, bytes]] = []
        self.decoder = wire.Decoder()
        self.lost = 0

    def send(self, frames: list[bytes], now: int) -> None:
        for frame in frames:
            for one in deliver([frame]):  # a reply holds several copies: each its own fate
                encoded = wire.encode_frame(*one)
                if self.rng.random() < self.loss:
                    self.lost += 1
                    encoded = bytes(b ^ 0x5A for b in encoded[:-1]) + b"\x00"
                self.in_flight.append((now + self.delay_ms, encoded))

    def arrived(self, now: int) -> list[tuple[int, int, bytes]]:
        due = b"".join(frame for at, frame in self.in_flight if at <= now)
        self.in_flight = [(at, frame) for at, frame in self.in_flight if at > now]
        return self.decoder.feed(due)


@dataclass
class LineRun:
    """What one run over the lossy line gave."""

    got: list[bytes]
    sender: Channel
    lost_data_frames: int
    milliseconds: int


def run_lossy_line(seed: int, count: int, loss: float) -> LineRun:
    """``count`` messages over a lossy line, in simulated milliseconds."""
    rng = random.Random(seed)
    sender, receiver = Channel(capacity=count), Channel()
    forth, back = LossyLine(rng, loss), LossyLine(rng, loss)
    got: list[bytes] = []
    for number in range(count):
        sender.queue(wire.LOG, number.to_bytes(2, "big"))
    now = 0
    while sender.pending and now < 100_000:
        forth.send(sender.poll(now), now)
        reply = None
        for seq, mtype, payload in forth.arrived(now):
            messages, reply = receiver.receive(seq, mtype, payload)
            got += [message for _, message in messages]
        back.send([reply] if reply else [], now)
        for seq, mtype, payload in back.arrived(now):
            act = sender.on_ack if mtype == wire.ACK else sender.on_nak
            forth.send(act(seq, now, payload), now)
        now += 1
    return LineRun(got, sender, forth.lost, now)


@pytest.mark.parametrize("seed", range(5))
def test_two_channels_over_a_lossy_line_deliver_exactly_once_in_order(seed: int) -> None:
    """Simulated time, 10% of frames lost or garbled each way, 600 messages over seq wrap."""
    run = run_lossy_line(seed, 600, 0.1)
    assert run.got == [number.to_bytes(2, "big") for number in range(600)]


@pytest.mark.parametrize("seed", range(3))
def test_under_heavy_loss_each_lost_frame_is_resent_about_once(seed: int) -> None:
    """A quarter of all frames lost each way (2 ms each way): every message arrives once,
    in order; resends are the lost frames plus the timer's probes, and the line stays
    busy (without loss, 32 frames a 4 ms round trip would be 8 per simulated ms)."""
    run = run_lossy_line(seed, 2000, 0.25)
    assert run.got == [number.to_bytes(2, "big") for number in range(2000)]
    sender = run.sender
    assert sender.retransmissions <= run.lost_data_frames + wire.PROBE_COPIES * sender.timeouts
    assert sender.timeouts < 40
    assert run.milliseconds < 1000  # 2 messages per simulated ms at least
