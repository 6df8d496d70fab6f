"""The big multi-board Catan event (seed 003, RULES.md 20-24): the hall's turn and the claims.

The app tracks no Catan resources; these pure functions say whose turn it is, what a 7 does,
how long a turn lasts, and who wins among the victory claims of one turn.
"""

RULESET = "catan-big"
