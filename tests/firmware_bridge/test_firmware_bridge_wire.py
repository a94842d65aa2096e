"""The wire protocol under CPython: CRC vectors, COBS, frames, the decoder, the channel."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import wire

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


def test_channel_retransmits_on_time_out_with_back_off() -> None:
    channel = wire.Channel(timeout_ms=20, max_timeout_ms=80)
    channel.queue(wire.BUTTON, b"x")
    assert len(channel.transmit(now=0)) == 1
    assert channel.poll(now=19) == []
    assert deliver(channel.poll(now=20)) == [(0, wire.BUTTON, b"x")]
    assert channel.poll(now=59) == []  # the wait doubled to 40 ms
    assert len(channel.poll(now=60)) == 1
    assert len(channel.poll(now=140)) == 1  # 80 ms, the cap
    assert len(channel.poll(now=220)) == 1
    assert channel.retransmissions == 4
    assert channel.on_ack(0, now=221) == [] and channel.pending == []


def test_channel_receiver_suppresses_duplicates_and_reacks() -> None:
    receiver = wire.Channel()
    messages, reply = receiver.receive(0, wire.BUTTON, b"a")
    assert messages == [(wire.BUTTON, b"a")] and deliver([reply]) == [(0, wire.ACK, b"")]
    messages, reply = receiver.receive(0, wire.BUTTON, b"a")
    assert messages == [] and deliver([reply]) == [(0, wire.ACK, b"")]
    assert receiver.duplicates == 1


def test_channel_holds_frames_after_a_gap_and_naks_it() -> None:
    receiver = wire.Channel()
    messages, reply = receiver.receive(1, wire.BUTTON, b"b")
    assert messages == [] and deliver([reply]) == [(0, wire.NAK, b"")]
    messages, reply = receiver.receive(0, wire.BUTTON, b"a")
    assert messages == [(wire.BUTTON, b"a"), (wire.BUTTON, b"b")]
    assert deliver([reply]) == [(1, wire.ACK, b"")]


def test_channel_nak_resends_only_the_missing_frame() -> None:
    sender = wire.Channel()
    for name in b"abc":
        sender.queue(wire.BUTTON, bytes([name]))
    assert len(sender.transmit(now=0)) == 3
    assert deliver(sender.on_nak(1, now=1)) == [(1, wire.BUTTON, b"b")]
    assert [seq for seq, _, _ in sender.pending] == [1, 2]


def test_channel_restart_renumbers_kept_messages_from_zero() -> None:
    sender = wire.Channel()
    for _ in range(5):
        sender.queue(wire.BUTTON, b"x")
    sender.transmit(now=0)
    sender.on_ack(2, now=1)
    sender.restart(keep_pending=True)
    assert [seq for seq, _, _ in sender.pending] == [0, 1]
    assert len(sender.transmit(now=2)) == 2
    sender.restart(keep_pending=False)
    assert sender.pending == [] and sender.next_seq == 0


def test_channel_queue_full_is_an_error() -> None:
    channel = wire.Channel(capacity=2)
    channel.queue(wire.LOG, b"1")
    channel.queue(wire.LOG, b"2")
    with pytest.raises(wire.FrameError, match="send queue full"):
        channel.queue(wire.LOG, b"3")


@pytest.mark.parametrize("seed", range(5))
def test_two_channels_over_a_lossy_line_deliver_exactly_once_in_order(seed: int) -> None:
    """Simulated time, 10% of frames lost or garbled each way, 600 messages over seq wrap."""
    rng = random.Random(seed)
    sender, receiver = wire.Channel(capacity=1000), wire.Channel()
    to_receiver, to_sender = wire.Decoder(), wire.Decoder()
    got: list[bytes] = []

    def line(frames: list[bytes]) -> bytes:
        out = b""
        for frame in frames:
            garbled = bytes(b ^ 0x5A for b in frame[:-1]) + b"\x00"
            out += garbled if rng.random() < 0.1 else frame
        return out

    for number in range(600):
        sender.queue(wire.LOG, number.to_bytes(2, "big"))
    for now in range(0, 200_000, 5):
        for seq, mtype, payload in to_receiver.feed(line(sender.poll(now))):
            messages, reply = receiver.receive(seq, mtype, payload)
            got += [message for _, message in messages]
            for seq_back, kind, _ in to_sender.feed(line([reply] if reply else [])):
                act = sender.on_ack if kind == wire.ACK else sender.on_nak
                for again in to_receiver.feed(line(act(seq_back, now))):
                    messages, _ = receiver.receive(*again)
                    got += [message for _, message in messages]
        if not sender.pending:
            break
    assert got == [number.to_bytes(2, "big") for number in range(600)]
