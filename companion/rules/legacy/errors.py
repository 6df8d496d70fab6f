"""Why the Legacy rules refuse a move or an input: one class per stable code (STYLE.md 6)."""

from __future__ import annotations

from companion.rules.errors import BadInput, RuleError


class BadSetup(BadInput):
    """A game's set-up (its landmarks, community landmark, town-square cards, start player)
    the catalog or the group does not allow; the message starts with the field."""

    code = "legacy/bad_setup"


class NotYourLandmark(BadInput):
    """A landmark that is not one of the seat's three in this game."""

    code = "legacy/not_your_landmark"


class AlreadyContributed(RuleError):
    """A second contribution to the community landmark in one game."""

    code = "legacy/already_contributed"


class BadGroup(BadInput):
    """A campaign's group that cannot play: names, colours, cities; the field is named."""

    code = "legacy/bad_group"


class RollOff(RuleError):
    """The first game's roll for the start player: dice for the wrong players, or no roll due."""

    code = "legacy/roll_off"


class NotReady(RuleError):
    """A campaign step out of order: a game started before the last one is recorded and its
    checklist done, or before the first start player is rolled."""

    code = "legacy/not_ready"


class BadResult(BadInput):
    """A game's register line that cannot be written (unknown game, winner, a bad date)."""

    code = "legacy/bad_result"


class CampaignOver(RuleError):
    """An eleventh game: a campaign is ten (seed 002)."""

    code = "legacy/campaign_over"
