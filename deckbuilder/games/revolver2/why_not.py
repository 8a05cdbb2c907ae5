"""Revolver 2's rules, in its rulebook's words (the Spanish document, put in English here),
for the reasons a card in hand cannot be played (`engine.why_not`; the codes are
`engine.play.play_refusal`'s). A reason left out here (a card's own text) is the engine's
reading: the document states no general rule for it."""

from __future__ import annotations

_PLAY_CARDS = "malpaso-es, Como se Juega, 3. Jugar a las cartas (translated)"

RULE_WORDS: dict[str, tuple[str, str]] = {
    "cost": ("To play a card from your hand you must pay its cost [...]: pay the cost by "
             "discarding that number of other cards from your hand to your discard pile.",
             _PLAY_CARDS),
    "card-limit": ("The Malpaso guardians player has a three-card limit: at most three "
                   "firepower cards on his side of each battlefield. Once three cards are "
                   "there, he cannot place more at that battlefield (unless he discards one of "
                   "his own firepower cards there, or a card says otherwise). [...] General "
                   "Mapache may place row-blocking cards in the guardians' area; they count "
                   "toward the guardians' three-card limit, and he cannot place one at a "
                   "battlefield that already holds three cards.", _PLAY_CARDS),
    "row-blocking": ("Row-blocking cards [...] are placed at a battlefield in your opponent's "
                     "area (at most two row-blocking cards per side at each battlefield).",
                     _PLAY_CARDS),
    "placement": ("Cards are always placed at the current battlefield (the card with the turn "
                  "marker) unless the card's text says otherwise.", _PLAY_CARDS),
    "phase": ("A turn is divided into four phases: advance the turn marker, draw two cards, "
              "play cards, attack. 3. Play cards: you may put any number of cards from your "
              "hand into play on your side of the current battlefield card.",
              "malpaso-es, Como se Juega (translated)"),
}
