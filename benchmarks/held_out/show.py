"""Write example held-out frames for a person to look at (PNG, one per condition).

    .venv/bin/python benchmarks/held_out/show.py [--out DIR] [--surface peg_disk|cards|parts]
        [--size 1280x720] [--seed 9000000]

Each PNG is named after its surface and condition; a text file beside it
holds the truth. Only held-out seeds (9_000_000 and up) are drawn.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.held_out import cards, parts, peg_disk
from benchmarks.held_out.optics import HELD_OUT_SEED_MIN, check_seed, check_size

SURFACES = ("peg_disk", "cards", "parts")


def show_peg_disk(out: Path, seed: int, size: tuple[int, int]) -> list[Path]:
    """One frame per peg disk condition, plus four frames of a hand placing a cog."""
    labels = peg_disk.random_labels(seed, 16)
    written = []
    for condition in peg_disk.Condition:
        frame, truth = peg_disk.render_still(labels, condition, seed, 0, size)
        written.append(_write(out / f"peg_disk_{condition.value}", frame, _disk_words(truth)))
    empty = next(p for p in range(len(labels)) if labels[p] is None)
    after = (*labels[:empty], "red", *labels[empty + 1 :])
    frames = list(peg_disk.render_sequence(labels, after, "plain", seed, size))
    for index in range(0, len(frames), max(1, len(frames) // 6)):
        shown = frames[index]
        name = out / f"peg_disk_sequence_{index:03d}_{shown.phase}"
        written.append(_write(name, shown.frame, _disk_words(shown.truth)))
    return written


def show_cards(out: Path, seed: int, size: tuple[int, int]) -> list[Path]:
    """One card mat frame per condition, and one with sleeves, piles and backs together."""
    written = []
    for condition in [*cards.Condition, ("sleeves", "piles", "backs")]:
        frame, truth = cards.render_still(condition, seed, 0, size)
        name = condition if isinstance(condition, str) else "_".join(condition)
        written.append(_write(out / f"cards_{name}", frame, _card_words(truth)))
    return written


def show_parts(out: Path, seed: int, size: tuple[int, int]) -> list[Path]:
    """One board-and-mats frame per condition."""
    written = []
    for condition in parts.Condition:
        frame, truth = parts.render_still(condition, seed, 0, size)
        words = [f"conditions {truth.conditions} face {truth.tile_face}"]
        words += [f"{name}: {places}" for name, places in truth.labels().items()]
        words += [
            f"{t.part} {t.place} {t.label} {t.font} turn {t.turn_deg:.1f}" for t in truth.tiles
        ]
        written.append(_write(out / f"parts_{condition.value}", frame, "\n".join(words) + "\n"))
    return written


def _card_words(truth: cards.CardsTruth) -> str:
    lines = [f"conditions {truth.conditions} seed {truth.seed} hand {truth.hand}"]
    lines += [str(zone) for zone in truth.zones]
    lines += [
        f"card {c.tag_id} ({c.name}) zone {c.zone} up {c.face_up} top {c.on_top} "
        f"seen {c.visible_share:.2f} tag {c.tag_visible_share:.2f} glare {c.glare_peak:.2f}"
        for c in truth.cards
    ]
    return "\n".join(lines) + "\n"


def _disk_words(truth: peg_disk.DiskTruth) -> str:
    cogs = {p: label for p, label in enumerate(truth.labels) if label}
    return (
        f"conditions {truth.conditions} seed {truth.seed} frame {truth.frame_index}\n"
        f"cogs {cogs}\ncovered {sorted(truth.covered)}\nheld {truth.held}\n"
        f"hand {truth.hand} moving {truth.moving} markers hidden {truth.markers_hidden}\n"
    )


def _write(stem: Path, frame, words: str) -> Path:
    path = stem.with_suffix(".png")
    cv2.imwrite(str(path), frame)
    stem.with_suffix(".txt").write_text(words)
    return path


def main(argv: list[str] | None = None) -> int:
    """Write the examples; a bad argument is one line and exit 2."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/held_out_examples"))
    parser.add_argument("--surface", choices=SURFACES, action="append")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seed", type=int, default=HELD_OUT_SEED_MIN)
    args = parser.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
        check_size((width, height))
        check_seed(args.seed)
    except ValueError as error:
        print(f"show: {error}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    shows = {"peg_disk": show_peg_disk, "cards": show_cards, "parts": show_parts}
    for surface in args.surface or list(shows):
        if surface not in shows:
            print(f"show: {surface} is not drawn yet", file=sys.stderr)
            continue
        for path in shows[surface](args.out, args.seed, (width, height)):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
