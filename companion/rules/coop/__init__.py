"""Machi Koro's co-op variant with the Tax Assessor (seed 004), built on the base game."""
