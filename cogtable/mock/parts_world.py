"""The simulated physical world of a table of printed parts (the C.O.G. board and mats).

What a camera could see: which tile, cog, die or pawn lies on which place of
which part, where a hand reaches over the table, and whether the camera is
plugged in. It moves one camera frame per :meth:`PartsWorld.tick`, like the
Kogworks world (:class:`cogtable.mock.world.MockWorld`), and ``actors`` (the
simulated people) act once per tick.

Two cameras look at it: :class:`RenderedPartsCamera` draws every frame with
vision's table renderer (the reader must find every part by its markers and
read every tile); :class:`TruthPartsCamera` hands over the reading a perfect
camera and reader would make, for long test runs. Both go through the same
settling filters, controller, journal and LEDs.
"""

from __future__ import annotations

import random
import threading
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from cogtable.mock.world import FRAME_SECONDS, CameraMode, SimClock, SimulatedTime, camera_mode
from vision.frame import OK
from vision.layout import EMPTY, PartLayout
from vision.parts.look import REFERENCE
from vision.parts.part_reading import PartReading, TableReading
from vision.parts.renderer import PartPose, TableRenderer, TableScene, check_label, part_to_table
from vision.parts.table_scenes import random_table_scene
from vision.parts.tiles import HELD_OUT_FONTS, REFERENCE_LOOK, TileLook
from vision.peg_disk.renderer import Hand

Contents = dict[str, dict[str, str]]
"""Part name -> place name -> label (empty places may be left out)."""


class PartsWorld(SimulatedTime):
    """The parts on the table and what lies on them, as a camera would see it."""

    def __init__(
        self,
        layouts: Sequence[PartLayout],
        *,
        clock: SimClock | None = None,
        frame_seconds: float = FRAME_SECONDS,
        camera: str = CameraMode.RENDER,
        camera_size: tuple[int, int] | None = None,
        seed: int = 0,
        tiles: TileLook = REFERENCE_LOOK,
    ) -> None:
        self.layouts = {layout.name: layout for layout in layouts}
        self.camera = camera_mode(camera)
        self.camera_size = camera_size
        self.seed = seed
        self.clock = clock or SimClock()
        self.frame_seconds = frame_seconds
        self.contents: Contents = {name: {} for name in self.layouts}
        self.hands: dict[str, Hand] = {}
        """Hands over the table, by whose they are (a person reaching), in table mm."""
        self.camera_present = True
        self.frames = 0
        self.changes = 0
        self.actors: list[Callable[[PartsWorld], object]] = []
        self._lock = threading.Lock()
        look = replace(REFERENCE, tiles=tiles)
        self.scene = random_table_scene(
            np.random.default_rng(seed),
            list(self.layouts.values()),
            {},
            font=HELD_OUT_FONTS[0],
            look=look,
        )
        """Where the parts lie, the camera and the light (the owner's tiles: a font not trained,
        in the tile look ``tiles``: the reference set's, or wood, ivory, another back)."""

    # -- what people do to it -----------------------------------------------------------

    def put(self, part: str, place: str, label: str) -> None:
        """Lay ``label`` on a place (``""``: take it away); ValueError if it cannot lie there."""
        layout = self._layout(part)
        check_label(layout, place, label)
        with self._lock:
            if label:
                self.contents[part][place] = label
            else:
                self.contents[part].pop(place, None)
        self.changes += 1

    def label(self, part: str, place: str) -> str:
        """What lies on a place now (``""``: nothing)."""
        return self.contents.get(part, {}).get(place, EMPTY)

    def differences(self, wanted: Mapping[str, Mapping[str, str]]) -> list[tuple[str, str, str]]:
        """(part, place, wanted label) for every read place that does not show ``wanted``."""
        return [
            (part, place.name, wanted.get(part, {}).get(place.name, EMPTY))
            for part, layout in self.layouts.items()
            for place in layout.read_places()
            if self.label(part, place.name) != wanted.get(part, {}).get(place.name, EMPTY)
        ]

    def reach(self, who: str, part: str, place: str, rng: random.Random) -> None:
        """``who``'s hand over a place of a part (jittered, the arm from a random side)."""
        layout = self._layout(part)
        spot = layout.place(place)
        to_table = part_to_table(layout, self._pose(part))
        x, y, _ = to_table @ np.array([spot.x + rng.uniform(-8, 8), spot.y + rng.uniform(-8, 8), 1])
        self.hands[who] = Hand((float(x), float(y)), rng.uniform(0, 360), rng.uniform(0.85, 1.15))

    def straighten(self) -> None:
        """Someone straightens the tiles and pieces (each lies a little differently after)."""
        self.scene = replace(self.scene, jitter_seed=self.scene.jitter_seed + 1)
        self.changes += 1

    def withdraw(self, who: str) -> None:
        """``who`` takes their hand away."""
        self.hands.pop(who, None)

    def covered_parts(self) -> set[str]:
        """The parts a hand is over now (the truth camera reads them as covered)."""
        covered = set()
        for hand in self.hands.values():
            for name, layout in self.layouts.items():
                if _over(layout, self._pose(name), hand.centre):
                    covered.add(name)
        return covered

    def _layout(self, part: str) -> PartLayout:
        if part not in self.layouts:
            raise ValueError(f"there is no part {part!r} on the table")
        return self.layouts[part]

    def _pose(self, part: str) -> PartPose:
        return dict((layout.name, pose) for layout, pose in self.scene.parts)[part]

    # -- cameras -----------------------------------------------------------------------

    def camera_for(self, size: tuple[int, int]) -> RenderedPartsCamera | TruthPartsCamera:
        """The camera the world asks for: rendered frames of ``size``, or truth readings."""
        if self.camera is CameraMode.TRUTH:
            return TruthPartsCamera(self)
        return RenderedPartsCamera(self, self.camera_size or size)

    def snapshot(self) -> Contents:
        """A copy of what lies where (safe to read from the camera thread)."""
        with self._lock:
            return {part: dict(places) for part, places in self.contents.items()}

    # -- saving (the physical table outlives a crash of the program) -------------------

    def to_json(self) -> dict[str, Any]:
        """What lies where, JSON-ready (hands are transient and not kept)."""
        return {"contents": self.snapshot()}

    def restore(self, data: Any) -> None:
        """Put everything back as :meth:`to_json` described it; ValueError if it is not that."""
        try:
            contents = {str(part): dict(places) for part, places in data["contents"].items()}
            for part, places in contents.items():
                for place, label in places.items():
                    check_label(self._layout(part), str(place), str(label))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValueError(f"not a saved table of parts: {error}") from error
        with self._lock:
            self.contents = {name: {} for name in self.layouts}
            for part, places in contents.items():
                self.contents[part].update({p: label for p, label in places.items() if label})
        self.changes += 1


