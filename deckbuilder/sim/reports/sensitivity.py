"""What a result rests on: how many of the values in play no document states, which cards'
unconfirmed values matter most, and (opt-in) how far the result moves when they move.

The cards are ranked by unconfirmed values x copies x plays per copy per game (the run's own
figures), or before any game by unconfirmed values x copies, each card of the decks counted
once, as `data status` counts (`data_packs.status`). The sensitivity check (`simulate
--sensitivity`) moves each unconfirmed whole-number value of the first `CHECKED_CARDS` cards
one down and one up within the model's bounds and plays the run's first N seeds for each,
the paired difference saying how much the result rests on it. Other values (category, play,
icons, effects) are not moved: no document bounds what else they could be. A moved value is
played from a copy of the catalog in this process or local processes forked after it is
primed, never on a Dask cluster, whose workers read their own card data.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, cast

from deckbuilder.catalog import Catalog, Entry
from deckbuilder.data_packs.standing import Standing, value_standings
from deckbuilder.data_packs.status import Counts, count_card
from deckbuilder.models.cards import Card, Record
from deckbuilder.sim.runs.batch import Contestant, simulate
from deckbuilder.sim.runs.runner import (
    Executor,
    GameResult,
    engine_catalog,
    make_executor,
    prime_catalog,
)
from deckbuilder.sim.runs.stats import paired_difference

#: Whole-number values the sensitivity check moves (the engine plays each as a number): every
#: bounded one of a card, the games' own among them (models/cards.py), but how many copies.
MOVED_FIELDS = tuple(name for name, info in Card.model_fields.items()
                     if name != "copies" and any(hasattr(rule, "le") for rule in info.metadata))
_MOVED_WORDS = [name.replace("_", " ") for name in MOVED_FIELDS]
#: Cards a report names as mattering most, and cards whose values the check moves.
RANKED_CARDS = 5
CHECKED_CARDS = 5
#: Games per moved value when `--sensitivity` is given without a number.
DEFAULT_GAMES = 200

RANKED_BY_PLAYS = ("unconfirmed values x copies x plays per copy per game (this run's "
                   "per-card figures)")
RANKED_BY_COPIES = "unconfirmed values x copies (as `deckbuilder data status` ranks them)"
MOVE_RULE = (f"each unconfirmed {', '.join(_MOVED_WORDS[:-1])} or {_MOVED_WORDS[-1]} "
             "value of the cards that matter most moved one down and one up within the "
             "model's bounds (cost 0-10, firepower 0-20, the others 0-4); other unconfirmed "
             "values (category, play, icons, effects) are not moved")


# -- the values in play ----------------------------------------------------------------------
class RankedCardJson(TypedDict):
    id: str
    name: str
    unconfirmed: int
    copies: int
    played_per_game: float | None
    weight: float


class RestsOnJson(TypedDict):
    stated: int
    player: int
    unconfirmed: int
    total: int
    decks: int
    cards: int
    cards_with_unconfirmed: int
    ranked_by: str
    matter_most: list[RankedCardJson]
    sensitivity: SensitivityJson | None  # `simulate --sensitivity`


@dataclass(frozen=True)
class RankedCard:
    id: str
    name: str
    unconfirmed: int
    copies: int
    played_per_game: float | None  # all copies; None before any game
    weight: float

    def as_json(self) -> RankedCardJson:
        return cast(RankedCardJson, {**dataclasses.asdict(self), "weight": round(self.weight, 4)})


def merged_cards(decks: Iterable[Mapping[str, int]]) -> dict[str, int]:
    merged: Counter[str] = Counter()
    for deck in decks:
        for card, copies in deck.items():
            merged[card] += int(copies)
    return dict(merged)


def values_in_play(catalog: Catalog, decks: Iterable[Mapping[str, int]],
                   plays: Mapping[str, float] | None = None
                   ) -> tuple[Counts, list[RankedCard]]:
    """The standing of every value of the decks' cards, and every card with unconfirmed
    values, weightiest first: by `plays` (card id -> plays per game) if given, else copies."""
    counts = Counts()
    ranked = []
    for card, copies in merged_cards(decks).items():
        entry = catalog.entries.get(card)
        if entry is None:
            continue
        unknown = count_card(counts, entry)
        if not unknown:
            continue
        played = None if plays is None else float(plays.get(card, 0.0))
        # copies x plays per copy = the plays of all copies
        weight = unknown * (played if played is not None else copies)
        ranked.append(RankedCard(card, entry.name, unknown, copies, played, weight))
    # ties as `data status` breaks them: the more unknowns first, then by name
    ranked.sort(key=lambda row: (-row.weight, -row.unconfirmed * row.copies, -row.unconfirmed,
                                 row.name))
    return counts, ranked


def rests_on(catalog: Catalog, decks: Sequence[Mapping[str, int]],
             plays: Mapping[str, float] | None = None) -> RestsOnJson:
    """A report's `rests_on` field."""
    counts, ranked = values_in_play(catalog, decks, plays)
    return {"stated": counts.stated, "player": counts.player,
            "unconfirmed": counts.unconfirmed, "total": counts.total, "decks": len(decks),
            "cards": len(merged_cards(decks)),
            "cards_with_unconfirmed": len(ranked),
            "ranked_by": RANKED_BY_COPIES if plays is None else RANKED_BY_PLAYS,
            "matter_most": [card.as_json() for card in ranked[:RANKED_CARDS]],
            "sensitivity": None}


