"""The reference table's Pico: pins, LED chain and timings, in one place.

Edit this file (and flash again) for a table wired differently. GPIO numbers
are the Pico's GP numbers; LED indices count from the first LED on the chain.
"""

FIRMWARE_VERSION = (1, 1, 0)  # 1.1: six seats (pass buttons, seats 3-6), status LED 61

LED_PIN = 0  # GP0 drives the WS2812 chain's data line (through a level shifter)
LED_COUNT = 108
# The chain as the shipped profiles lay it out: pegs 0-54, seats 55-60 (seat 1
# first), status 61, C.O.G. cog spaces 62-77, pawn track 78-93, clock 94-100;
# this die's pip face 101-107.
STATUS_LED = 61  # the table status LED (the profile's `status` segment): host-lost breathing

# (button id, GPIO): buttons pull the pin to ground; the Pico's pull-ups hold it high.
# Ids 0-5 are the two-seat table's, unchanged; the profile's *_button keys name these ids.
BUTTONS = (
    (0, 2),  # seat 1 confirm
    (1, 3),  # seat 1 undo
    (2, 4),  # seat 2 confirm
    (3, 5),  # seat 2 undo
    (4, 6),  # table: new game
    (5, 7),  # table: pause
    # GP8 is die 0's roll button (DICE below)
    (6, 9),  # seat 1 pass
    (7, 10),  # seat 2 pass
    (8, 11),  # seat 3 confirm
    (9, 12),  # seat 3 undo
    (10, 13),  # seat 3 pass
    (11, 14),  # seat 4 confirm
    (12, 15),  # seat 4 undo
    (13, 16),  # seat 4 pass
    (14, 17),  # seat 5 confirm
    (15, 18),  # seat 5 undo
    (16, 19),  # seat 5 pass
    (17, 20),  # seat 6 confirm
    (18, 21),  # seat 6 undo
    (19, 22),  # seat 6 pass
)

# (die id, roll-button GPIO, first LED of its 7-LED pip face, (r, g, b) of the pips)
DICE = ((0, 8, 101, (255, 255, 255)),)

DEBOUNCE_MS = 20  # a level must be stable this long to count as a press or release
HOLD_MS = 800  # pressed this long without release reports HELD once
HOST_TIMEOUT_MS = 3000  # host silent this long: show the host-lost pattern
FRAME_MS = 20  # at most one LED refresh per 20 ms (50 Hz) while animating
