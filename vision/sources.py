"""Camera sources: USB cameras, the Pi camera, video files, image folders, the synthetic camera.

Every source has ``read() -> frame | None`` (a BGR uint8 frame, or None when no
frame can be had right now: the reader reports that as "no camera") and
``close()``. :func:`open_source` turns a command-line spec into a source.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.exposure import LOCK_AFTER_S, ExposureLock, lock_picamera2, lock_v4l2
from vision.peg_disk.geometry import Position, start_position

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
MAX_CAMERA_INDEX = 255
"""The largest ``/dev/videoN`` number a camera index may name (V4L2 allows 256 devices)."""
UNREADABLE = np.zeros((0, 0, 3), np.uint8)
"""What a file source hands out for a file it cannot decode: the reader calls it a bad frame."""


class SourceError(Exception):
    """A source that cannot be opened at all (bad spec, missing library); the message says why."""


class FrameSource(Protocol):
    """Anything that hands out frames."""

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` the camera source uses (tests pass fakes)."""

    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name

    def read(self) -> tuple[bool, Any]: ...

    def release(self) -> None: ...


@contextlib.contextmanager
def quiet_opencv() -> Iterator[None]:
    """OpenCV's own log silenced: a camera that cannot be opened is said once, by us."""
    previous = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(previous)


def open_v4l2(index: int, size: tuple[int, int]) -> cv2.VideoCapture:
    """A USB camera through V4L2 at the requested size, with the smallest driver buffer."""
    with quiet_opencv():
        capture = cv2.VideoCapture(index, cv2.CAP_V4L2)
    capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
    capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
    return capture


class CameraSource:
    """A live camera read by a grabber thread that keeps only the newest frame.

    When the camera fails (cable out) it is released and reopened with
    exponential back-off; meanwhile :meth:`read` returns None. ``open_capture``,
    ``clock`` and ``threaded`` exist so tests can drive :meth:`step` by hand.
    With ``lock`` (:func:`vision.exposure.lock_v4l2` for a USB camera) the
    automatic exposure and white balance are frozen once each opened capture
    has run :data:`vision.exposure.LOCK_AFTER_S`; ``exposure`` says what was.
    """

    def __init__(
        self,
        open_capture: Callable[[], Capture],
        clock: Callable[[], float] = time.monotonic,
        backoff: tuple[float, float] = (0.5, 8.0),
        threaded: bool = True,
        lock: Callable[[Any], ExposureLock] | None = None,
    ) -> None:
        self._open_capture = open_capture
        self._lock_exposure = lock
        self._opened_at: float | None = None
        self.exposure: ExposureLock | None = None
        """What the last exposure lock froze (None until it ran)."""
        self._clock = clock
        self._first_delay, self._max_delay = backoff
        self._delay = self._first_delay
        self._capture: Capture | None = None
        self._next_attempt = clock()
        self._frame: np.ndarray | None = None
        self._sequence = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.failures = 0
        self._thread = threading.Thread(target=self._run, name="camera-grabber", daemon=True)
        if threaded:
            self._thread.start()

    @classmethod
    def usb(cls, index: int, size: tuple[int, int] = (1280, 720)) -> CameraSource:
        """A USB camera by index (``/dev/videoN``), reopened in the background when it fails."""
        return cls(lambda: open_v4l2(index, size), lock=lock_v4l2)

    @classmethod
    def usb_now(
        cls,
        index: int,
        size: tuple[int, int] = (1280, 720),
        opener: Callable[..., Capture] = open_v4l2,
    ) -> CameraSource:
        """A USB camera that opens at once, or a :class:`SourceError` saying why it cannot.

        For a command a person waits on (``cogtable calibrate``): no waiting
        for a camera that is not there. Once open it is reopened as :meth:`usb`.
        """
        if not 0 <= index <= MAX_CAMERA_INDEX:
            raise SourceError(f"camera {index} cannot be opened: camera numbers are 0 to 255")
        capture = opener(index, size)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"camera {index} cannot be opened: {_why_not(index)}")
        first = [capture]
        return cls(lambda: first.pop() if first else opener(index, size), lock=lock_v4l2)

    def read(self) -> np.ndarray | None:
        """The newest frame, or None while the camera is down."""
        with self._lock:
            return self._frame

    def latest(self) -> tuple[int, np.ndarray | None]:
        """The newest frame and its sequence number (grows with every new frame)."""
        with self._lock:
            return self._sequence, self._frame

    @property
    def retry_in(self) -> float:
        """Seconds until the next reopen attempt (0 while the camera runs)."""
        return 0.0 if self._capture is not None else max(0.0, self._next_attempt - self._clock())

    def step(self) -> bool:
        """One grabber iteration: reopen if due, else grab a frame. True if a frame came."""
        if self._capture is None:
            return self._try_open()
        try:
            ok, frame = self._capture.read()
        except (cv2.error, OSError):
            ok, frame = False, None
        if not ok or frame is None:
            self._fail()
            return False
        with self._lock:
            self._frame, self._sequence = frame, self._sequence + 1
        self._delay = self._first_delay
        self._freeze_exposure()
        return True

    def _freeze_exposure(self) -> None:
        """Lock exposure and white balance once this capture has run long enough."""
        if self._lock_exposure is None or self._opened_at is None or self._capture is None:
            return
        if self._clock() - self._opened_at >= LOCK_AFTER_S:
            self.exposure = self._lock_exposure(self._capture)
            self._opened_at = None

    def _try_open(self) -> bool:
        if self._clock() < self._next_attempt:
            return False
        try:
            capture = self._open_capture()
        except (cv2.error, OSError):
            capture = None
        if capture is None or not capture.isOpened():
            self._schedule_retry()
            return False
        self._capture = capture
        self._opened_at = self._clock()
        return self.step()

    def _fail(self) -> None:
        """Drop the broken capture, forget its last frame, plan the reopen."""
        if self._capture is not None:
            self._capture.release()
        self._capture = None
        with self._lock:
            self._frame = None
        self._schedule_retry()

    def _schedule_retry(self) -> None:
        self.failures += 1
        self._next_attempt = self._clock() + self._delay
        self._delay = min(self._delay * 2, self._max_delay)

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.step() and self._capture is None:
                self._stop.wait(min(0.05, max(0.001, self.retry_in)))

    def close(self) -> None:
        """Stop the grabber thread and release the camera."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def _why_not(index: int) -> str:
    device = Path(f"/dev/video{index}")
    if not device.exists():
        return f"there is no {device} (is it plugged in? `ls /dev/video*` lists the cameras)"
    return f"{device} exists but gives no video (in use by another program, or not a camera)"


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (OpenCV cannot open it).

    Its automatic exposure and white balance are frozen once it has run
    :data:`vision.exposure.LOCK_AFTER_S` (``exposure`` says what was).
    """

    def __init__(self, size: tuple[int, int] = (1280, 720)) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as error:
            raise SourceError(
                "the Pi camera needs picamera2, which is not installed "
                "(on Raspberry Pi OS: sudo apt install python3-picamera2)"
            ) from error
        self._camera = Picamera2()
        config = self._camera.create_video_configuration(main={"size": size, "format": "RGB888"})
        self._camera.configure(config)
        self._camera.start()
        self._started = time.monotonic()
        self.exposure: ExposureLock | None = None

    def read(self) -> np.ndarray | None:
        """The newest frame (picamera2's RGB888 is BGR in memory, as OpenCV wants)."""
        if self.exposure is None and time.monotonic() - self._started >= LOCK_AFTER_S:
            self.exposure = lock_picamera2(self._camera)
        try:
            return self._camera.capture_array("main")
        except RuntimeError:
            return None

    def close(self) -> None:
        """Stop the camera."""
        self._camera.stop()


