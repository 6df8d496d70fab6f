"""Machi Koro Legacy (seed 002, RULES.md 15): a campaign of games whose catalog grows."""
