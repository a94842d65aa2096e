"""Printed parts speed and accuracy: ``.venv/bin/python benchmarks/bench_parts.py [--quick]``.

The table: a C.O.G.-like board and four player mats (tests/vision/part_layouts.py:
4 x 64 grid cells, 4 x 12 reserve and 4 x 6 star places, 16 cog spaces, 11
board tile places, 4 dice, 16 pawn spaces), rendered by vision.parts.renderer.

Speed (one core, cv2.setNumThreads(1)), at 1920x1080: the read of every part
(markers, homographies, every place, the letters), CPU and wall, median and
p90, for a still table seen by a steady camera (markers tracked, unchanged
tiles keep their letters: the table's usual frame), for the same frames with
every letter read again (what a frame after the whole table changed costs),
and for a new camera pose every frame (full marker search, every letter); the
letter classifier's own share; the machine's load average (it is shared).
Render time of the same table: a frame of an unchanged table, a frame after
one tile moved, a new table. Goal: at most 20 ms median for the usual frame.

Accuracy, on seeds 900_000+ (never used in tests or tuning), held-out fonts
(vision.parts.tiles.HELD_OUT_FONTS), 1280x720 and 1920x1080, camera tilt up to 15
degrees, light, noise, blur and JPEG: per-tile accuracy (letters, face-down
tiles, star tokens, empty), tiles read wrong with full confidence, per-place
accuracy of cogs, dice and pawn spaces; then each table held still for 15
frames through one settling filter per part: parts committed (all right?),
and that no part with a doubtful place was ever committed. ``--part speed|render|accuracy``
runs one part.

Tune on other seeds and fonts, never on the report's: ``--seed N --fonts development``
(vision.parts.tiles.DEVELOPMENT_FONTS) draws the tables from seed N in fonts kept for tuning;
``--tables N`` reads N tables instead of 16.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.vision.part_layouts import random_contents, table_layouts
from vision.layout import LETTERS
from vision.parts.letter_model import LetterModel
from vision.parts.letters import LetterClassifier
from vision.parts.part_reading import MIN_CONFIDENCE, TableReading
from vision.parts.reader import PartsReader
from vision.parts.renderer import TableRenderer, TableScene
from vision.parts.table_scenes import random_table_scene
from vision.parts.tiles import DEVELOPMENT_FONTS, HELD_OUT_FONTS
from vision.peg_disk.settle import SettlingFilter

SEEDS = 900_000
SIZES = ((1280, 720), (1920, 1080))
SPEED_SIZE = (1920, 1080)
LAYOUTS = table_layouts()
"""The parts read: ``--layout test`` (the tests' C.O.G.-like parts, 12 reserve places) or the
edition's own board and mats (``--layout edition``, the default: 20 smaller reserve places)."""
FONTS = HELD_OUT_FONTS
"""The tiles' fonts (``--fonts``): the held-out ones (the report) or the development ones."""


def edition_layouts() -> tuple:
    """The built-in C.O.G. edition's board and four mats, as the table reads them."""
    from cogtable.tables.cog.parts import part_layouts
    from games.cog.edition import load_edition

    return part_layouts(load_edition(), 4)


def _scene(seed: int, fill: float = 0.6) -> TableScene:
    rng = np.random.default_rng(seed)
    contents = random_contents(rng, LAYOUTS, fill)
    font = FONTS[seed % len(FONTS)]
    return random_table_scene(rng, LAYOUTS, contents, font=font)


def _timed(read, frames: list[np.ndarray], before=None) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of ``read`` on each frame (``before`` runs untimed first)."""
    wall, cpu = [], []
    for frame in frames:
        if before is not None:
            before()
        start, thread = time.perf_counter(), time.thread_time()
        read(frame)
        cpu.append((time.thread_time() - thread) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return wall, cpu


def _line(name: str, wall: list[float], cpu: list[float]) -> str:
    return (
        f"{name}: CPU median {statistics.median(cpu):.1f} ms, p90 {np.percentile(cpu, 90):.1f} ms;"
        f" wall median {statistics.median(wall):.1f} ms, p90 {np.percentile(wall, 90):.1f} ms"
    )


def speed(reader: PartsReader, frames: int, before: PartsReader | None = None) -> None:
    """Read times at 1920x1080 for a still table, one tile changed per frame, every letter read
    again, new poses; with ``before`` (another letter classifier) the same frames through it,
    interleaved, and the ratios of the medians (one run, so the shared machine's load is
    the same for both)."""
    renderer = TableRenderer()
    scene = _scene(SEEDS)
    still = [renderer.render(scene, SPEED_SIZE, index) for index in range(frames)]
    changed = [
        renderer.render(_one_tile_changed(scene, index), SPEED_SIZE, index)
        for index in range(frames)
    ]
    if before is not None:
        _compare_speed(reader, before, still, changed)
    poses = [
        renderer.render(_scene(SEEDS + 1 + index), SPEED_SIZE, index) for index in range(frames)
    ]
    tiles = _face_up(reader.read(still[0]))
    reader.read(still[0])
    print(
        _line(
            f"read, still table, steady camera ({tiles} face-up tiles)", *_timed(reader.read, still)
        )
    )
    print(
        _line(
            "read, still table, every letter read again",
            *_timed(reader.read, still, reader.forget),
        )
    )
    print(_line("read, new camera pose every frame", *_timed(reader.read, poses, reader.forget)))
    crops = np.stack(list(reader.tile_crops(still[0]).values()))
    wall, cpu = _timed(reader.classifier.classify, [crops] * 5)
    print(_line(f"  of which the letter classifier on {len(crops)} crops", wall, cpu))


def _one_tile_changed(scene: TableScene, index: int) -> TableScene:
    """The scene with mat1's first tile place holding another letter each frame."""
    mat = dict(scene.contents.get("mat1", {}))
    first = sorted(name for name in mat if mat[name] in LETTERS)[0]
    mat[first] = LETTERS[(LETTERS.index(mat[first]) + 1 + index) % len(LETTERS)]
    return replace(scene, contents={**scene.contents, "mat1": mat})


def _compare_speed(reader: PartsReader, before: PartsReader, still: list, changed: list) -> None:
    """Median CPU ms of both readers on still frames and one-tile-changed frames, and ratios."""
    for name, frames in (("still", still), ("one tile changed", changed)):
        for one in (reader, before):
            one.forget()
            one.read(still[0])
            one.read(still[0])
        times: dict[str, list[float]] = {"model": [], "today": []}
        for frame in frames:
            for who, one in (("model", reader), ("today", before)):
                _wall, cpu = _timed(one.read, [frame])
                times[who] += cpu
        model, today = (statistics.median(times[k]) for k in ("model", "today"))
        model_p90, today_p90 = (np.percentile(times[k], 90) for k in ("model", "today"))
        print(
            f"read 1920x1080, {name}: letter model CPU median {model:.1f} ms "
            f"(p90 {model_p90:.1f}), today's feature classifier {today:.1f} ms "
            f"(p90 {today_p90:.1f}); ratio {model / today:.2f}"
        )


def _face_up(reading: TableReading) -> int:
    return sum(label in LETTERS for part in reading.parts.values() for label in (part.labels or ()))


def render_speed(frames: int) -> None:
    """Render times at 1920x1080: an unchanged table, one tile moved, a new table."""
    renderer = TableRenderer()
    scene = _scene(SEEDS + 50)
    renderer.render(scene, SPEED_SIZE, 0)
    still = _timed(lambda seed: renderer.render(scene, SPEED_SIZE, seed), list(range(frames)))
    moved = []
    for index in range(frames):
        contents = {**scene.contents, "mat1": {**scene.contents["mat1"], "r1c1": LETTERS[index]}}
        moved.append(replace(scene, contents=contents))
    changed = _timed(lambda s: renderer.render(s, SPEED_SIZE, 0), moved)
    fresh = [_scene(SEEDS + 60 + index) for index in range(max(2, frames // 4))]
    new = _timed(lambda s: TableRenderer().render(s, SPEED_SIZE, 0), fresh)
    print(_line("render 1920x1080, unchanged table", *still))
    print(_line("render 1920x1080, one tile moved", *changed))
    print(_line("render 1920x1080, a new table (parts laid, sprites drawn)", *new))


def accuracy(reader: PartsReader, tables: int, first_seed: int = SEEDS + 1000) -> None:
    """Per-place accuracy by kind over rendered tables, and settling of each still table."""
    counts: Counter[str] = Counter()
    settle_counts: Counter[str] = Counter()
    judged_counts: Counter[str] = Counter()
    for index in range(tables):
        seed = first_seed + index
        scene, size = _scene(seed), SIZES[index % len(SIZES)]
        renderer = TableRenderer()
        frames = [renderer.render(scene, size, seed * 100 + frame) for frame in range(15)]
        reader.forget()
        _tally(scene, reader.read(frames[0]), counts)
        _settle(scene, reader, frames, settle_counts)
        _judged_settle(scene, reader, frames, judged_counts)
    _report(counts, tables, first_seed)
    print(
        f"settling: {tables} tables x {len(LAYOUTS)} parts held still 15 frames: "
        f"{settle_counts['right']} parts committed right, {settle_counts['wrong']} wrong, "
        f"{settle_counts['none']} not committed ({settle_counts['doubtful']} of them with a "
        f"doubtful place in every frame); {settle_counts['doubt_commit']} commits of a part "
        "with a doubtful place"
    )
    if judged_counts["parts"]:
        seconds = judged_counts["seconds"]
        print(
            f"commit decision (the tile places' summed evidence, no game narrowing, "
            f"{JUDGED_FPS} fps, 15 still frames): {judged_counts['right']} of "
            f"{judged_counts['parts']} parts committed right, {judged_counts['wrong']} wrong, "
            f"{judged_counts['parts'] - judged_counts['right'] - judged_counts['wrong']} not "
            f"within {15 / JUDGED_FPS:.1f} s; mean time to commit "
            f"{seconds / max(1, judged_counts['right'] + judged_counts['wrong']):.2f} s"
        )


def _kind(layout, name: str, expected: str) -> str:
    kind = layout.place(name).kind
    if kind != "tile":
        return kind
    return "letter" if expected in LETTERS else {"": "empty tile place"}.get(expected, expected)


def _tally(scene: TableScene, reading: TableReading, counts: Counter) -> None:
    for layout in LAYOUTS:
        part = reading.parts[layout.name]
        if not part.ok:
            counts["parts unread"] += 1
            continue
        labels = zip(part.places, part.labels, part.confidence, strict=True)
        for name, label, confidence in labels:
            expected = scene.contents.get(layout.name, {}).get(name, "")
            kind = _kind(layout, name, expected)
            kinds = [kind]
            if kind == "letter":
                kinds.append(f"letter, {_font_kind()} font {FONTS.index(scene.font) + 1}")
            for name_of in kinds:
                counts[f"{name_of} total"] += 1
                counts[f"{name_of} right"] += label == expected
                counts[f"{name_of} sure wrong"] += (
                    label != expected and confidence >= MIN_CONFIDENCE
                )
                counts[f"{name_of} unsure"] += confidence < MIN_CONFIDENCE


def _font_kind() -> str:
    return "held-out" if FONTS is HELD_OUT_FONTS else "development"


def _report(counts: Counter, tables: int, first_seed: int) -> None:
    kind = _font_kind()
    print(f"accuracy over {tables} tables ({kind} fonts, seeds {first_seed}+):")
    tile_kinds = ("letter", "wild", "star", "empty tile place")
    fonts = tuple(f"letter, {kind} font {i + 1}" for i in range(len(FONTS)))
    for group in (tile_kinds, fonts, ("cog", "die", "pawn")):
        for kind in group:
            total = counts[f"{kind} total"]
            if total:
                print(
                    f"  {kind}: {counts[f'{kind} right']}/{total} right "
                    f"({counts[f'{kind} right'] / total:.2%}), {counts[f'{kind} unsure']} unsure, "
                    f"{counts[f'{kind} sure wrong']} wrong at full confidence"
                )
    total = sum(counts[f"{kind} total"] for kind in tile_kinds)
    right = sum(counts[f"{kind} right"] for kind in tile_kinds)
    wrong = sum(counts[f"{kind} sure wrong"] for kind in tile_kinds)
    share = right / max(total, 1)
    print(f"  every tile place: {right}/{total} right ({share:.3%}), {wrong} sure and wrong")
    if counts["parts unread"]:
        print(f"  {counts['parts unread']} parts not read (markers)")


JUDGED_FPS = 15
"""The judged settling's camera rate (the table's)."""


def _judged_settle(scene: TableScene, reader: PartsReader, frames, counts: Counter) -> None:
    """The tile places of each part through a settling filter with the commit decision
    (:class:`cogtable.commit_decision.StillBoardJudge`, no game explanations: each place
    needs its own certainty): committed right or wrong, and how soon after stillness."""
    from cogtable.commit_decision import StillBoardJudge
    from cogtable.place_evidence import PlaceEvidence
    from vision.parts.part_reading import TILE_EVIDENCE_CLASSES

    def evidence(part):
        if part.tile_log_likelihood is None:
            return None
        return PlaceEvidence(
            part.tile_places, TILE_EVIDENCE_CLASSES, part.tile_log_likelihood, part.tile_unseen
        )

    clock = [0.0]
    filters = {
        layout.name: SettlingFilter(
            clock=lambda: clock[0], judge=StillBoardJudge(lambda: None, evidence)
        )
        for layout in LAYOUTS
    }
    committed: dict[str, tuple[dict, float]] = {}
    reader.forget()
    for frame in frames:
        reading = reader.read(frame)
        for name, settle in filters.items():
            status = settle.update(reading.parts[name])
            if status.new_commit and name not in committed:
                committed[name] = (dict(status.committed), clock[0])
        clock[0] += 1 / JUDGED_FPS
    for layout in LAYOUTS:
        counts["parts"] += 1
        if layout.name not in committed:
            continue
        position, seconds = committed[layout.name]
        truth = {name: scene.contents.get(layout.name, {}).get(name, "") for name in position}
        counts["right" if position == truth else "wrong"] += 1
        counts["seconds"] += seconds


def _settle(scene: TableScene, reader: PartsReader, frames, counts: Counter) -> None:
    """One filter per part over the still frames: what was committed, and never a doubt."""
    clock = [0.0]
    filters = {layout.name: SettlingFilter(clock=lambda: clock[0]) for layout in LAYOUTS}
    committed: dict[str, object] = {}
    doubtful = dict.fromkeys(filters, True)
    for frame in frames:
        reading = reader.read(frame)
        for name, settle in filters.items():
            part = reading.parts[name]
            doubtful[name] &= not part.certain
            status = settle.update(part)
            if status.new_commit:
                committed[name] = status.committed
                counts["doubt_commit"] += not part.certain
        clock[0] += 1 / 30
    for layout in LAYOUTS:
        truth = {
            p.name: scene.contents.get(layout.name, {}).get(p.name, "")
            for p in layout.read_places()
        }
        if layout.name not in committed:
            counts["none"] += 1
            counts["doubtful"] += doubtful[layout.name]
        else:
            counts["right" if committed[layout.name] == truth else "wrong"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer frames (a smoke run)")
    parser.add_argument(
        "--part", choices=("all", "speed", "render", "accuracy"), default="all", help="run one part"
    )
    parser.add_argument(
        "--layout", choices=("edition", "test"), default="edition", help="which parts (edition)"
    )
    parser.add_argument(
        "--seed", type=int, default=SEEDS + 1000, help="first accuracy table's seed (tuning only)"
    )
    parser.add_argument(
        "--fonts", choices=("held-out", "development"), default="held-out", help="tiles' fonts"
    )
    parser.add_argument("--tables", type=int, default=None, help="accuracy tables (16)")
    parser.add_argument(
        "--letters",
        choices=("model", "features"),
        default="model",
        help="letter classifier: the shipped letter model or today's feature classifier",
    )
    args = parser.parse_args()
    global LAYOUTS, FONTS  # noqa: PLW0603 - the parts and fonts every part of the benchmark reads
    LAYOUTS = edition_layouts() if args.layout == "edition" else table_layouts()
    FONTS = HELD_OUT_FONTS if args.fonts == "held-out" else DEVELOPMENT_FONTS
    print(f"layout: {args.layout} ({', '.join(layout.name for layout in LAYOUTS)})")
    cv2.setNumThreads(1)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (the machine is shared)")
    start = time.perf_counter()
    features = PartsReader(LAYOUTS, classifier=LetterClassifier.default())
    model = PartsReader(LAYOUTS, classifier=LetterModel.default())
    reader = model if args.letters == "model" else features
    print(f"letter classifiers built in {time.perf_counter() - start:.1f} s ({args.letters} read)")
    if args.part in ("all", "speed"):
        speed(reader, 6 if args.quick else 20, features if args.letters == "model" else None)
    if args.part in ("all", "render"):
        render_speed(4 if args.quick else 12)
    if args.part in ("all", "accuracy"):
        tables = args.tables or (2 if args.quick else 16)
        accuracy(reader, tables, args.seed)


if __name__ == "__main__":
    main()
