"""Machi Koro, the base game: its catalog, state, moves, events and engine."""
