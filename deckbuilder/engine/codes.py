"""Small int codes shared by the engine modules (play types, slots, placements, spaces)."""

from __future__ import annotations

from typing import Final

# How a card is played (printed play type, or a mode's).
FIREPOWER: Final = 0
ROW_BLOCKING: Final = 1
ONE_SHOT: Final = 2
PLAY_CODES: Final = {"firepower": FIREPOWER, "row-blocking": ROW_BLOCKING, "one-shot": ONE_SHOT}
# Where a card lies once played: in its owner's column, in the opponent's column
# (row-blocking), beside the battlefield (no column), or nowhere (one-shot: discarded).
SLOT_OWN: Final = 0
SLOT_OPPONENT: Final = 1
SLOT_BESIDE: Final = 2
SLOT_NONE: Final = 3
# A card lying under another card in play (the `attach` step): no column, never a target.
SLOT_UNDER: Final = 4
# Placement rules (models.cards.Placement).
PLACE_CURRENT: Final = 0
PLACE_ANY: Final = 1
PLACE_OPPONENT_ANY: Final = 2
PLACE_BESIDE: Final = 3
PLACE_OPEN_RANGE: Final = 4
#: A placement the game names (`GameRules.placement_battlefields`): at that battlefield
#: only (`CardDef.named_bf`), while it is in the row. Revolver's "prison" (Double the guard).
PLACE_NAMED: Final = 5
#: The table's own placements; any other placement word is the game's (PLACE_NAMED).
PLACEMENT_CODES: Final = {
    "current": PLACE_CURRENT, "any": PLACE_ANY, "opponent-any": PLACE_OPPONENT_ANY,
    "beside": PLACE_BESIDE, "open-range": PLACE_OPEN_RANGE,
}
CATEGORY_BITS: Final = {"action": 1, "character": 2, "firepower": 4, "location": 8,
                        "open-range": 16}
# Turn space kinds.
SPACE_REGULAR: Final = 0
SPACE_EXTRA: Final = 1
SPACE_OPTIONAL: Final = 2
SPACE_FACE: Final = 3
SPACE_CODES: Final = {"regular": SPACE_REGULAR, "extra": SPACE_EXTRA, "optional": SPACE_OPTIONAL,
               "face": SPACE_FACE}
# Target sides (relative to the acting player) and places.
SIDE_SELF: Final = 0
SIDE_OPPONENT: Final = 1
SIDE_ANY: Final = 2
SIDE_CODES: Final = {"self": SIDE_SELF, "opponent": SIDE_OPPONENT, "any": SIDE_ANY}
WHERE_CURRENT: Final = 0
WHERE_ANY: Final = 1
WHERE_ADJACENT: Final = 2
WHERE_UPCOMING: Final = 3
WHERE_PLAYED_AT: Final = 4
WHERE_CODES: Final = {"current": WHERE_CURRENT, "any": WHERE_ANY, "adjacent": WHERE_ADJACENT,
               "upcoming": WHERE_UPCOMING, "played-at": WHERE_PLAYED_AT}
# How the play-phase options check a card (CardDef.fast): a simple card (one mode, placed at
# the current battlefield) needs only its cost and, if it fills a column, that column's room.
FAST_OWN_COLUMN: Final = 0
FAST_OPPONENT_COLUMN: Final = 1
FAST_FREE: Final = 2
FAST_GENERAL: Final = 3
FAST_NEVER: Final = 4
ALL: Final = 1 << 20  # a count of "all"
