"""What the camera thread does with a frame: read the game's regions, settle, tell the table.

One sight per kind of region (:class:`~cogtable.tables.base.CameraRegion`):

- :mod:`.peg_disk`: the Kogworks disk, read peg by peg and settled as one board;
- :mod:`.parts`: printed parts (the C.O.G. board and mats), settled part by part,
  so a hand over one mat holds back only that mat;
- :mod:`.cards`: the card mat, settled as one mat.

Whichever, a frame is never a move by itself: only the settling filter's
commits reach the table (docs/ARCHITECTURE.md, "Reading the physical board").
:mod:`.camera` holds what they share: how a sight hands the runtime an input,
and the camera's own status.
"""
