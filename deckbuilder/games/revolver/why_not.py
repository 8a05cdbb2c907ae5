"""Revolver's rules, in the base rulebook's words, for the reasons a card in hand cannot be
played (`engine.why_not`; the codes are `engine.play.play_refusal`'s). A reason left out here
(a card's own text: a forbidden battlefield, an only-if, silver dollars) is the engine's
reading: the documents state no general rule for it."""

from __future__ import annotations

_PLAY_CARDS = "rulebook-en, Turn sequence, 3. Play cards"

RULE_WORDS: dict[str, tuple[str, str]] = {
    "phase": ("A turn is divided into four phases: Advance turn marker, Draw two cards, Play "
              "cards, Attack. 3. Play cards: You may put any number of cards from your hand "
              "into play on your side of the current battlefield card.",
              "rulebook-en, Turn sequence"),
    "cost": ("To play any card from your hand, you must pay the cost of that card. [...] Pay "
             "the cost by discarding that number of other cards from your hand into your "
             "discard pile.", _PLAY_CARDS),
    "card-limit": ("The Colty Gang player has a three card limit. This means he can place a "
                   "maximum of three firepower cards at each battlefield. [...] Note: The "
                   "Colonel McReady player may place row-blocking cards in the playing area of "
                   "the Colty gang player. These cards count toward the three card limit of "
                   "his opponent. He can't place a row-blocking card at a battlefield already "
                   "containing three cards.", _PLAY_CARDS),
    "row-blocking": ("Row-blocking cards: These cards have an orange border and are placed at "
                     "a battlefield in your opponent playing area (maximum of 2 row-blocking "
                     "cards per battlefield).", _PLAY_CARDS),
    "row-limit": ("Sandstorm – [...] Your opponent has a two-card limit at the battlefield. "
                  "When he has already more than two cards, he can't play any further cards "
                  "at the battlefield.", "rulebook-en, FAQ: Sandstorm"),
    "placement": ("Cards are always placed at the current battlefield (unless the text on the "
                  "card states differently).", _PLAY_CARDS),
}
