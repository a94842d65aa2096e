"""The Pico's USB serial line as a byte port: non-blocking reads, plain writes.

On the Pico ``sys.stdin``/``sys.stdout`` are the USB CDC serial port; with
``micropython.kbd_intr(-1)`` (done in main.py) a 0x03 byte is data, not Ctrl-C.
"""

import select
import sys

MAX_READ = 512  # bytes taken per call, so a busy line cannot starve the rest of the loop


class UsbPort:
    """Reads whatever has arrived (waiting up to ``wait_ms`` for the first byte)."""

    def __init__(self, stdin=None, stdout=None):
        self._stdin = stdin or sys.stdin
        self._reader = self._stdin.buffer
        self._writer = (stdout or sys.stdout).buffer
        self._poll = select.poll()
        self._poll.register(self._stdin, select.POLLIN)

    def read(self, wait_ms=0):
        """The bytes available now, or after at most ``wait_ms`` if none are."""
        data = bytearray()
        timeout = wait_ms
        while len(data) < MAX_READ and self._poll.poll(timeout):
            byte = self._reader.read(1)
            if not byte:
                break
            data.extend(byte)
            timeout = 0
        return bytes(data)

    def write(self, data):
        """Send bytes to the host."""
        self._writer.write(data)
