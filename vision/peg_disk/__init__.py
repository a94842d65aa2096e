"""The Kogworks peg disk: its geometry, sheet, calibration, reader, settling filter and renderer."""
