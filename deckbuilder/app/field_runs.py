"""Gauntlets and tournaments read, checked, played and answered one way for every face:
each mistake is one line before any game, and the typed result carries the `--json` report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from deckbuilder.app.data_notes import deck_data_notes, result_data
from deckbuilder.app.endings import ending_words
from deckbuilder.app.field import Field, FieldEntry, read_decks, read_field
from deckbuilder.app.play_decks import SimDeck, an, load_sim_deck, side_of_deck
from deckbuilder.app.results import (
    GauntletResult,
    Matchup,
    Remarks,
    Settings,
    TournamentResult,
    card_figures,
    frozen_mapping,
)
from deckbuilder.app.running import PlayOptions, SettingError
from deckbuilder.app.switches import module_titles
from deckbuilder.catalog import Catalog
from deckbuilder.decks import DeckSource
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


@dataclass(frozen=True)
class GauntletPlan(Remarks):
    """A deck and its field, read and checked, and the settings to play them with."""

    catalog: Catalog
    deck: SimDeck
    opponents: Field
    settings: Settings

    @property
    def total(self) -> int:
        return self.settings.games * len(self.opponents.entries)


def plan_gauntlet(catalog: Catalog, deck: DeckSource, field: Sequence[DeckSource] | None,
                  options: PlayOptions, *, weights: Sequence[float] | None = None,
                  option: str = "--vs") -> GauntletPlan:
    """`field` None: the other side's base deck; `option` names the field in messages."""
    prime_catalog(catalog)
    supply = options.supply(catalog)
    played = load_sim_deck(deck, catalog, options.allow_illegal, supply=supply)
    side, sides = side_of_deck(played)
    opponents = read_field([sides[1 - side]] if field is None else field, catalog,
                           game=played.game, side_against=sides[1 - side],
                           allow_illegal=options.allow_illegal, option=option,
                           weights=weights, supply=supply)
    return GauntletPlan(catalog, played, opponents, options.settings(catalog, played.game),
                        warnings=(*played.warnings, *opponents.warnings),
                        notes=(*opponents.notes, *deck_data_notes(played.cards, catalog),
                               f"decks {supply.sentence}"))


def run_gauntlet_plan(plan: GauntletPlan, executor: Executor,
                      on_result: Callable[[GameResult], None] | None = None
                      ) -> GauntletResult:
    played, entries, wanted = plan.deck, plan.opponents.entries, plan.settings
    result = run_gauntlet(
        Contestant(played.name, played.cards, wanted.bot),
        [Contestant(entry.label, entry.cards, wanted.opponent_bot) for entry in entries],
        weights=[entry.weight for entry in entries], games=wanted.games, seed=wanted.seed,
        executor=executor, ruleset=wanted.ruleset, switches=dict(wanted.switches),
        modules=wanted.modules, max_turns=wanted.max_turns, on_result=on_result)
    report = gauntlet_json(result)
    for row, entry in zip(report["opponents"], entries, strict=True):
        row["weight"] = entry.weight
        row["source"] = entry.source
    _worded(report, plan, [played.cards, *(entry.cards for entry in entries)])
    matchups = tuple(
        Matchup(row.opponent, entry.source, entry.weight, row.weight,
                frozen_mapping(dict(row.endings)), card_figures(row.cards), games=row.games,
                wins=row.wins, draws=row.draws, losses=row.losses, win_rate=row.win_rate,
                mean_turns=row.mean_turns)
        for row, entry in zip(result.matchups, entries, strict=True))
    return GauntletResult(
        played.name, result.side, result.opponent_side, result.field_win_rate,
        result.field_method, matchups, wanted, result.reproducible, warnings=plan.warnings,
        notes=tuple(report["notes"]), report=frozen_mapping(report))


def _worded(report: dict[str, Any], plan: GauntletPlan | TournamentPlan,
            decks: list[dict[str, int]]) -> None:
    """The fields the tool adds to a field's report (`ToolAdded`)."""
    report["title"] = get_game(report["game"]).title
    report["module_names"] = module_titles(plan.catalog, report["game"], report["modules"])
    for row in report.get("opponents", []):
        for ending in row["endings"]:
            ending["words"] = ending_words(ending["termination"])
    report["warnings"] = list(plan.warnings)
    report["notes"] = [*report.get("notes", []), *plan.notes]
    report["supply"] = plan.settings.supply
    report.update(result_data(plan.catalog, decks))


@dataclass(frozen=True)
class TournamentPlan(Remarks):
    """The decks of a tournament, read and checked, and the settings to play them with."""

    catalog: Catalog
    decks: list[FieldEntry]
    settings: Settings

    @property
    def total(self) -> int:
        """Games in all (a side without decks is played by its base deck)."""
        sides = get_game(self.decks[0].deck.game).side_names
        counts = [max(1, sum(1 for e in self.decks if e.deck.faction == side))
                  for side in sides]
        return self.settings.games * counts[0] * counts[1]


def plan_tournament(catalog: Catalog, specs: Sequence[DeckSource], options: PlayOptions,
                    option: str = "DECKS") -> TournamentPlan:
    """Decks of two games, or of no side of a game, are one line."""
    prime_catalog(catalog)
    supply = options.supply(catalog)
    decks, notes = read_decks(specs, catalog, allow_illegal=options.allow_illegal,
                              option=option, supply=supply)
    game = decks[0].deck.game
    sides = get_game(game).side_names
    for entry in decks:
        if entry.weight != 1.0:
            raise DeckError(f"{entry.source}@{entry.weight:g}: a tournament counts every "
                            "pairing alike; weights are for a gauntlet (`simulate --vs`)",
                            fix=f"name {entry.source} without @WEIGHT")
        if entry.deck.faction not in sides:
            raise DeckError(f"{entry.source} is {an(entry.deck.faction)} deck: no side of "
                            f"{game}", fix=f"give decks of {' or '.join(sides)}")
    plan = TournamentPlan(catalog, decks, options.settings(catalog, game),
                          warnings=tuple(w for entry in decks for w in entry.deck.warnings),
                          notes=(*notes, f"decks {supply.sentence}"))
    if plan.total > MOST_TOURNAMENT_GAMES:
        raise SettingError(f"{plan.total} games in all: at most {MOST_TOURNAMENT_GAMES}",
                           fix="name fewer decks or play fewer games per pairing")
    return plan


def run_tournament_plan(plan: TournamentPlan, executor: Executor,
                        on_result: Callable[[GameResult], None] | None = None
                        ) -> TournamentResult:
    wanted = plan.settings
    result = run_tournament(
        [Contestant(entry.label, entry.cards, wanted.bot) for entry in plan.decks],
        games=wanted.games, seed=wanted.seed, executor=executor, ruleset=wanted.ruleset,
        switches=dict(wanted.switches), modules=wanted.modules, max_turns=wanted.max_turns,
        on_result=on_result)
    report = tournament_json(result)
    _worded(report, plan, [entry.cards for entry in plan.decks])
    return TournamentResult(
        wanted.game, result.sides, result.standings, result.pairings, result.rating_method,
        result.win_rate_method, wanted, result.reproducible,
        frozen_mapping({row.deck: card_figures(row.cards) for row in result.standings}),
        frozen_mapping(report), warnings=plan.warnings, notes=(*plan.notes, *result.notes))
