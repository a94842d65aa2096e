"""Tagged cards on a card mat: the mat's zones, the tag family, the reader, sheets and renderer."""
