"""Machi Koro, the base game: its catalog, state, moves, facts and engine."""
