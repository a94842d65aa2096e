"""Table adapters: one module per game, the only code that knows a game and the sensors."""
