"""Tournaments' pure core (RULES.md 25-29): seating of the preliminary rounds, places and
points of a table, standings, the semi-final and final seeding, score sheets.

No Flask, database or clock: randomness comes in as a seeded `random.Random`, so one seed
gives one seating.
"""
