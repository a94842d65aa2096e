"""The reference table's Pico: pins, LED chain and timings, in one place.

Edit this file (and flash again) for a table wired differently. GPIO numbers
are the Pico's GP numbers; LED indices count from the first LED on the chain.
"""

FIRMWARE_VERSION = (1, 0, 0)

LED_PIN = 0  # GP0 drives the WS2812 chain's data line (through a level shifter)
LED_COUNT = 100
STATUS_LED = 57  # the table status LED (the profile's `status` segment): host-lost breathing

# (button id, GPIO): buttons pull the pin to ground; the Pico's pull-ups hold it high.
BUTTONS = (
    (0, 2),  # seat 1 confirm
    (1, 3),  # seat 1 undo
    (2, 4),  # seat 2 confirm
    (3, 5),  # seat 2 undo
    (4, 6),  # table: new game
    (5, 7),  # table: pause
)

# (die id, roll-button GPIO, first LED of its 7-LED pip face, (r, g, b) of the pips)
DICE = ((0, 8, 93, (255, 255, 255)),)

DEBOUNCE_MS = 20  # a level must be stable this long to count as a press or release
HOLD_MS = 800  # pressed this long without release reports HELD once
HOST_TIMEOUT_MS = 3000  # host silent this long: show the host-lost pattern
FRAME_MS = 20  # at most one LED refresh per 20 ms (50 Hz) while animating
