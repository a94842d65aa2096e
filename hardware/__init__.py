"""The table profile, gpiozero devices, the LED layout and LED renderers."""
