"""Random scenes of printed parts: the parts laid out on a table under a random camera.

:func:`arrange_parts` lays the largest part in the middle and the others in a column on
each side; :func:`random_camera` draws a camera, its light (dimmed so nothing burns out)
and its sensor; :func:`random_table_scene` puts both together into a
:class:`vision.parts.renderer.TableScene` for :func:`vision.parts.renderer.render_table`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from vision.layout import PartLayout
from vision.part_sheet import PAPER_BGR
from vision.parts.look import REFERENCE, PartsLook
from vision.parts.renderer import PartPose, TableScene
from vision.parts.tiles import TRAINING_FONTS, Font
from vision.peg_disk.renderer import Camera, Lighting, Sensor

PART_GAP_MM = 25.0
"""Space between neighbouring parts laid out by :func:`arrange_parts`."""


def arrange_parts(
    layouts: Sequence[PartLayout], rng: np.random.Generator, max_turn: float = 8.0
) -> tuple[tuple[tuple[PartLayout, PartPose], ...], tuple[float, float]]:
    """Lay the parts out: the largest in the middle, the others in a column on each side.

    Parts on the left face the left, on the right the right (turned 180
    degrees), each turned a little more (up to ``max_turn`` degrees) and
    nudged. Returns the poses and the table size that holds them.
    """
    if not layouts:
        raise ValueError("no parts to lay on the table")
    order = sorted(range(len(layouts)), key=lambda i: -layouts[i].width * layouts[i].height)
    centre, others = layouts[order[0]], [layouts[i] for i in order[1:]]
    turns = {layout.name: float(rng.uniform(-max_turn, max_turn)) for layout in layouts}
    turns[centre.name] += 90.0 * int(rng.integers(4))
    columns: list[list[PartLayout]] = [others[0::2], others[1::2]]
    spans = {layout.name: _footprint(layout, turns[layout.name]) for layout in layouts}
    widths = [max((spans[p.name][0] for p in column), default=0.0) for column in columns]
    heights = [sum(spans[p.name][1] + PART_GAP_MM for p in column) for column in columns]
    table_h = max(spans[centre.name][1] + 2 * PART_GAP_MM, *(h + PART_GAP_MM for h in heights))
    centre_w = spans[centre.name][0]
    table_w = centre_w + sum(w + PART_GAP_MM for w in widths if w) + 2 * PART_GAP_MM
    left_w = widths[0] + PART_GAP_MM if widths[0] else 0.0
    poses = {
        centre.name: PartPose(PART_GAP_MM + left_w + centre_w / 2, table_h / 2, turns[centre.name])
    }
    for side, column in enumerate(columns):
        x = PART_GAP_MM + widths[0] / 2 if side == 0 else table_w - PART_GAP_MM - widths[1] / 2
        y = (table_h - heights[side] + PART_GAP_MM) / 2
        for layout in column:
            nudge = rng.uniform(-0.3, 0.3, 2) * PART_GAP_MM
            turn = turns[layout.name] + 180.0 * side
            span_h = spans[layout.name][1]
            poses[layout.name] = PartPose(x + nudge[0], y + span_h / 2 + nudge[1], turn)
            y += span_h + PART_GAP_MM
    return tuple((layout, poses[layout.name]) for layout in layouts), (table_w, table_h)


def _exposed(lighting: Lighting, brightest: float) -> Lighting:
    """The lighting, dimmed if needed so the brightest surface stays below 8-bit white.

    A camera's exposure does not let the brightest thing on the table burn out
    (clipped colour says nothing about paint), so neither does the synthetic one.
    """
    peak = (1 + lighting.gradient) * max(lighting.cast) * brightest
    return replace(lighting, brightness=min(lighting.brightness, 250 / peak))


def _footprint(layout: PartLayout, angle_deg: float) -> tuple[float, float]:
    """Width and height (mm) of the box around the part turned by ``angle_deg``."""
    angle = math.radians(angle_deg)
    cos, sin = abs(math.cos(angle)), abs(math.sin(angle))
    return (layout.width * cos + layout.height * sin, layout.width * sin + layout.height * cos)


def random_camera(
    rng: np.random.Generator, max_tilt: float, brightest: float
) -> tuple[Camera, Lighting, Sensor]:
    """A camera over a table (tilted at most ``max_tilt``), its light and its sensor.

    The light is dimmed where it would burn out a surface ``brightest`` (0-255) bright.
    """
    camera = Camera(
        tilt_deg=float(rng.uniform(0, max_tilt)),
        azimuth_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-4, 4) + 180 * int(rng.integers(2))),
        fill=float(rng.uniform(0.86, 0.96)),
        shift=(float(rng.uniform(-0.02, 0.02)), float(rng.uniform(-0.02, 0.02))),
    )
    lighting = _exposed(
        Lighting(
            brightness=float(rng.uniform(0.65, 1.1)),
            gradient=float(rng.uniform(0, 0.35)),
            gradient_deg=float(rng.uniform(0, 360)),
            vignette=float(rng.uniform(0, 0.25)),
            cast=tuple(float(g) for g in rng.uniform(0.85, 1.15, 3)),
        ),
        brightest,
    )
    sensor = Sensor(
        noise=float(rng.uniform(0, 5)),
        blur=float(rng.uniform(0, 1.0)),
        jpeg=int(rng.integers(55, 96)) if rng.random() < 0.7 else None,
    )
    return camera, lighting, sensor


def random_table_scene(
    rng: np.random.Generator,
    layouts: Sequence[PartLayout],
    contents: Mapping[str, Mapping[str, str]],
    size: tuple[int, int] = (1280, 720),
    *,
    max_tilt: float = 15.0,
    font: Font = TRAINING_FONTS[0],
    look: PartsLook = REFERENCE,
) -> TableScene:
    """A scene of the parts laid out by :func:`arrange_parts` under a random camera, light, sensor.

    The ranges are :func:`vision.peg_disk.renderer.random_scene`'s, with the camera
    tilted at most ``max_tilt`` degrees and turned a few degrees (or upside
    down): it frames a table, not a disk; the light is dimmed where it would
    burn out the brightest tile. ``size`` is accepted for symmetry
    with the Kogworks scenes; the frame size is given to :func:`render_table`.
    """
    del size
    parts, table_size = arrange_parts(layouts, rng)
    camera, lighting, sensor = random_camera(rng, max_tilt, max(*look.tiles.face, *PAPER_BGR))
    seed = int(rng.integers(2**31))
    return TableScene(parts, contents, table_size, camera, lighting, sensor, (), font, look, seed)
