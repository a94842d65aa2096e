"""The letter model: a typeface corpus, a crop generator and the training script.

``python -m training.letters.train`` rebuilds ``vision/parts/letter_model.onnx`` and its
record ``vision/parts/letter_model.json`` (needs the ``train`` extra: torch, onnx).
"""
