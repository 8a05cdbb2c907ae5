"""The decks `optimize` considers: every legal deck one replacement away (Module D judges,
against the player's supply), and a few combinations of the good replacements; a card the
engine cannot play is never put in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations as choose

from deckbuilder.catalog import Catalog
from deckbuilder.engine.support import unimplemented_reasons
from deckbuilder.games import dead_card_reasons, get_game
from deckbuilder.legality import Supply, validate_deck
from deckbuilder.models import Deck

#: Single swaps combined, at most.
COMBINED = 3


@dataclass(frozen=True)
class Swap:
    """`count` copies of `out` taken out of the deck, as many of `into` put in."""

    out: str
    into: str
    count: int = 1

    def text(self, catalog: Catalog) -> str:
        copies = f"{self.count}x " if self.count > 1 else ""
        return (f"{copies}{card_name(catalog, self.out)} -> "
                f"{copies}{card_name(catalog, self.into)}")


@dataclass
class Candidate:
    """A deck the search considers, and the games it has played so far."""

    swaps: tuple[Swap, ...]
    cards: dict[str, int]
    label: str
    scores: list[float] = field(default_factory=list)  # per racing unit, in seed order
    confirmed: list[float] = field(default_factory=list)  # per confirmation unit
    dropped_after: int = 0  # racing units played when the evidence dropped it (0: never)
    dropped_by: str = ""  # what told it apart as worse: "the deck" or a candidate's label


def card_name(catalog: Catalog, card_id: str) -> str:
    entry = catalog.find(card_id)
    return entry.record.name if entry is not None else card_id


def resolve_card(catalog: Catalog, card: str, game: str) -> str:
    """A card's id, given its id or its name (an unknown name is kept as it is)."""
    entry = catalog.find(card, game)
    return entry.id if entry is not None else card


def apply_swaps(cards: Mapping[str, int], swaps: Sequence[Swap]) -> dict[str, int] | None:
    """The deck after the swaps, or None when a swap takes out a card no longer there."""
    result = dict(cards)
    for swap in swaps:
        if result.get(swap.out, 0) < swap.count:
            return None
        result[swap.out] -= swap.count
        if result[swap.out] == 0:
            del result[swap.out]
        result[swap.into] = result.get(swap.into, 0) + swap.count
    return result


def _legal(template: Deck, cards: Mapping[str, int], catalog: Catalog,
           sets: Sequence[str] | None, supply: Supply) -> bool:
    deck = Deck(name=template.name, game=template.game, faction=template.faction,
                sets=list(sets) if sets is not None else template.sets, cards=dict(cards))
    return validate_deck(deck, catalog, supply=supply).is_legal


def candidate_cards(template: Deck, catalog: Catalog, sets: Sequence[str] | None,
                    only_in: Sequence[str] = ()) -> list[str]:
    """The cards that may be put in: the faction's deck cards of the allowed sets that the
    engine plays."""
    game_rules = get_game(template.game).rules
    allowed = set(sets) if sets is not None else None
    found = []
    for entry in catalog.cards():
        record = entry.record
        if entry.game != template.game or getattr(record, "faction", None) != template.faction \
                or not getattr(record, "deckable", False):
            continue
        if allowed is not None and entry.set_id not in allowed:
            continue
        if only_in and entry.id not in only_in:
            continue
        if unimplemented_reasons(record, game_rules.steps):
            continue
        found.append(entry.id)
    return sorted(found)


def dead_in_setup(ins: Sequence[str], cards: Mapping[str, int], side: int,
                  opponents: Sequence[Mapping[str, int]], catalog: Catalog, game: str,
                  modules: Sequence[str] = ()) -> dict[str, str]:
    """The cards of `ins` that can do nothing in this set-up against any of `opponents`
    (`engine.dead_cards`: Double the guard without the prison), each with why: a swap that
    brings one in only weakens the deck, so the search leaves it out and says so."""
    wanted = set(ins)
    probe = dict(cards)
    for card in wanted:  # one copy of each: the engine plays any list, legal or not
        probe[card] = probe.get(card, 0) + 1
    found: dict[str, str] | None = None
    for opponent in opponents:
        decks = [probe, opponent] if side == 0 else [opponent, probe]
        dead = {card: why for card, (_name, why) in dead_card_reasons(
            decks, catalog, game, tuple(modules)).items() if card in wanted}
        found = dead if found is None else {card: why for card, why in found.items()
                                            if card in dead}
    return found or {}


def single_swaps(template: Deck, cards: Mapping[str, int], catalog: Catalog, supply: Supply, *,
                 sets: Sequence[str] | None = None,
                 only_out: Sequence[str] = (), only_in: Sequence[str] = ()) -> list[Candidate]:
    """Every legal deck one replacement away (Module D decides, within `supply`), in a stable
    order: one copy of a card for one of another, and all of a card's copies for as many of
    another."""
    ins = candidate_cards(template, catalog, sets, only_in)
    outs = sorted(card for card in cards if not only_out or card in only_out)
    found: list[Candidate] = []
    for out in outs:
        counts = sorted({1, cards[out]})
        for into in ins:
            if into == out:
                continue
            for count in counts:
                swap = Swap(out, into, count)
                after = apply_swaps(cards, [swap])
                if after is not None and _legal(template, after, catalog, sets, supply):
                    found.append(Candidate((swap,), after, f"c{len(found)}"))
    return found


def combinations(best: Sequence[Candidate], template: Deck, cards: Mapping[str, int],
                 catalog: Catalog, sets: Sequence[str] | None, supply: Supply,
                 start: int) -> list[Candidate]:
    """The legal decks two or three of these single swaps make together."""
    singles = [candidate.swaps[0] for candidate in best[:COMBINED]]
    found: list[Candidate] = []
    for size in (2, 3):
        for chosen in choose(singles, size):
            after = apply_swaps(cards, chosen)
            if after is not None and _legal(template, after, catalog, sets, supply):
                found.append(Candidate(tuple(chosen), after, f"c{start + len(found)}"))
    return found


def distinct_outs(candidates: Sequence[Candidate]) -> list[Candidate]:
    """The best single swaps, one per card taken out (two swaps of one card are one idea)."""
    chosen: dict[str, Candidate] = {}
    for candidate in candidates:
        chosen.setdefault(candidate.swaps[0].out, candidate)
    return list(chosen.values())


def sample(candidates: list[Candidate], size: int, seed: int) -> list[Candidate]:
    """A reproducible sample of the candidates, in their own order (the seed decides)."""
    chosen = sorted(random.Random(seed).sample(range(len(candidates)), size))
    return [candidates[index] for index in chosen]
