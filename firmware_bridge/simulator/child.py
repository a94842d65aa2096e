"""The simulated Pico: the real firmware sources and a small harness, in one process.

Run by :class:`firmware_bridge.simulator.Simulator`, never by hand, normally
under the MicroPython Unix port (CPython only as the simulator's explicit
fallback), so this file is written in the subset both interpreters run: no
annotations, no typing, no threads, no ``argparse``.

    child.py BRIDGE_DIR REQUEST_FD REPLY_FD [protocol=N] [dice_seed=N boot=N]

``machine``, ``neopixel`` and ``rp2`` are the stand-ins in ``stubs/``; under
CPython ``micropython`` is one too and ``time`` gains the MicroPython tick
functions. stdin and stdout are the USB serial line, exactly as on the Pico.
Two pipes (REQUEST_FD in, REPLY_FD out) carry JSON-line requests from the
simulator (press a button, read the LEDs) that the loop answers between two
firmware steps, so the firmware never sees a second thread. The process ends
when the simulator closes the request pipe.
"""

import json
import select
import sys

MICROPYTHON = sys.implementation.name == "micropython"
EMIT_ROOM = 16  # leave this much of the send queue for the firmware's own messages


def use_sources(bridge):
    """Put the stubs, the firmware and wire.py first on the import path, as on the Pico."""
    for folder in (bridge, bridge + "/firmware", bridge + "/simulator/stubs"):
        sys.path.insert(0, folder)


def become_micropython_like():
    """Under CPython: MicroPython's tick functions and an unbuffered USB line."""
    import os
    import time

    start = time.monotonic()
    period = 1 << 30

    def ticks_ms():
        return int((time.monotonic() - start) * 1000) % period

    def ticks_diff(later, earlier):
        return ((later - earlier + period // 2) % period) - period // 2

    time.ticks_ms = ticks_ms
    time.ticks_diff = ticks_diff
    time.ticks_add = lambda ticks, delta: (ticks + delta) % period
    time.sleep_ms = lambda ms: time.sleep(ms / 1000)
    sys.stdin = Unbuffered(os.fdopen(0, "rb", buffering=0))
    sys.stdout = Unbuffered(os.fdopen(1, "wb", buffering=0))


class Unbuffered:
    """A std stream whose ``.buffer`` reads and writes the descriptor directly."""

    def __init__(self, raw):
        self.buffer = raw

    def fileno(self):
        return self.buffer.fileno()


class Harness:
    """Carries out the simulator's requests on the firmware, between steps."""

    def __init__(self, firmware, config, requests, replies):
        self.firmware = firmware
        self.config = config
        self.requests = requests
        self.replies = replies
        self.poller = select.poll()
        self.poller.register(requests, select.POLLIN)
        self.to_emit = 0
        self.emitted = 0
        self.commands = []
        self._record_commands()

    def _record_commands(self):
        """Keep every host command the firmware carries out, in order, for the tests."""
        original = self.firmware._command
        commands = self.commands

        def recording(mtype, payload, now):
            commands.append((mtype, bytes(payload)))
            original(mtype, payload, now)

        self.firmware._command = recording

    def service(self):
        """Answer waiting requests, feed scheduled events; False once the simulator left."""
        while self.poller.poll(0):
            line = self.requests.readline()
            if not line:
                return False
            self.answer(json.loads(line))
        self._emit_scheduled()
        return True

    def answer(self, request):
        """Carry out one request and write its JSON answer."""
        op = request.pop("op")
        reply = (json.dumps(getattr(self, "op_" + op)(**request)) + "\n").encode()
        while reply:
            reply = reply[self.replies.write(reply) :]

    def _emit_scheduled(self):
        """Queue scheduled events while the firmware's send queue has room."""
        buttons = max(1, len(self.config.BUTTONS))
        while self.to_emit and self.firmware.channel.room() > EMIT_ROOM:
            self.firmware.emit_button(self.emitted % buttons, 1, self.emitted)
            self.emitted += 1
            self.to_emit -= 1

    def _pin(self, button, die):
        """The machine.Pin behind a button or a die's roll button."""
        import machine

        if die is not None:
            gpio = next(g for d, g, _, _ in self.config.DICE if d == die)
        else:
            gpio = next(g for b, g in self.config.BUTTONS if b == button)
        return machine.PINS[gpio]

    def op_hello(self):
        """Which interpreter runs the firmware: the simulator asks once at boot."""
        return {"implementation": sys.implementation.name, "version": sys.version}

    def op_level(self, level, button=None, die=None):
        self._pin(button, die).level = level
        return {"ok": True}

    def op_emit(self, count):
        self.to_emit += count
        return {"ok": True}

    def op_leds(self):
        import neopixel

        return {"leds": [list(colour) for colour in neopixel.STRIPS[0].shown]}

    def op_commands(self, since=0):
        return {"commands": [[mtype, payload.hex()] for mtype, payload in self.commands[since:]]}

    def op_state(self):
        firmware = self.firmware
        return {
            "boot_id": firmware.boot_id,
            "host_id": firmware.host_id,
            "host_lost": firmware.leds.host_lost,
            "emitted": self.emitted,
            "to_emit": self.to_emit,
            "backlog": len(firmware.channel.pending),
            "retransmissions": firmware.channel.retransmissions,
            "timeouts": firmware.channel.timeouts,
            "naks": firmware.channel.naks,
            "round_trip_ms": firmware.channel.round_trip_ms(),
            "duplicates": firmware.channel.duplicates,
            "rejected": firmware.decoder.rejected,
            "errors": firmware.errors,
            "commands": len(self.commands),
        }


def seeded_bytes(seed, boot):
    """A byte source for the dice, the same for a seed and boot on any interpreter (xorshift32).

    A simulated table that is given a seed rolls the same dice every run; the
    boot number gives each reset of the Pico its own sequence.
    """
    state = [((seed * 2654435761) ^ (boot * 40503) ^ 0x9E3779B9) & 0xFFFFFFFF or 1]

    def next_byte():
        x = state[0]
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        state[0] = x
        return x >> 24

    return next_byte


def main():
    """Boot the firmware and serve until the simulator closes the request pipe."""
    use_sources(sys.argv[1])
    if not MICROPYTHON:
        become_micropython_like()
    import wire

    options = dict(option.split("=", 1) for option in sys.argv[4:])
    if "protocol" in options:  # play a firmware built for another protocol
        wire.PROTOCOL_VERSION = int(options["protocol"])
    import config
    import main as firmware_main  # imported, not run: __name__ is "main"

    firmware = firmware_main.build()
    if "dice_seed" in options:
        seeded = seeded_bytes(int(options["dice_seed"]), int(options.get("boot", "0")))
        for die in firmware.dice:
            die.random_byte = seeded
    requests = open(int(sys.argv[2]), "rb", 0)  # noqa: SIM115 - lives as long as the process
    replies = open(int(sys.argv[3]), "wb", 0)  # noqa: SIM115
    harness = Harness(firmware, config, requests, replies)
    while firmware.running and harness.service():
        firmware.step()


def report(error):
    """A traceback on stderr (the simulator's log), not on the serial line."""
    if MICROPYTHON:
        sys.print_exception(error, sys.stderr)
    else:
        import traceback

        traceback.print_exception(error)


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the simulator reports the last line of the log
        report(error)
        sys.exit(1)