def report_plays(report: Mapping[str, Any]) -> dict[str, float]:
    """Card id -> plays per game of all its copies, from a `simulate` report (both seats)."""
    cards = report.get("cards", {})
    plays: dict[str, float] = {}
    for seat in ("deck", "opponent"):
        for row in cards.get(seat, []):
            plays[row["id"]] = plays.get(row["id"], 0.0) + float(row["played_per_game"])
    return plays


def data_in_force(catalog: Catalog) -> dict[str, Any]:
    """The packs and overlay in force by content hash (reports' and records' `data`)."""
    from deckbuilder.data_packs.exchange import data_hash

    return data_hash(catalog)


# -- words ------------------------------------------------------------------------------------
def _values(count: int) -> str:
    return f"{count} value{'' if count == 1 else 's'}"


def _card_words(card: Mapping[str, object]) -> str:
    played = card.get("played_per_game")
    how = (f"{played:.1f} plays a game" if played is not None
           else f"{card['copies']} {'copy' if card['copies'] == 1 else 'copies'}")
    return f"{card['name']} ({card['unconfirmed']} unconfirmed, {how})"


def rests_on_lines(rests: RestsOnJson | None) -> list[str]:
    if not rests:
        return []
    decks = "the deck's" if rests.get("decks", 1) == 1 else "the decks'"
    lines = [f"{rests['unconfirmed']} of the {_values(rests['total'])} of {decks} "
             f"{rests['cards']} cards {'is' if rests['unconfirmed'] == 1 else 'are'} "
             f"unconfirmed (no document states them, no player confirmed them); "
             f"{rests['player']} confirmed by a player, {rests['stated']} stated by a document "
             "(`deckbuilder data status` counts them so)."]
    if rests["matter_most"]:
        lines.append("The cards that matter most (review them first with `deckbuilder data "
                     "review --card NAME`): "
                     + "; ".join(_card_words(card) for card in rests["matter_most"])
                     + f". Ranked by {rests['ranked_by']}.")
    checked = rests.get("sensitivity")
    if checked:
        lines += sensitivity_lines(checked)
    return lines


def sensitivity_lines(checked: SensitivityJson) -> list[str]:
    head = (f"Sensitivity ({checked['games']} games: {checked['games_per_value']} unmoved "
            f"and as many for each of {checked['moves']} moves, on this run's first seeds): ")
    parts = []
    for card in checked["cards"]:
        largest = card["largest"]
        parts.append(f"{card['name']} {largest['field']} {largest['from']}->{largest['to']} "
                     f"moves the deck's win rate by {points_interval(largest['difference'])}")
    if checked.get("not_moved"):
        parts.append(f"{', '.join(checked['not_moved'])}: no whole-number value unconfirmed")
    said = "; ".join(parts) if parts else "no card was checked"
    span = checked["range"]
    rate = range_sentence(f"The deck's win rate {span['unmoved']:.1%} on those games", span,
                          lambda value: f"{value:.1%}")
    return [f"{rate}.", head + said + ". Rule: " + checked["rule"] + "."]


