"""Gauntlets (`simulate DECK --vs A --vs B`) and tournaments (`tournament DECKS...`) read,
checked and reported the one way a face of the tool asks for them.

The decks are read by `app.field` (files, packaged names, factions, folders, weights), the
rules as `simulate` reads them, and every mistake is one line before any game is played;
the games are the library's (`sim.rankings.gauntlet`, `sim.rankings.tournament`), and the
report is their JSON data with the words the tool adds (the game's title, how games ended,
the warnings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckbuilder.app.data_notes import deck_data_notes, result_data
from deckbuilder.app.endings import ending_words
from deckbuilder.app.field import Field, FieldEntry, read_decks, read_field
from deckbuilder.app.play_decks import SimDeck, load_sim_deck
from deckbuilder.app.switches import module_titles, parse_switches, read_modules
from deckbuilder.errors import DeckError
from deckbuilder.games import get_game
from deckbuilder.sim.rankings.gauntlet import run_gauntlet
from deckbuilder.sim.rankings.tournament import run_tournament
from deckbuilder.sim.reports.tournament_report import gauntlet_json, tournament_json
from deckbuilder.sim.runs.batch import Contestant
from deckbuilder.sim.runs.runner import Executor, GameResult, prime_catalog

__all__ = ["GauntletPlan", "TournamentPlan", "plan_gauntlet", "plan_tournament",
           "run_gauntlet_plan", "run_tournament_plan"]

#: Games a tournament may ask for in all: more is a typo (a folder of hundreds of decks).
MOST_TOURNAMENT_GAMES = 100_000_000


@dataclass
class Rules:
    ruleset: str | None
    switches: dict[str, str]
    modules: tuple[str, ...]
    max_turns: int


@dataclass
class GauntletPlan:
    """A deck and its field, read and checked."""

    catalog: Any
    deck: SimDeck
    opponents: Field
    bot: str
    opponent_bot: str
    games: int
    seed: int
    rules: Rules
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.games * len(self.opponents.entries)


def _rules(catalog: Any, game: str, ruleset: str | None, switch_texts: Sequence[str],
           modules: Sequence[str], max_turns: int) -> Rules:
    return Rules(ruleset, parse_switches(list(switch_texts), catalog, game),
                 read_modules(modules, catalog, game), max_turns)


def plan_gauntlet(catalog: Any, deck_text: str, vs_specs: Sequence[str], *, bot: str,
                  opponent_bot: str, games: int, seed: int, ruleset: str | None,
                  switch_texts: Sequence[str], modules: Sequence[str], max_turns: int,
                  allow_illegal: bool = False) -> GauntletPlan:
    """Read the deck and its field (`--vs` specs), and the rules; one line per mistake."""
    prime_catalog(catalog)
    deck = load_sim_deck(deck_text, catalog, allow_illegal)
    sides = get_game(deck.game).side_names
    if deck.faction not in sides:
        raise DeckError(f"'{deck.faction}' is not a side of {deck.game}: nothing to play",
                        fix=f"simulate a deck of {' or '.join(sides)}")
    other = sides[1 - sides.index(deck.faction)]
    opponents = read_field(vs_specs, catalog, game=deck.game, side_against=other,
                           allow_illegal=allow_illegal)
    rules = _rules(catalog, deck.game, ruleset, switch_texts, modules, max_turns)
    return GauntletPlan(catalog, deck, opponents, bot, opponent_bot, games, seed, rules,
                        [*deck.warnings, *opponents.warnings],
                        [*opponents.notes, *deck_data_notes(deck.cards, catalog)])


def run_gauntlet_plan(plan: GauntletPlan, executor: Executor,
                      on_result: Callable[[GameResult], None] | None = None
                      ) -> dict[str, Any]:
    """Play the plan on `executor`; its report (`--json`'s data)."""
    rules = plan.rules
    result = run_gauntlet(
        Contestant(plan.deck.name, plan.deck.cards, plan.bot),
        [Contestant(entry.label, entry.cards, plan.opponent_bot)
         for entry in plan.opponents.entries],
        weights=[entry.weight for entry in plan.opponents.entries], games=plan.games,
        seed=plan.seed, executor=executor, ruleset=rules.ruleset, switches=rules.switches,
        modules=rules.modules, max_turns=rules.max_turns, on_result=on_result)
    report = gauntlet_json(result)
    for row, entry in zip(report["opponents"], plan.opponents.entries, strict=True):
        row["weight"] = entry.weight
        row["source"] = entry.source
    return _worded(report, plan.catalog, plan.warnings, plan.notes)


def _worded(report: dict[str, Any], catalog: Any, warnings: Sequence[str],
            notes: Sequence[str]) -> dict[str, Any]:
    game = get_game(report["game"])
    report["title"] = game.title
    report["module_names"] = module_titles(catalog, report["game"], report["modules"])
    for row in report.get("opponents", []):
        for ending in row["endings"]:
            ending["words"] = ending_words(ending["termination"])
    report["warnings"] = list(warnings)
    report["notes"] = [*report.get("notes", []), *notes]
    return report


@dataclass
class TournamentPlan:
    """The decks of a tournament, read and checked."""

    catalog: Any
    decks: list[FieldEntry]
    bot: str
    games: int
    seed: int
    rules: Rules
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Games in all (a side without decks is played by its base deck)."""
        sides = get_game(self.decks[0].deck.game).side_names
        counts = [max(1, sum(1 for e in self.decks if e.deck.faction == side))
                  for side in sides]
        return self.games * counts[0] * counts[1]


def plan_tournament(catalog: Any, specs: Sequence[str], *, bot: str, games: int, seed: int,
                    ruleset: str | None, switch_texts: Sequence[str], modules: Sequence[str],
                    max_turns: int, allow_illegal: bool = False) -> TournamentPlan:
    """Read the decks (files, packaged names, factions, folders) and the rules; decks of two
    games, or of no side of a game, are one line."""
    prime_catalog(catalog)
    decks, notes = read_decks(specs, catalog, allow_illegal=allow_illegal, option="DECKS")
    game = decks[0].deck.game
    sides = get_game(game).side_names
    for entry in decks:
        if entry.weight != 1.0:
            raise DeckError(f"{entry.source}@{entry.weight:g}: a tournament counts every "
                            "pairing alike; weights are for `simulate --vs`",
                            fix=f"name {entry.source} without @WEIGHT")
        if entry.deck.faction not in sides:
            raise DeckError(f"{entry.source} is a {entry.deck.faction} deck: no side of "
                            f"{game}", fix=f"give decks of {' or '.join(sides)}")
    rules = _rules(catalog, game, ruleset, switch_texts, modules, max_turns)
    plan = TournamentPlan(catalog, decks, bot, games, seed, rules,
                          [w for entry in decks for w in entry.deck.warnings], notes)
    if plan.total > MOST_TOURNAMENT_GAMES:
        raise DeckError(f"{plan.total} games in all: at most {MOST_TOURNAMENT_GAMES}",
                        fix="name fewer decks or play fewer --games per pairing")
    return plan


def run_tournament_plan(plan: TournamentPlan, executor: Executor,
                        on_result: Callable[[GameResult], None] | None = None
                        ) -> dict[str, Any]:
    """Play the plan on `executor`; its report (`--json`'s data)."""
    rules = plan.rules
    result = run_tournament(
        [Contestant(entry.label, entry.cards, plan.bot) for entry in plan.decks],
        games=plan.games, seed=plan.seed, executor=executor, ruleset=rules.ruleset,
        switches=rules.switches, modules=rules.modules, max_turns=rules.max_turns,
        on_result=on_result)
    report = _worded(tournament_json(result), plan.catalog, plan.warnings, plan.notes)
    report.update(result_data(plan.catalog, [entry.cards for entry in plan.decks]))
    return report