def _over(layout: PartLayout, pose: PartPose, point: tuple[float, float]) -> bool:
    """Whether a table point (mm) lies over the part (with a hand's reach around it)."""
    to_part = np.linalg.inv(part_to_table(layout, pose))
    x, y, _ = to_part @ np.array([point[0], point[1], 1.0])
    reach = 60.0
    return -reach <= x <= layout.width + reach and -reach <= y <= layout.height + reach


@dataclass
class RenderedPartsCamera:
    """Synthetic frames of the table: the world's camera pose and light, fresh noise each frame."""

    world: PartsWorld
    size: tuple[int, int] = (1920, 1080)

    def __post_init__(self) -> None:
        self.renderer = TableRenderer()

    def grab(self) -> np.ndarray | None:
        """The frame the camera takes now, or ``None`` while it is unplugged."""
        if not self.world.camera_present:
            return None
        scene: TableScene = replace(
            self.world.scene,
            contents=self.world.snapshot(),
            hands=tuple(self.world.hands.values()),
        )
        return self.renderer.render(
            scene, self.size, self.world.seed * 1_000_003 + self.world.frames
        )

    def close(self) -> None:
        """Nothing to release."""


class TruthPartsCamera:
    """The reading a perfect camera and reader would give: labels, covered parts, no pixels.

    Features (what a settling filter compares for motion) are the bits of the labels'
    hashes, so a part is still exactly when nothing on it changes; a hand
    over a part makes its reading covered, as the reader does.
    """

    def __init__(self, world: PartsWorld) -> None:
        self.world = world

    def grab(self) -> TableReading | None:
        """This frame's reading of every part, or ``None`` while the camera is unplugged."""
        if not self.world.camera_present:
            return None
        contents, covered = self.world.snapshot(), self.world.covered_parts()
        parts = {
            name: self._part(layout, contents.get(name, {}), name in covered)
            for name, layout in self.world.layouts.items()
        }
        return TableReading(OK, "", parts)

    @staticmethod
    def _part(layout: PartLayout, contents: Mapping[str, str], covered: bool) -> PartReading:
        places = tuple(place.name for place in layout.read_places())
        labels = tuple(contents.get(name, EMPTY) for name in places)
        features = _label_bits(labels)
        return PartReading(
            OK,
            "something over the part (a hand)" if covered else "",
            labels,
            tuple(0.3 if covered else 1.0 for _ in places),
            covered,
            homography=np.eye(3),
            features=features,
            part=layout.name,
            places=places,
        )

    def close(self) -> None:
        """Nothing to release."""


def _label_bits(labels: Sequence[str]) -> np.ndarray:
    """Per place the 32 bits of its label's hash: two labels differ by a whole bit somewhere,
    past any motion threshold (a hash folded to one small number let a tile lifted and laid
    again pass for a still part: sim cog --players 4 --seed 1 waited for ever)."""
    hashes = np.array([zlib.crc32(label.encode()) for label in labels], dtype=">u4")
    bits = np.unpackbits(hashes.view(np.uint8).reshape(len(labels), 4), axis=1)
    return bits.astype(np.float64)
