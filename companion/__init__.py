"""The table companion: bank and referee for board-game nights in a hall."""

__version__ = "0.2.0"
