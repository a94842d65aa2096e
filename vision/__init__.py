"""Camera sources, board calibration, readers and the synthetic renderer (numpy + OpenCV)."""