def points_interval(interval: Mapping[str, float]) -> str:
    """A difference of win rates and its interval in points: "+4.0 points [+1.0, +7.0]"."""
    return (f"{100 * interval['estimate']:+.1f} points [{100 * interval['low']:+.1f}, "
            f"{100 * interval['high']:+.1f}]")


# -- the sensitivity check --------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    record_id: str
    field: str
    before: int
    after: int


def bounds(record: Record, field: str) -> tuple[int, int]:
    low, high = 0, 99
    for rule in type(record).model_fields[field].metadata:
        low = getattr(rule, "ge", low)
        high = getattr(rule, "le", high)
    return low, high


def moves_of(entry: Entry) -> list[Move]:
    moves = []
    for row in value_standings(entry):
        if row.field not in MOVED_FIELDS or row.standing is not Standing.UNCONFIRMED:
            continue
        if not isinstance(row.value, int) or isinstance(row.value, bool):
            continue  # a firepower of None: the card shoots no firepower
        low, high = bounds(entry.record, row.field)
        moves += [Move(entry.id, row.field, row.value, row.value + step) for step in (-1, 1)
                  if low <= row.value + step <= high]
    return moves


def moved_catalog(catalog: Catalog, move: Move) -> Catalog:
    """A copy of `catalog` with one value moved: the engine compiles each catalog once."""
    moved = copy.copy(catalog)
    entries = dict(catalog.entries)
    entry = entries[move.record_id]
    record = entry.record.model_copy(update={move.field: move.after})
    entries[move.record_id] = dataclasses.replace(entry, record=record)
    moved.entries = entries
    return moved


#: One move's row of a sensitivity check, and one card's rows with its largest move.
MovedJson = TypedDict("MovedJson", {"field": str, "from": int, "to": int,
                                    "difference": dict[str, float],
                                    "games_with_different_winner": int})


class CardMovesJson(TypedDict):
    id: str
    name: str
    moves: list[MovedJson]
    largest: MovedJson


class SensitivityJson(TypedDict):
    games_per_value: int
    moves: int
    games: int
    checked_cards: list[str]
    deck_win_rate_unmoved: float
    rule: str
    cards: list[CardMovesJson]
    not_moved: list[str]  # checked cards with no whole-number value unconfirmed
    range: RangeJson


@dataclass(frozen=True)
class Setup:
    deck: Contestant
    opponent: Contestant
    side: int
    seed: int
    ruleset: str | None
    game: str
    max_turns: int
    switches: Mapping[str, str]
    modules: Sequence[str]


def deck_wins(setup: Setup, games: int, executor: Executor,
              on_result: Callable[[GameResult], None] | None = None) -> list[float]:
    run = simulate(setup.deck, setup.opponent, side=setup.side, games=games, seed=setup.seed,
                   ruleset=setup.ruleset, game=setup.game, max_turns=setup.max_turns,
                   switches=setup.switches, modules=setup.modules, executor=executor,
                   on_result=on_result, keep_results=True)
    return [1.0 if result.winner == setup.side else 0.0 for result in run.results]


def planned_moves(catalog: Catalog, cards: Sequence[str]) -> list[Move]:
    return [move for card in cards if card in catalog.entries
            for move in moves_of(catalog.entries[card])]


