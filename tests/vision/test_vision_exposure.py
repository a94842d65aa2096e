"""Exposure and white balance frozen once settled: V4L2 through OpenCV, picamera2, refusals."""

from __future__ import annotations

import cv2
import numpy as np

from vision.exposure import LOCK_AFTER_S, ExposureLock, lock_picamera2, lock_v4l2
from vision.sources import CameraSource


class FakeV4L2:
    """A capture with V4L2 controls; ``refuse`` lists the properties whose set fails."""

    def __init__(self, refuse: tuple[int, ...] = ()) -> None:
        self.values = {
            cv2.CAP_PROP_AUTO_EXPOSURE: 3.0,
            cv2.CAP_PROP_EXPOSURE: 157.0,
            cv2.CAP_PROP_AUTO_WB: 1.0,
            cv2.CAP_PROP_WB_TEMPERATURE: 4600.0,
        }
        self.refuse = refuse
        self.sets: list[tuple[int, float]] = []
        self.frames = 0

    def get(self, prop: int) -> float:
        return self.values.get(prop, 0.0)

    def set(self, prop: int, value: float) -> bool:
        if prop in self.refuse:
            return False
        self.sets.append((prop, value))
        self.values[prop] = value
        return True

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def read(self):
        self.frames += 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self) -> None:
        pass


def test_v4l2_is_switched_to_manual_at_the_values_it_settled_on() -> None:
    capture = FakeV4L2()
    lock = lock_v4l2(capture)
    assert lock == ExposureLock(("exposure", "white balance"), ())
    assert capture.values[cv2.CAP_PROP_AUTO_EXPOSURE] == 1.0
    assert capture.values[cv2.CAP_PROP_AUTO_WB] == 0.0
    assert (cv2.CAP_PROP_EXPOSURE, 157.0) in capture.sets
    assert (cv2.CAP_PROP_WB_TEMPERATURE, 4600.0) in capture.sets


def test_a_camera_that_refuses_a_control_keeps_it_automatic_and_says_so() -> None:
    capture = FakeV4L2(refuse=(cv2.CAP_PROP_AUTO_WB,))
    lock = lock_v4l2(capture)
    assert lock.locked == ("exposure",) and lock.refused == ("white balance",)
    assert "keeps automatic white balance" in lock.message


def test_the_camera_source_locks_once_the_capture_has_run_long_enough() -> None:
    now = [0.0]
    capture = FakeV4L2()
    source = CameraSource(lambda: capture, clock=lambda: now[0], threaded=False, lock=lock_v4l2)
    assert source.step()
    now[0] = LOCK_AFTER_S / 2
    source.step()
    assert source.exposure is None and capture.values[cv2.CAP_PROP_AUTO_EXPOSURE] == 3.0
    now[0] = LOCK_AFTER_S + 0.1
    source.step()
    assert source.exposure is not None and capture.values[cv2.CAP_PROP_AUTO_EXPOSURE] == 1.0
    count = len(capture.sets)
    source.step()
    assert len(capture.sets) == count, "locked once per opened capture"


class FakePicamera2:
    def __init__(self, metadata: dict) -> None:
        self.metadata, self.controls = metadata, {}

    def capture_metadata(self) -> dict:
        return self.metadata

    def set_controls(self, controls: dict) -> None:
        self.controls.update(controls)


def test_picamera2_gets_its_settled_exposure_gain_and_colour_gains_fixed() -> None:
    camera = FakePicamera2({"ExposureTime": 8000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)})
    lock = lock_picamera2(camera)
    assert lock.locked == ("exposure", "white balance")
    assert camera.controls == {
        "AeEnable": False,
        "ExposureTime": 8000,
        "AnalogueGain": 2.5,
        "AwbEnable": False,
        "ColourGains": (1.9, 1.6),
    }
    assert lock_picamera2(FakePicamera2({})).refused == ("exposure", "white balance")
