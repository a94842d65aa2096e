"""Writing printable pages: PNG files (with their DPI) or one multi-page PDF, to scale.

A page is a BGR image drawn at a known DPI; the PDF gives each page the
paper size the pixels stand for, so a printer set to 100% (no "fit to page")
prints it to scale. The PDF is written with the standard library (one
Flate-compressed RGB image per page): nothing more to install on a Pi.
Everything is checked before anything is written, and each file is written
whole or not at all (a temporary beside it, then renamed).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from cogtable.errors import UserError
from vision.peg_disk.overlay import png_bytes

POINTS_PER_INCH = 72.0


def output_paths(out: Path, pages: int) -> list[Path]:
    """The files ``out`` stands for: itself (a PDF, or one PNG), or ``NAME-1.png`` ... per page."""
    if out.suffix.lower() == ".pdf" or pages == 1:
        return [out]
    return [out.with_name(f"{out.stem}-{number}{out.suffix}") for number in range(1, pages + 1)]


def write_pages(pages: Sequence[np.ndarray], out: Path, dpi: float) -> list[Path]:
    """Write the pages to ``out`` (``.pdf`` or ``.png``); the files written. UserError if not."""
    if out.suffix.lower() not in (".pdf", ".png"):
        raise UserError(f"--out {out}: name a .pdf or a .png file")
    if out.is_dir():
        raise UserError(f"--out {out} is a folder: name a .pdf or a .png file in it")
    if out.parent.exists() and not out.parent.is_dir():
        raise UserError(f"--out {out}: {out.parent} is a file, not a folder")
    if not out.parent.is_dir():
        raise UserError(f"--out {out}: the folder {out.parent} does not exist")
    paths = output_paths(out, len(pages))
    if out.suffix.lower() == ".pdf":
        blobs = [pdf_bytes(pages, dpi)]
    else:
        blobs = [png_bytes(page, dpi) for page in pages]
    for path, blob in zip(paths, blobs, strict=True):
        _write_whole(path, blob)
    return paths


def _write_whole(path: Path, data: bytes) -> None:
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise UserError(f"cannot write {path}: {error.strerror or error}") from error


def pdf_bytes(pages: Sequence[np.ndarray], dpi: float) -> bytes:
    """A PDF with one page per image, each page the size the image is at ``dpi``."""
    objects: list[bytes] = []
    kids = []
    for page in pages:
        height, width = page.shape[:2]
        w_pt, h_pt = width / dpi * POINTS_PER_INCH, height / dpi * POINTS_PER_INCH
        rgb = np.ascontiguousarray(page[:, :, ::-1]).tobytes()
        image = zlib.compress(rgb, 6)
        image_id, content_id, page_id = len(objects) + 3, len(objects) + 4, len(objects) + 5
        objects.append(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
            b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
            % (width, height, len(image))
            + image
            + b"\nendstream"
        )
        drawing = b"q %.3f 0 0 %.3f 0 0 cm /Im0 Do Q" % (w_pt, h_pt)
        objects.append(b"<< /Length %d >>\nstream\n" % len(drawing) + drawing + b"\nendstream")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.3f %.3f] "
            b"/Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>"
            % (w_pt, h_pt, image_id, content_id)
        )
        kids.append(b"%d 0 R" % page_id)
    head = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids)),
    ]
    return _assemble(head + objects)


def _assemble(objects: list[bytes]) -> bytes:
    """Number the objects, write the cross-reference table and the trailer."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
