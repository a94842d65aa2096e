"""gpiozero's mock pins for every hardware test that asks for them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def mock_pins() -> Iterator[MockFactory]:
    """Mock pins (PWM-capable) as gpiozero's default factory; reset afterwards."""
    previous = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous
