"""Train the letter model and ship it: ``python -m training.letters.train`` (the ``train`` extra).

Draws training crops (:mod:`training.letters.generate`) in the training fonts of the
corpus (:func:`training.letters.fonts.corpus`) and OpenCV's Hershey faces, trains a
small convolutional network (torch, CPU) on the grey 40 px input the table computes
(:func:`vision.parts.letter_model.model_input`), fits a temperature on crops of the
validation fonts (families never trained on), measures the development fonts, exports
``vision/parts/letter_model.onnx`` and records its SHA-256, the temperature and the
figures in ``vision/parts/letter_model.json``. Reserved typefaces are refused by name.
Run it niced: the CPU is shared (about 15 minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.parts.letter_model import (
    CLASSES,
    INPUT_SIDE,
    MODEL_PATH,
    NOT_A_LETTER,
    RECORD_PATH,
    SURE,
    file_sha256,
    model_input,
)

from .fonts import FontFile, checked, corpus
from .generate import dataset
from .tiles import Typeface, hershey_typefaces

SEED = 26_000
"""Training seeds: SEED + chunk; validation SEED + 10_000 + chunk; development + 20_000."""
CHUNK = 250
"""Crops per class drawn by one worker call (one seed)."""


def typefaces(fonts: Sequence[FontFile], hershey: bool = False) -> list[Typeface]:
    """Glyph sources for ``fonts`` (each refused if reserved), with the Hershey faces."""
    chosen = [Typeface(font.path) for font in checked(font.path for font in fonts)]
    return chosen + (list(hershey_typefaces()) if hershey else [])


def _chunk(args: tuple[int, list[Typeface], int]) -> tuple[np.ndarray, np.ndarray]:
    per_class, faces, seed = args
    crops, labels = dataset(per_class, faces, seed)
    return model_input(crops), labels


def drawn(
    per_class: int, faces: list[Typeface], seed: int, workers: int
) -> tuple[np.ndarray, np.ndarray]:
    """Model inputs and labels of ``per_class`` crops per class, drawn in chunks."""
    chunks = [
        (min(CHUNK, per_class - start), faces, seed + index)
        for index, start in enumerate(range(0, per_class, CHUNK))
    ]
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_chunk, chunks)
    else:
        parts = [_chunk(chunk) for chunk in chunks]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def network():
    """The letter network: five small convolutions and a linear read-out (~74k weights)."""
    from torch import nn

    def stage(inputs: int, outputs: int) -> list:
        return [
            nn.Conv2d(inputs, outputs, 3, padding=1, bias=False),
            nn.BatchNorm2d(outputs),
            nn.ReLU(),
        ]

    return nn.Sequential(
        *stage(1, 16),
        nn.MaxPool2d(2),  # 16 px
        *stage(16, 32),
        nn.MaxPool2d(2),  # 8 px
        *stage(32, 48),
        *stage(48, 48),
        nn.MaxPool2d(2),  # 4 px
        nn.Conv2d(48, 64, 3, bias=False),
        nn.BatchNorm2d(64),
        nn.ReLU(),  # 2 px
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(64 * 4, len(CLASSES)),
    )


def train(inputs: np.ndarray, labels: np.ndarray, epochs: int, seed: int):
    """The trained network (torch, eval mode)."""
    import torch

    torch.manual_seed(seed)
    model = network()
    x, y = torch.from_numpy(inputs), torch.from_numpy(labels.astype(np.int64))
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_of = torch.nn.CrossEntropyLoss()
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(x), generator=generator)
        total, started = 0.0, time.time()
        for start in range(0, len(x), batch):
            rows = order[start : start + batch]
            shift = torch.randint(-2, 3, (2,), generator=generator)
            xb = torch.roll(x[rows], shifts=(int(shift[0]), int(shift[1])), dims=(2, 3))
            optimiser.zero_grad()
            loss = loss_of(model(xb), y[rows])
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss) * len(rows)
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} "
            f"({time.time() - started:.0f} s)",
            flush=True,
        )
    return model.eval()


def logits_of(model, inputs: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        return np.concatenate(
            [
                model(torch.from_numpy(inputs[s : s + 512])).numpy()
                for s in range(0, len(inputs), 512)
            ]
        )


def fitted_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature minimising the negative log-likelihood of ``labels`` (grid search)."""
    grid = np.exp(np.linspace(np.log(0.3), np.log(6.0), 200))
    return float(grid[int(np.argmin([_nll(logits / t, labels) for t in grid]))])


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def _nll(logits: np.ndarray, labels: np.ndarray) -> float:
    return float(-_log_softmax(logits)[np.arange(len(labels)), labels].mean())


