"""Stand-in for MicroPython's ``rp2`` module: the BOOTSEL button, released."""


def bootsel_button():
    """1 while BOOTSEL is held; the simulated one never is."""
    return 0
