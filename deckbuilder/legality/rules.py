"""The rules, one small function each: `DeckFacts -> list[Violation]`. Every one always runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from deckbuilder import paths
from deckbuilder.card_face.words import plural
from deckbuilder.catalog import Entry
from deckbuilder.decks import DECK_SIZE
from deckbuilder.legality.facts import DeckFacts
from deckbuilder.legality.pairing import an, listed, replacement_balance
from deckbuilder.legality.report import Code, Violation
from deckbuilder.legality.supply import ANY_NUMBER, COPIES_SWITCH, boxes_needed, boxes_text
from deckbuilder.models.common import SHARED_FACTIONS

Rule = Callable[[DeckFacts], list[Violation]]


def _copies(count: int) -> str:
    return plural(count, "copy", "copies")


def _is_unique(facts: DeckFacts, card: str) -> bool:
    return bool(getattr(facts.entry(card).record, "unique", False))


def check_deck_size(facts: DeckFacts) -> list[Violation]:
    """Rule A: 62 cards, counting every entry (known or not). When the size alone explains
    an unpaired card, this violation names it and rule C stays silent: one mistake, one
    violation."""
    total = facts.deck.total()
    if total == DECK_SIZE:
        return []
    difference = total - DECK_SIZE
    balance = replacement_balance(facts)
    message = f"the deck has {plural(total, 'card')}, not {DECK_SIZE}"
    cards: tuple[str, ...] = ()
    if difference > 0 and balance.explained_by_size(difference):
        groups = balance.unpaired_groups()
        message += "; " + "; ".join(group.describe(facts) for group in groups)
        cards = tuple(card for group in groups for card in group.added)
        fix = (f"take {plural(difference, 'card')} out (one of the cards put in, or a base card "
               "of the same category)")
    elif difference > 0:
        fix = f"take {plural(difference, 'card')} out"
    else:
        if balance.leftover:
            message += "; taken out without a replacement: " + listed(facts, balance.leftover)
            cards = tuple(balance.leftover)
        fix = f"add {plural(-difference, 'card')} (put base cards back or add replacements)"
    return [facts.violation(Code.DECK_SIZE, message, cards, facts.deck.cards_line(), fix)]


def check_unknown_cards(facts: DeckFacts) -> list[Violation]:
    """Rule A: every entry names a card of the catalog (suggest the closest names); a card
    of a set since removed says so, and is offered no look-alike."""
    violations = []
    for entry in facts.deck.unknown():
        removed = facts.catalog.removed_set_of(entry.key)
        if removed is not None:
            set_id, set_name = removed
            violations.append(facts.violation(
                Code.UNKNOWN_CARD,
                f"'{entry.key}' is a card of the set {set_id} ({set_name}), which is not "
                "installed any more", (entry.key,), entry.line,
                f"install the set again (`deckbuilder sets import FILE`), or take "
                f"{entry.key} out"))
            continue
        hint = facts.catalog.suggest(entry.key, kind="card")
        folder = facts.catalog.sets_folder
        if folder is not None:  # a repository's deck: its sets are those committed there
            violations.append(_not_in_the_sets_folder(facts, entry.key, entry.line, folder,
                                                      hint))
            continue
        closest = f" (closest: {', '.join(hint)})" if hint else ""
        violations.append(facts.violation(
            Code.UNKNOWN_CARD, f"no card is named '{entry.key}'{closest}",
            (entry.key,), entry.line,
            f"did you mean {' or '.join(hint)}?" if hint
            else "check the name with `deckbuilder cards`, or install the set it comes from",
        ))
    return violations


def _not_in_the_sets_folder(facts: DeckFacts, key: str, line: int | None, folder: Path,
                            hint: list[str]) -> Violation:
    """An unknown card of a repository with a sets folder: a set installed on one machine
    only is not read on a clone, so the question is whether its file is committed there."""
    shown = paths.shown_folder(folder)
    closest = f" (closest: {', '.join(hint)})" if hint else ""
    guess = f"did you mean {' or '.join(hint)}? If not, " if hint else ""
    return facts.violation(
        Code.UNKNOWN_CARD,
        f"no card is named '{key}'{closest}: not in the packaged sets nor in the "
        f"repository's sets folder {shown}: is the set committed there?", (key,), line,
        f"{guess}copy the set's file into {shown} and commit it, or correct the name "
        "(`deckbuilder cards` lists them)")


def _take_out(facts: DeckFacts, code: str, cards: list[str],
              why: Callable[[Entry], str]) -> list[Violation]:
    """One violation a card of `cards` that may not stand in the deck at all: `why` says why."""
    return [facts.of_card(code, card, why(facts.entry(card)), f"take {facts.entry(card).name} out")
            for card in cards]


def check_factions(facts: DeckFacts) -> list[Violation]:
    """Rule A: the cards are the faction's (and the game's) own."""
    def why(entry: Entry) -> str:
        if entry.game != facts.deck.game:
            return f"{entry.name} is a {entry.game} card; this is a {facts.deck.game} deck"
        return f"{entry.name} belongs to the {entry.record.faction} deck, not {facts.deck.faction}"

    others = [card for card in facts.counts if facts.is_other_side(card)]
    return _take_out(facts, Code.WRONG_FACTION, others, why)


def check_deckable(facts: DeckFacts) -> list[Violation]:
    """Rule A: characters, battlefields, Frontier cards, tokens and the Garrotte stay out."""
    def why(entry: Entry) -> str:
        if entry.kind != "card":
            return f"{entry.name} is a {entry.kind}, not a deck card"
        if shared := SHARED_FACTIONS.get(entry.record.faction):
            return f"{entry.name} is a {shared.title}-deck card"
        return f"{entry.name} never goes into a player's deck"

    outsiders = [card for card in facts.counts if not facts.is_deck_card(card)]
    return _take_out(facts, Code.NOT_DECKABLE, outsiders, why)


def check_base_copies(facts: DeckFacts) -> list[Violation]:
    """Rule A: more copies of a base card than the base deck has can't come from anywhere."""
    return [facts.of_card(Code.BASE_COPIES_EXCEEDED, card, f"{_copies(facts.counts[card])} of "
                          f"{facts.name(card)}; the base deck has {base_count}",
                          f"keep at most {base_count}; extra cards must be expansion or promo "
                          "cards")
            for card, base_count in facts.base.items() if facts.counts.get(card, 0) > base_count]


