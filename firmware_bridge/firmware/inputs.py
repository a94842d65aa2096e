"""Buttons and electronic dice on the Pico's pins.

Each input takes its pin as an argument (anything with ``value()``; 0 means
pressed, as with a button to ground and the internal pull-up) and is polled
with the current time, so tests drive it with a fake pin and a fake clock.
"""

import wire

# Which of a die face's 7 LEDs are lit for each value. The face's LEDs are
# numbered: 0 top-left, 1 top-right, 2 middle-left, 3 centre, 4 middle-right,
# 5 bottom-left, 6 bottom-right.
PIPS = {
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
}
FACE_LEDS = 7


class Button:
    """A debounced button: PRESSED, RELEASED and (once per press) HELD events.

    A new level counts only after it has been read unchanged for ``debounce_ms``,
    so contact bounce and short spikes produce no event at all.
    """

    def __init__(self, pin, button_id, clock_diff, debounce_ms=20, hold_ms=800):
        self.pin = pin
        self.button_id = button_id
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self._diff = clock_diff
        self.pressed = False
        self._raw = None
        self._raw_since = 0
        self._pressed_at = 0
        self._held = False

    def poll(self, now):
        """The events (button id, action, time) this reading completes; usually none."""
        raw = self.pin.value() == 0
        if raw != self._raw:
            self._raw = raw
            self._raw_since = now
        stable = self._diff(now, self._raw_since) >= self.debounce_ms
        if stable and raw != self.pressed:
            return [self._change(raw, now)]
        if self.pressed and not self._held and self._diff(now, self._pressed_at) >= self.hold_ms:
            self._held = True
            return [(self.button_id, wire.HELD, now)]
        return []

    def _change(self, pressed, now):
        """Record a debounced change of state and describe it."""
        self.pressed = pressed
        if pressed:
            self._pressed_at = now
            self._held = False
            return (self.button_id, wire.PRESSED, now)
        return (self.button_id, wire.RELEASED, now)


class Die:
    """An electronic die: a roll button, a 7-LED pip face, hardware randomness.

    ``random_byte`` returns one random byte (``os.urandom`` on the Pico, whose
    ring oscillator supplies the entropy); values are drawn without modulo bias.
    """

    def __init__(self, die_id, button, first_led, colour, random_byte):
        self.die_id = die_id
        self.button = button
        self.first_led = first_led
        self.colour = colour
        self.random_byte = random_byte
        self.value = 0

    def wants_roll(self, now):
        """True when the roll button has just been pressed."""
        if self.button is None:
            return False
        return any(action == wire.PRESSED for _, action, _ in self.button.poll(now))

    def roll(self):
        """A fair value 1..6 from the random source."""
        while True:
            byte = self.random_byte()
            if byte < 252:  # 252 = 42 * 6: reject the tail so every face is equally likely
                self.value = byte % 6 + 1
                return self.value

    def face(self):
        """The 7 pip LEDs' r, g, b bytes for the current value."""
        lit = PIPS.get(self.value, ())
        off = bytes(3)
        return b"".join(bytes(self.colour) if i in lit else off for i in range(FACE_LEDS))
