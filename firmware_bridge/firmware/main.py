"""Pico entry point: build the firmware from config.py and the real pins, then serve.

MicroPython runs this file at boot. Tests and the simulator import it under
another name and call ``firmware.step()`` themselves.
"""

import os
import time

import config
import machine
import micropython
import neopixel
from app import Firmware
from inputs import Button, Die
from usbio import UsbPort


def random_byte():
    """One byte of hardware randomness (the RP2040's ring oscillator)."""
    return os.urandom(1)[0]


def button_pin(gpio):
    """An input pin with the pull-up on: the button pulls it to ground."""
    return machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)


def build():
    """The firmware wired as config.py says."""
    micropython.kbd_intr(-1)  # 0x03 on the line is protocol data, not Ctrl-C
    strip = neopixel.NeoPixel(machine.Pin(config.LED_PIN, machine.Pin.OUT), config.LED_COUNT)
    diff = time.ticks_diff
    buttons = [
        Button(button_pin(gpio), button_id, diff, config.DEBOUNCE_MS, config.HOLD_MS)
        for button_id, gpio in config.BUTTONS
    ]
    dice = [
        Die(die_id, Button(button_pin(gpio), die_id, diff, config.DEBOUNCE_MS), first, colour,
            random_byte)
        for die_id, gpio, first, colour in config.DICE
    ]  # fmt: skip
    return Firmware(
        UsbPort(),
        strip,
        led_count=config.LED_COUNT,
        clock=time.ticks_ms,
        clock_diff=diff,
        random_byte=random_byte,
        buttons=buttons,
        dice=dice,
        status_led=config.STATUS_LED,
        version=config.FIRMWARE_VERSION,
        host_timeout_ms=config.HOST_TIMEOUT_MS,
        frame_ms=config.FRAME_MS,
    )


def serve(firmware):
    """Run until the host asks for the REPL, then give Ctrl-C back to the REPL."""
    firmware.run()
    micropython.kbd_intr(3)


if __name__ == "__main__":
    serve(build())