def check_gunslingers(facts: DeckFacts) -> list[Violation]:
    """Rule B: a unique gunslinger of the base deck stays in."""
    return [facts.of_card(Code.GUNSLINGER_REPLACED, card, f"{facts.name(card)} is a unique "
                          "gunslinger and may not be replaced",
                          f"put {facts.name(card)} back ({card}: {facts.base[card]})")
            for card in facts.removed if facts.entry(card).record.gunslinger]


def check_like_for_like(facts: DeckFacts) -> list[Violation]:
    """Rules C and D: every added card pairs with a removed card it may replace. One
    violation per category, naming all its cards put in and taken out (the pairing can't tell
    which the player meant to go unpaired)."""
    balance = replacement_balance(facts)
    if not balance.unpaired or balance.explained_by_size(facts.deck.total() - DECK_SIZE):
        return []
    gunslingers = [facts.name(c) for c in facts.removed if facts.entry(c).record.gunslinger]
    violations = []
    for group in balance.unpaired_groups():
        message = group.describe(facts)
        if balance.leftover:
            message += ("; taken out without a replacement: "
                        + listed(facts, balance.leftover, with_category=True))
        if gunslingers:
            message += f" ({' and '.join(gunslingers)} went out, but rule B keeps gunslingers)"
        names = " or ".join(facts.name(card) for card in group.added)
        if group.category is None:
            fix = f"take a base card out for it, or take {names} out"
        elif balance.leftover:
            back = " and ".join(facts.name(card) for card in balance.leftover)
            fix = (f"put {back} back and take {an(str(group.category))} card of the base deck "
                   f"out instead, or take {names} out")
        else:
            fix = f"take {an(str(group.category))} card of the base deck out for it, " \
                  f"or take {names} out"
        first = next(card for card in group.added if card in balance.unpaired)
        violations.append(facts.violation(
            Code.LIKE_FOR_LIKE, message, (*group.added, *balance.leftover),
            facts.line(first), fix,
        ))
    return violations


def check_unique_copies(facts: DeckFacts) -> list[Violation]:
    """Rule E: one copy of each unique card."""
    return [facts.of_card(Code.UNIQUE_COPIES, card, f"{_copies(count)} of {facts.name(card)}, "
                          "a unique card", f"keep one copy ({card}: 1)")
            for card, count in facts.counts.items() if _is_unique(facts, card) and count > 1]


def _declared_sets(facts: DeckFacts) -> set[str] | None:
    """The deck's `sets:`, with its game's base set (the base deck is always the start)."""
    if facts.deck.deck.sets is None:
        return None
    base = facts.catalog.base_set_id(facts.deck.game)
    return set(facts.deck.deck.sets) | ({base} if base else set())


