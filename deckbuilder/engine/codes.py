"""Small int codes shared by the engine modules (play types, slots, placements, spaces)."""

from __future__ import annotations

# How a card is played (printed play type, or a mode's).
FIREPOWER, ROW_BLOCKING, ONE_SHOT = 0, 1, 2
PLAY_CODES = {"firepower": FIREPOWER, "row-blocking": ROW_BLOCKING, "one-shot": ONE_SHOT}
# Where a card lies once played: in its owner's column, in the opponent's column
# (row-blocking), beside the battlefield (no column), or nowhere (one-shot: discarded).
SLOT_OWN, SLOT_OPPONENT, SLOT_BESIDE, SLOT_NONE = 0, 1, 2, 3
# A card lying under another card in play (the `attach` step): no column, never a target.
SLOT_UNDER = 4
# Placement rules (models.cards.Placement).
(PLACE_CURRENT, PLACE_ANY, PLACE_OPPONENT_ANY, PLACE_BESIDE, PLACE_OPEN_RANGE,
 PLACE_PRISON) = range(6)
#: The battlefield a "prison" placement names (Double the guard): Expansion 1.2's prison,
#: in the row only when its module is in use.
PRISON_BATTLEFIELD = "san-manzanillo-prison"
PLACEMENT_CODES = {
    "current": PLACE_CURRENT, "any": PLACE_ANY, "opponent-any": PLACE_OPPONENT_ANY,
    "beside": PLACE_BESIDE, "open-range": PLACE_OPEN_RANGE, "prison": PLACE_PRISON,
}
CATEGORY_BITS = {"action": 1, "character": 2, "firepower": 4, "location": 8, "open-range": 16}
# Turn space kinds.
SPACE_REGULAR, SPACE_EXTRA, SPACE_OPTIONAL, SPACE_FACE = 0, 1, 2, 3
SPACE_CODES = {"regular": SPACE_REGULAR, "extra": SPACE_EXTRA, "optional": SPACE_OPTIONAL,
               "face": SPACE_FACE}
# Target sides (relative to the acting player) and places.
SIDE_SELF, SIDE_OPPONENT, SIDE_ANY = 0, 1, 2
SIDE_CODES = {"self": SIDE_SELF, "opponent": SIDE_OPPONENT, "any": SIDE_ANY}
WHERE_CURRENT, WHERE_ANY, WHERE_ADJACENT, WHERE_UPCOMING, WHERE_PLAYED_AT = range(5)
WHERE_CODES = {"current": WHERE_CURRENT, "any": WHERE_ANY, "adjacent": WHERE_ADJACENT,
               "upcoming": WHERE_UPCOMING, "played-at": WHERE_PLAYED_AT}
# How the play-phase options check a card (CardDef.fast): a simple card (one mode, placed at
# the current battlefield) needs only its cost and, if it fills a column, that column's room.
FAST_OWN_COLUMN, FAST_OPPONENT_COLUMN, FAST_FREE, FAST_GENERAL, FAST_NEVER = 0, 1, 2, 3, 4
ALL = 1 << 20  # a count of "all"
