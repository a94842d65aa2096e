"""C.O.G.'s printed parts (board, player mats): tiles, letters, dice, pawns; reader, renderer."""
