"""Camera sources: files and folders written here, a failing camera reopened with back-off."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.peg_disk.reader import BAD_FRAME, NO_CAMERA, BoardReader
from vision.sources import (
    CameraSource,
    ImageFolderSource,
    SourceError,
    SyntheticSource,
    VideoFileSource,
    open_source,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeCapture:
    """A capture that gives ``good`` frames, then fails (cable out)."""

    def __init__(self, good: int, opened: bool = True) -> None:
        self.good, self.opened, self.released = good, opened, False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def read(self):
        if self.good <= 0:
            return False, None
        self.good -= 1
        return True, np.full((4, 4, 3), self.good % 256, np.uint8)

    def release(self) -> None:
        self.released = True


def _frames(count: int) -> list[np.ndarray]:
    synthetic = SyntheticSource(seed=3)
    return [synthetic.read() for _ in range(count)]


def test_video_file_frames_in_order_then_none(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    for frame in _frames(3):
        writer.write(frame)
    writer.release()
    source = open_source(str(path))
    assert isinstance(source, VideoFileSource)
    frames = [source.read() for _ in range(4)]
    assert [f is None for f in frames] == [False, False, False, True]
    assert BoardReader().read(frames[0]).ok
    source.close()


def test_image_folder_in_name_order_with_a_corrupt_file(tmp_path: Path) -> None:
    first, second = _frames(2)
    cv2.imwrite(str(tmp_path / "a.png"), first)
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8 truncated")
    cv2.imwrite(str(tmp_path / "c.png"), second)
    (tmp_path / "notes.txt").write_text("not an image")
    source = open_source(str(tmp_path))
    assert isinstance(source, ImageFolderSource)
    readings = [BoardReader().read(source.read()) for _ in range(4)]
    assert [r.status for r in readings] == ["ok", BAD_FRAME, "ok", NO_CAMERA]


def test_failing_camera_is_reopened_with_back_off() -> None:
    clock = FakeClock()
    opened: list[FakeCapture] = []
    plan = [FakeCapture(2), None, FakeCapture(0, opened=False), FakeCapture(1)]

    def open_capture():
        capture = plan.pop(0)
        if capture is not None:
            opened.append(capture)
            return capture
        raise OSError("no such device")

    camera = CameraSource(open_capture, clock=clock, backoff=(0.5, 8.0), threaded=False)
    assert camera.step() and camera.read() is not None
    assert camera.step()
    assert not camera.step()
    assert camera.read() is None and opened[0].released
    assert camera.retry_in == pytest.approx(0.5)
    assert not camera.step()
    clock.now += 0.5
    assert not camera.step()
    assert camera.retry_in == pytest.approx(1.0)
    clock.now += 1.0
    assert not camera.step()
    assert camera.retry_in == pytest.approx(2.0)
    clock.now += 2.0
    assert camera.step() and camera.read() is not None
    assert camera.failures == 3


def test_grabber_thread_hands_out_the_newest_frame() -> None:
    camera = CameraSource(lambda: FakeCapture(10_000), backoff=(0.01, 0.02))
    try:
        for _ in range(200):
            sequence, frame = camera.latest()
            if sequence > 10:
                break
            time.sleep(0.005)
        assert sequence > 10 and frame is not None
    finally:
        camera.close()


def test_synthetic_source_is_deterministic() -> None:
    a, b = SyntheticSource(seed=5), SyntheticSource(seed=5)
    assert np.array_equal(a.read(), b.read())
    assert not np.array_equal(a.read(), SyntheticSource(seed=6).read())


def test_bad_specs_and_missing_picamera2_are_clear(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such camera source"):
        open_source(str(tmp_path / "missing.avi"))
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path))
    (tmp_path / "x.avi").write_bytes(b"garbage")
    with pytest.raises(SourceError, match="cannot open video"):
        open_source(str(tmp_path / "x.avi"))
    if "picamera2" not in sys.modules:
        try:
            import picamera2  # noqa: F401
        except ImportError:
            with pytest.raises(SourceError, match="picamera2"):
                open_source("picamera")