class VideoFileSource:
    """Frames of a video file in order; None at the end (or start again with ``loop``)."""

    def __init__(self, path: str | Path, loop: bool = False) -> None:
        self.path, self.loop = str(path), loop
        self.finite = not loop
        """True when the frames come to an end (a caller may take fewer than it wanted)."""
        self._capture = cv2.VideoCapture(self.path)
        if not self._capture.isOpened():
            raise SourceError(f"cannot open video file {path}")

    def read(self) -> np.ndarray | None:
        """The next frame, or None after the last."""
        ok, frame = self._capture.read()
        if not ok and self.loop:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        """Release the file."""
        self._capture.release()


class ImageFolderSource:
    """A folder's images (or one image file) in name order, then None (or again with ``loop``)."""

    def __init__(self, path: str | Path, loop: bool = False) -> None:
        path = Path(path)
        files = (
            [path]
            if path.is_file()
            else sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        )
        if not files:
            raise SourceError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {path}")
        self.files, self.loop, self._next = files, loop, 0
        self.finite = not loop
        """True when the images come to an end (a caller may take fewer than it wanted)."""

    def read(self) -> np.ndarray | None:
        """The next image; an undecodable file gives an empty frame (a bad frame)."""
        if self._next >= len(self.files):
            if not self.loop:
                return None
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        return UNREADABLE if frame is None else frame

    def close(self) -> None:
        """Nothing to release."""


class SyntheticSource:
    """The synthetic camera: a fixed random camera pose and light, fresh noise every frame.

    ``position``, ``hand`` and ``held`` may be changed between frames (the mock
    table does); the same seed always gives the same frames.
    """

    def __init__(
        self, position: Position | None = None, seed: int = 0, size: tuple[int, int] = (640, 480)
    ) -> None:
        from vision.peg_disk.renderer import Renderer, random_scene

        self.position = position or start_position()
        self.hand = None
        self.held = None
        self.seed, self._frame = seed, 0
        self._renderer = Renderer()
        self._scene = random_scene(np.random.default_rng(seed), self.position, size)

    def read(self) -> np.ndarray:
        """Render the next frame."""
        from dataclasses import replace

        scene = replace(self._scene, position=self.position, hand=self.hand, held=self.held)
        self._frame += 1
        return self._renderer.render(scene, seed=self.seed * 1_000_003 + self._frame)[0]

    def close(self) -> None:
        """Nothing to release."""


def open_source(spec: str, size: tuple[int, int] = (1280, 720), seed: int = 0) -> FrameSource:
    """A source from a spec: camera index, ``picamera``, ``synthetic``, video, image or folder."""
    if spec == "synthetic":
        return SyntheticSource(seed=seed, size=size)
    if spec == "picamera":
        return PiCameraSource(size)
    if spec.isdecimal():
        return CameraSource.usb_now(int(spec), size)
    path = Path(spec)
    if path.is_dir() or (path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES):
        return ImageFolderSource(path)
    if path.is_file():
        return VideoFileSource(path)
    raise SourceError(
        f"no such camera source {spec!r}: give a camera index, picamera, synthetic or a path"
    )