def moved_scores(catalog: Catalog, cards: Sequence[str],
                 measure: Callable[[Executor], list[float]], workers: int = 1
                 ) -> tuple[list[float], dict[str, list[MovedJson]]]:
    """`measure`'s scores unmoved and each move's paired difference, per card. Local
    processes fork after each moved catalog is primed; the catalog in force is put back."""
    before = engine_catalog()
    rows: dict[str, list[MovedJson]] = {}
    try:
        prime_catalog(catalog)
        unmoved = measure(make_executor(workers))
        for move in planned_moves(catalog, cards):
            prime_catalog(moved_catalog(catalog, move))
            moved = measure(make_executor(workers))
            rows.setdefault(move.record_id, []).append({
                "field": move.field, "from": move.before, "to": move.after,
                "difference": paired_difference(moved, unmoved).as_dict(),
                "games_with_different_winner": sum(a != b for a, b in
                                                   zip(moved, unmoved, strict=True))})
    finally:
        prime_catalog(before)
    return unmoved, rows


def check_sensitivity(catalog: Catalog, setup: Setup, cards: Sequence[str], games: int,
                      workers: int = 1,
                      on_result: Callable[[GameResult], None] | None = None
                      ) -> SensitivityJson:
    """The deck's win rate unmoved and moved, the cards ordered by their largest move."""
    if games < 1:
        raise ValueError("games must be at least 1")
    unmoved, rows = moved_scores(
        catalog, cards, lambda executor: deck_wins(setup, games, executor, on_result), workers)
    moves = sum(len(moved) for moved in rows.values())
    cards_json: list[CardMovesJson] = []
    for card, moved_rows in rows.items():
        largest = max(moved_rows, key=lambda row: abs(row["difference"]["estimate"]))
        cards_json.append({"id": card, "name": catalog.entries[card].name,
                           "moves": moved_rows, "largest": largest})
    cards_json.sort(key=lambda row: (-abs(row["largest"]["difference"]["estimate"]),
                                     row["name"]))
    win_rate = sum(unmoved) / games
    return {"games_per_value": games, "moves": moves,
            "games": games * (moves + 1), "checked_cards": list(cards),
            "deck_win_rate_unmoved": win_rate, "rule": MOVE_RULE,
            "cards": cards_json,
            "not_moved": [catalog.entries[card].name for card in cards
                          if card in catalog.entries and card not in rows],
            "range": value_range(catalog, win_rate, rows, 0.5)}


# -- the range of a result over the unconfirmed values ----------------------------------------
class RangeJson(TypedDict):
    """A result unmoved and its range over the moved values around `centre`."""

    unmoved: float
    low: float
    high: float
    centre: float
    values: list[str]  # "Card's cost and firepower": the values moved, by card
    verdict_rests_on_them: bool


class SwapRestsOnJson(RangeJson):
    """What an optimiser's best swap's gain rests on (its report's `gain_rests_on`)."""

    units: int  # confirmation units replayed per moved value
    games: int
    sentence: str


def value_range(catalog: Catalog, unmoved: float, rows: Mapping[str, list[MovedJson]],
                centre: float) -> RangeJson:
    moved = [unmoved + row["difference"]["estimate"] for card_rows in rows.values()
             for row in card_rows]
    low, high = min([unmoved, *moved]), max([unmoved, *moved])
    values = [f"{catalog.entries[card].name}'s " + " and ".join(
        dict.fromkeys(row["field"].replace("_", " ") for row in card_rows))
        for card, card_rows in rows.items()]
    return {"unmoved": unmoved, "low": low, "high": high, "centre": centre, "values": values,
            "verdict_rests_on_them": (low - centre) * (high - centre) < 0}


def range_sentence(result: str, span: RangeJson, shown: Callable[[float], str]) -> str:
    """"+34.0 points, resting on X's unconfirmed cost: +12.0 to +38.0 over ..."."""
    values = span["values"]
    if not values:
        return f"{result}, resting on no unconfirmed whole-number value of those cards"
    named = (values[0] if len(values) == 1
             else ", ".join(values[:-1]) + " and " + values[-1])
    its = "its" if len(values) == 1 else "their"
    verdict = ("; the verdict rests on " + ("it" if len(values) == 1 else "them")
               if span["verdict_rests_on_them"] else "")
    return (f"{result}, resting on {named} (unconfirmed): {shown(span['low'])} to "
            f"{shown(span['high'])} over {its} plausible values (each one down and one up)"
            f"{verdict}")