def check_sets_available(facts: DeckFacts) -> list[Violation]:
    """Cards come from installed sets the deck declares (when it declares any)."""
    declared = _declared_sets(facts)
    if declared is None:
        return []
    violations = [
        facts.violation(
            Code.SET_UNAVAILABLE, f"the deck declares set '{set_id}', which is not installed",
            (), facts.deck.set_line(set_id),
            "install it (`deckbuilder sets install`) or take it out of sets:",
        )
        for set_id in facts.deck.deck.sets or [] if set_id not in facts.catalog.sets
    ]
    for card in facts.counts:
        set_id = facts.entry(card).set_id
        if set_id not in declared:
            violations.append(facts.of_card(
                Code.SET_UNAVAILABLE, card,
                f"{facts.name(card)} comes from set '{set_id}', which the deck's sets: omit",
                f"add {set_id} to sets:, or take the card out"))
    return violations


def check_set_requirements(facts: DeckFacts) -> list[Violation]:
    """A set is usable only with the sets it requires (1.4 needs 1.1 to 1.3)."""
    declared = _declared_sets(facts)
    used: dict[str, list[str]] = {}
    for card in facts.counts:
        used.setdefault(facts.entry(card).set_id, []).append(card)
    in_use = list(used) + [s for s in facts.deck.deck.sets or [] if s not in used]
    violations = []
    for set_id in in_use:
        loaded = facts.catalog.sets.get(set_id)
        if loaded is None:
            continue  # check_sets_available reports it
        missing = [
            required for required in loaded.card_set.requires
            if required not in facts.catalog.sets
            or (declared is not None and required not in declared)
        ]
        if not missing:
            continue
        cards = tuple(used.get(set_id, ()))
        line = facts.deck.set_line(set_id) or (facts.line(cards[0]) if cards else None)
        how = ", ".join(
            f"{required} ({'not in sets:' if required in facts.catalog.sets else 'not installed'})"
            for required in missing
        )
        violations.append(facts.violation(
            Code.SET_REQUIRES, f"set '{set_id}' requires {how}", cards, line,
            f"install and declare {', '.join(missing)}, or take the {set_id} cards out",
        ))
    return violations


def check_supply(facts: DeckFacts) -> list[Violation]:
    """Rule A: no more copies than the supply holds (a collection, or N boxes of each
    product, one by default); nothing under the `card-copies=any-number` reading."""
    supply = facts.supply
    violations = []
    for card, count in facts.counts.items():
        have = supply.limit(card)
        if have is None or count <= have:
            continue
        name = facts.name(card)
        if supply.is_collection:
            violations.append(facts.of_card(
                Code.NOT_OWNED, card, f"{_copies(count)} of {name}, but the collection has {have}",
                f"use at most {have}, or add what you own to the collection file"))
        elif facts.may_replace(card) and not _is_unique(facts, card):
            # a base card's excess is rule A's (base-copies-exceeded), a unique card's rule E's
            violations.append(_beyond_boxes(facts, card, count, have))
    return violations


def _beyond_boxes(facts: DeckFacts, card: str, count: int, have: int) -> Violation:
    """`10 copies of X; one box of The Tarnished Star holds 1: needs 10 boxes of ...`."""
    entry = facts.entry(card)
    full_name = facts.catalog.sets[entry.set_id].card_set.name
    product = full_name.partition(": ")[2] or full_name  # The Tarnished Star, as players say
    per_box = entry.record.copies
    boxes = facts.supply.boxes or 1
    held = f"{boxes_text(boxes)} of {product} {'holds' if boxes == 1 else 'hold'} {have}"
    if per_box == 0:
        return facts.of_card(
            Code.NOT_IN_SUPPLY, card, f"{_copies(count)} of {entry.name}; {held}",
            f"take {entry.name} out, or judge the deck against --collection FILE")
    needed = boxes_text(boxes_needed(count, per_box))
    return facts.of_card(
        Code.NOT_IN_SUPPLY, card,
        f"{_copies(count)} of {entry.name}; {held}: needs {needed} of {product}",
        f"keep at most {have}, or judge the deck against what you own: "
        f"--boxes {boxes_needed(count, per_box)} or --collection FILE (or any number: "
        f"--switch {COPIES_SWITCH}={ANY_NUMBER})")


#: Every rule, in the order its violations are reported.
RULES: tuple[Rule, ...] = (
    check_deck_size,
    check_unknown_cards,
    check_factions,
    check_deckable,
    check_base_copies,
    check_gunslingers,
    check_like_for_like,
    check_unique_copies,
    check_sets_available,
    check_set_requirements,
    check_supply,
)