def figures(logits: np.ndarray, labels: np.ndarray, temperature: float) -> dict:
    """Accuracy, calibration and what a reader would commit, on one set of crops."""
    probabilities = np.exp(_log_softmax(logits / temperature))
    best = probabilities.argmax(axis=1)
    top = probabilities.max(axis=1)
    right = best == labels
    sure = top >= SURE
    bins = np.minimum((top * 10).astype(int), 9)
    ece = sum(
        abs(right[bins == b].mean() - top[bins == b].mean()) * (bins == b).mean()
        for b in range(10)
        if (bins == b).any()
    )
    letters = labels < NOT_A_LETTER
    return {
        "crops": len(labels),
        "accuracy": round(float(right.mean()), 4),
        "letter_accuracy": round(float(right[letters].mean()), 4),
        "not_a_letter_accuracy": round(float(right[~letters].mean()), 4),
        "nll": round(_nll(logits / temperature, labels), 4),
        "ece": round(float(ece), 4),
        "sure_right": round(float((sure & right).mean()), 4),
        "sure_wrong": int((sure & ~right).sum()),
    }


def export(model, path: Path) -> None:
    """Write the network as ONNX with a free batch size (opset 17, read by cv2.dnn)."""
    import torch

    dummy = torch.zeros(1, 1, INPUT_SIDE, INPUT_SIDE)
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=700, help="training crops per letter")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2, help="processes drawing crops")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--record", type=Path, default=RECORD_PATH)
    parser.add_argument(
        "--font",
        type=Path,
        action="append",
        default=[],
        help="train on this font file too (a reserved typeface is refused)",
    )
    options = parser.parse_args(argv)
    split = corpus()  # before torch is imported: with torch loaded OpenCV draws a few faces apart
    import torch

    torch.set_num_threads(options.threads)
    training = typefaces(split["train"] + [FontFile(p) for p in options.font], hershey=True)
    validation = typefaces(split["validation"])
    development = typefaces(split["development"])
    print(
        f"fonts: {len(training)} training (with Hershey), {len(validation)} validation, "
        f"{len(development)} development",
        flush=True,
    )
    started = time.time()
    x, y = drawn(options.per_class, training, SEED, options.workers)
    vx, vy = drawn(max(40, options.per_class // 10), validation, SEED + 10_000, options.workers)
    dx, dy = drawn(max(40, options.per_class // 10), development, SEED + 20_000, options.workers)
    print(
        f"drew {len(x)} training, {len(vx)} validation, {len(dx)} development crops "
        f"in {time.time() - started:.0f} s",
        flush=True,
    )
    model = train(x, y, options.epochs, SEED)
    validation_logits = logits_of(model, vx)
    temperature = fitted_temperature(validation_logits, vy)
    export(model, options.out)
    record = {
        "sha256": file_sha256(options.out),
        "temperature": round(temperature, 4),
        "figures": {
            "validation_fonts": figures(validation_logits, vy, temperature),
            "validation_fonts_uncalibrated": figures(validation_logits, vy, 1.0),
            "development_fonts": figures(logits_of(model, dx), dy, temperature),
        },
        "recipe": {
            "per_class": options.per_class,
            "epochs": options.epochs,
            "seed": SEED,
            "training_fonts": sorted(face.name for face in training),
            "validation_fonts": sorted(face.name for face in validation),
            "development_fonts": sorted(face.name for face in development),
            "minutes": round((time.time() - started) / 60, 1),
        },
    }
    options.record.write_text(json.dumps(record, indent=1) + "\n")
    print(json.dumps(record["figures"], indent=1))
    print(
        f"temperature {temperature:.3f}; wrote {options.out} "
        f"({options.out.stat().st_size / 1024:.0f} KiB) and {options.record}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
