"""The simulated people: one module per game, and the hands and habits they share."""
