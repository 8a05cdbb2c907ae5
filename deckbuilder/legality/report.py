"""What a legality check returns: typed violations, the replacement pairs, and the verdict."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from deckbuilder.models.common import SHARED_FACTIONS, Game


class Code:
    """The stable violation codes (the `code` of every `Violation`)."""

    DECK_SIZE = "deck-size"
    UNKNOWN_CARD = "unknown-card"
    WRONG_FACTION = "wrong-faction"
    NOT_DECKABLE = "not-deckable"
    BASE_COPIES_EXCEEDED = "base-copies-exceeded"
    GUNSLINGER_REPLACED = "gunslinger-replaced"
    LIKE_FOR_LIKE = "like-for-like"
    UNIQUE_COPIES = "unique-copies"
    SET_UNAVAILABLE = "set-unavailable"
    SET_REQUIRES = "set-requires"
    NOT_OWNED = "not-owned"
    NOT_IN_SUPPLY = "not-in-supply"


#: The rule each code enforces, quoted in short from Module D of the Tarnished Star (1.4).
RULE_TEXT: dict[str, str] = {
    Code.DECK_SIZE: "rule A: each deck consists of 62 cards",
    Code.UNKNOWN_CARD: "rule A: cards come from the base game, expansions and promos",
    Code.WRONG_FACTION: "rule A: start from your faction's base deck and use that faction's cards",
    Code.NOT_DECKABLE: (
        "rule A: only deck cards (not characters, battlefields, "
        + "".join(f"{side.title}-deck cards, " for side in SHARED_FACTIONS.values())
        + "tokens; the Garrotte is never shuffled into a deck)"
    ),
    Code.BASE_COPIES_EXCEEDED: (
        "rule A: the replacement cards come from expansions or promos, "
        "so a base card can't appear more often than in its base deck"
    ),
    Code.GUNSLINGER_REPLACED: "rule B: unique gunslinger cards may not be replaced",
    Code.LIKE_FOR_LIKE: (
        "rule C: action for action, character for character, firepower for firepower; "
        "rule D: locations and open-range cards replace any card but a unique gunslinger"
    ),
    Code.UNIQUE_COPIES: "rule E: no more than one copy of each unique card",
    Code.SET_UNAVAILABLE: (
        "rule A: replacements come from the expansions and promos you use "
        "(installed, and listed in the deck's sets)"
    ),
    Code.SET_REQUIRES: "rule A, with each expansion's requirements (1.4 needs 1.1, 1.2 and 1.3)",
    Code.NOT_OWNED: "rule A, with the cards you own (--collection)",
    Code.NOT_IN_SUPPLY: (
        "rule A: replacements come \"from this (or another) expansion and/or promo cards\", "
        "so no more copies than the boxes hold (one of each product unless --boxes N; "
        "rule switch card-copies)"
    ),
}

MODULE_D = "Module D"
MODULE_D_BY_ANALOGY = "Module D (applied to Revolver 2 by analogy)"


def rule_reference(code: str, game: str) -> str:
    """The `rule` text of a violation: Module D, by analogy for Revolver 2 decks."""
    module = MODULE_D_BY_ANALOGY if game == Game.REVOLVER2 else MODULE_D
    return f"{module}, {RULE_TEXT[code]}"


@dataclass(frozen=True)
class Violation:
    """One broken rule: what, which rule, which cards, where in the file, and how to fix it."""

    code: str
    rule: str
    message: str
    cards: tuple[str, ...] = ()
    line: int | None = None
    fix: str = ""

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "cards": list(self.cards)}


@dataclass(frozen=True)
class Replacement:
    """One copy of a base card taken out and the card that took its place."""

    out: str  # card id
    into: str  # card id ("in" is a keyword)
    out_name: str
    in_name: str
    wildcard: bool  # paired by rule D (location / open-range) rather than rule C

    def to_json(self) -> dict[str, str]:
        return {"out": self.out, "in": self.into}


@dataclass(frozen=True)
class ReplacementPair:
    """The copies of one replacement counted, worded once for every face (`validate`, its
    `--json`, the web editor, the deck sheet): `2x Deputy -> Texas Ranger (rule C: ...)`."""

    count: int
    replacement: Replacement

    @property
    def rule(self) -> str:
        return ("rule D: location/open-range" if self.replacement.wildcard
                else "rule C: same category")

    def to_json(self) -> dict[str, Any]:
        pair = self.replacement
        return {"count": self.count, "out": pair.out, "in": pair.into,
                "out_name": pair.out_name, "in_name": pair.in_name, "rule": self.rule}


@dataclass(frozen=True)
class LegalityReport:
    """Every problem with a deck at once (like python-chess's `Board.status()`).

    >>> LegalityReport(name="empty", game="revolver", faction="colty").is_legal
    True
    """

    name: str
    game: str
    faction: str
    path: Path | None = None
    card_count: int = 0
    violations: tuple[Violation, ...] = ()
    replacements: tuple[Replacement, ...] = field(default_factory=tuple)
    #: what the deck was judged against (`supply.Supply.sentence`), said with every verdict
    supply: str = ""

    @property
    def is_legal(self) -> bool:
        return not self.violations

    def codes(self) -> set[str]:
        return {violation.code for violation in self.violations}

    @property
    def pairs(self) -> tuple[ReplacementPair, ...]:
        """The replacements counted, in the order first met."""
        return tuple(ReplacementPair(count, pair)
                     for pair, count in Counter(self.replacements).items())

    def to_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path) if self.path is not None else None,
            "legal": self.is_legal,
            "supply": self.supply,
            "violations": [violation.to_json() for violation in self.violations],
            "replacements": [replacement.to_json() for replacement in self.replacements],
            "pairs": [pair.to_json() for pair in self.pairs],
        }
