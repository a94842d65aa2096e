"""Pictures for people: the reading drawn over the frame, and the printable board sheet."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np

from vision.markers import marker_image, project
from vision.peg_disk.geometry import BoardGeometry, board_to_sheet_pixels
from vision.peg_disk.reading import MIN_CONFIDENCE, Reading

DRAW_BGR = {None: (255, 255, 255), "red": (0, 0, 255), "blue": (255, 80, 0), "gold": (0, 215, 255)}
MM_PER_INCH = 25.4


def draw_reading(frame: np.ndarray, reading: Reading, geometry: BoardGeometry) -> np.ndarray:
    """The frame with markers, every peg circle in the colour read and its confidence (percent)."""
    image = frame.copy()
    for marker_id, corners in reading.markers.items():
        cv2.polylines(image, [np.rint(corners).astype(np.int32)], True, (0, 255, 0), 2, cv2.LINE_AA)
        cv2.putText(
            image, str(marker_id), _pt(corners[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 0), 1
        )
    if reading.homography is not None and reading.labels and reading.confidence:
        _draw_pegs(image, reading, geometry)
    status = reading.status + (f": {reading.message}" if reading.message else "")
    cv2.putText(image, status, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(
        image, status, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA
    )
    return image


def _draw_pegs(image: np.ndarray, reading: Reading, geometry: BoardGeometry) -> None:
    centres = project(reading.homography, geometry.peg_positions())
    step = np.array([0.45 * geometry.peg_pitch, 0.0])
    edge = project(reading.homography, geometry.peg_positions() + step)
    radii = np.linalg.norm(edge - centres, axis=1)
    for centre, radius, label, confidence in zip(
        centres, radii, reading.labels, reading.confidence, strict=True
    ):
        colour = DRAW_BGR[label] if confidence >= MIN_CONFIDENCE else (255, 0, 255)
        cv2.circle(
            image,
            _pt(centre),
            max(2, round(radius)),
            colour,
            1 if label is None else 2,
            cv2.LINE_AA,
        )
        text = f"{round(100 * confidence)}"
        cv2.putText(
            image,
            text,
            _pt(centre + np.array([-radius / 2, radius / 4])),
            cv2.FONT_HERSHEY_PLAIN,
            0.6,
            colour,
            1,
        )


def _pt(point) -> tuple[int, int]:
    return (round(float(point[0])), round(float(point[1])))


def print_sheet(geometry: BoardGeometry, dpi: float) -> np.ndarray:
    """The to-scale board sheet (grey uint8): markers, disk edge, pegs, a 100 mm scale bar."""
    scale = dpi / MM_PER_INCH
    width, height = (round(s * scale) for s in geometry.sheet_size)
    sheet = np.full((height, width), 255, np.uint8)
    to_sheet = board_to_sheet_pixels(geometry, scale)
    line = max(1, round(0.3 * scale))
    cv2.circle(
        sheet,
        _pt(project(to_sheet, np.zeros((1, 2)))[0]),
        round(geometry.disk_radius * scale),
        0,
        line,
    )
    for centre in project(to_sheet, geometry.peg_positions()):
        cv2.circle(sheet, _pt(centre), round(geometry.cog_radius() * scale), 170, line, cv2.LINE_AA)
        cv2.circle(sheet, _pt(centre), max(1, round(1.0 * scale)), 0, -1, cv2.LINE_AA)
    for marker_id in geometry.marker_ids():
        _place_marker(sheet, geometry, marker_id, to_sheet)
    _scale_bar(sheet, scale, line)
    return sheet


def _place_marker(sheet: np.ndarray, geometry: BoardGeometry, marker_id: int, to_sheet) -> None:
    corners = project(to_sheet, geometry.marker_corners(marker_id))
    x0, y0 = _pt(corners[0])
    side = round(corners[2, 0] - corners[0, 0])
    sheet[y0 : y0 + side, x0 : x0 + side] = marker_image(marker_id, side)
    label_at = (x0, min(sheet.shape[0] - 4, y0 + side + round(side * 0.25)))
    cv2.putText(
        sheet,
        f"id {marker_id}",
        label_at,
        cv2.FONT_HERSHEY_SIMPLEX,
        side / 180,
        90,
        max(1, side // 90),
    )


def _scale_bar(sheet: np.ndarray, scale: float, line: int) -> None:
    """100 mm bar along the top edge, to check the printer kept 100% scale."""
    x0, y = round(0.3 * sheet.shape[1]), round(8 * scale)
    cv2.line(sheet, (x0, y), (x0 + round(100 * scale), y), 0, line)
    cv2.putText(
        sheet,
        "100 mm: print at 100%",
        (x0, y + round(5 * scale)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale / 8,
        0,
        line,
    )


def png_bytes(image: np.ndarray, dpi: float | None = None) -> bytes:
    """PNG-encode an image; with ``dpi``, add a pHYs chunk so printers keep the scale."""
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("could not encode the image as PNG")
    png = data.tobytes()
    if dpi is None:
        return png
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    end_of_header = 8 + 8 + 13 + 4
    return png[:end_of_header] + chunk + png[end_of_header:]


PLACE_BGR = (255, 255, 255)
UNSURE_BGR = (0, 0, 255)
"""Places read with low confidence are drawn red."""


def draw_parts_reading(frame: np.ndarray, table_reading, layouts) -> np.ndarray:
    """The frame with what was read of each printed part (:mod:`vision.parts.reader`).

    Every place is outlined where its part's homography puts it, with its
    label in its top-left corner (``.`` for an empty place, ``W`` a tile face
    down, ``*`` a star, colours by initial), in red where it was read with low
    confidence; markers found are outlined green; each part's status and
    message, and the frame's, are written at the top left.
    """
    from vision.parts.part_reading import MIN_CONFIDENCE as PART_MIN_CONFIDENCE

    image = frame.copy()
    lines = [table_reading.status + (f": {table_reading.message}" if table_reading.message else "")]
    for layout in layouts:
        reading = table_reading.parts.get(layout.name)
        if reading is None:
            continue
        _draw_markers(image, reading.markers)
        if reading.homography is not None and reading.labels is not None:
            _draw_places(image, reading, layout, PART_MIN_CONFIDENCE)
        uncertain = len(reading.uncertain_places()) if reading.ok else 0
        state = reading.status + (" covered" if reading.covered else "")
        state += f", {uncertain} unsure" if uncertain else ""
        lines.append(
            f"{layout.name}: {state}" + (f" ({reading.message})" if reading.message else "")
        )
    for row, text in enumerate(lines):
        _outlined_text(image, text, (8, 20 + 20 * row))
    return image


def _draw_markers(image: np.ndarray, markers: dict[int, np.ndarray]) -> None:
    for marker_id, corners in markers.items():
        cv2.polylines(image, [np.rint(corners).astype(np.int32)], True, (0, 255, 0), 2, cv2.LINE_AA)
        cv2.putText(
            image, str(marker_id), _pt(corners[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 255, 0), 1
        )


def _draw_places(image: np.ndarray, reading, layout, min_confidence: float) -> None:
    """Each read place's outline and label, red where unsure."""
    places = {place.name: place for place in layout.read_places()}
    for name, label, confidence in zip(
        reading.places, reading.labels, reading.confidence, strict=True
    ):
        place = places[name]
        (x0, y0), (x1, y1) = place.corners()
        outline = project(reading.homography, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))
        colour = PLACE_BGR if confidence >= min_confidence else UNSURE_BGR
        cv2.polylines(image, [np.rint(outline).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        corner = project(reading.homography, np.array([(x0 + 1.0, y0 + 1.0)]))[0]
        text = _short_label(label)
        (_width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)
        at = (round(corner[0]), round(corner[1] + height))
        cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1, cv2.LINE_AA)


def _short_label(label: str) -> str:
    """A label short enough to write on a place: ``.`` empty, ``W`` wild, ``*`` star,
    colours by their initials (``b+r``)."""
    if not label:
        return "."
    if label == "wild":
        return "W"
    if label == "star":
        return "*"
    if len(label) == 1:
        return label
    return "+".join(colour[:1] for colour in label.split("+"))


def _outlined_text(image: np.ndarray, text: str, at: tuple[int, int]) -> None:
    cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
