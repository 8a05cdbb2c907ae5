"""`deckbuilder.gauntlet` and `deckbuilder.tournament`: a deck against a field, and every deck
of one side against every deck of the other, as typed results.

Names, paths and folders are read as `simulate --vs` and `tournament` read them
(`app.field`); deck objects are checked as `simulate` checks a deck. The games are the
library's (`sim.rankings.gauntlet`, `sim.rankings.tournament`), so the numbers are the
command line's for the same seed.

    >>> result = tournament(["colty", "mcready"], games=2, seed=1, bot="random")
    >>> len(result.standings), result.pairings[0].games
    (2, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from deckbuilder.api.decks import DeckSource, read_deck, read_side_deck, side_of_deck, spec_text
from deckbuilder.api.results import (
    GauntletResult,
    Matchup,
    TournamentResult,
    card_figures,
    frozen_mapping,
)
from deckbuilder.api.running import (
    SettingError,
    check_count,
    games_on,
    read_rules,
    settings,
    use_catalog,
)
from deckbuilder.app.field import FieldEntry, read_decks, read_field
from deckbuilder.app.field_runs import MOST_TOURNAMENT_GAMES
from deckbuilder.app.play_decks import an
from deckbuilder.catalog import Catalog
from deckbuilder.errors import DeckError
from deckbuilder.games import get_game
from deckbuilder.sim.rankings.gauntlet import run_gauntlet
from deckbuilder.sim.rankings.tournament import run_tournament
from deckbuilder.sim.runs.batch import Contestant
from deckbuilder.sim.runs.runner import Executor, GameResult

__all__ = ["field_entries", "gauntlet", "listed", "tournament"]


def listed(decks: DeckSource | Sequence[DeckSource], what: str) -> list[DeckSource]:
    """One deck (or folder) given bare, or several, as a list."""
    if isinstance(decks, Sequence) and not isinstance(decks, str):
        return list(decks)
    spec_text(decks, what)  # a value that is no deck is refused here, by name
    return [decks]


def _unique(entries: list[FieldEntry]) -> list[FieldEntry]:
    """Labels told apart: results are keyed by them ("Deck", "Deck (its source)")."""
    counts = Counter(entry.label for entry in entries)
    seen: Counter[str] = Counter()
    unique = []
    for entry in entries:
        label = entry.label
        if counts[label] > 1:
            seen[label] += 1
            suffix = entry.source if entry.source and entry.source != label else f"#{seen[label]}"
            label = f"{label} ({suffix})"
        unique.append(replace(entry, label=label))
    return unique


def field_entries(items: list[DeckSource], weights: Sequence[float] | None,
                  catalog: Catalog, game: str, side_against: str, *, allow_illegal: bool
                  ) -> tuple[list[FieldEntry], list[str]]:
    """The opponents with their weights (a folder's weight goes to each of its decks)."""
    if weights is not None and len(weights) != len(items):
        raise SettingError(f"{len(weights)} weights for {len(items)} opponents",
                           fix="give one weight per opponent (or none: all alike)")
    for weight in weights or ():
        if isinstance(weight, bool) or not isinstance(weight, int | float) \
                or not 0 < weight < float("inf"):
            raise SettingError(f"a weight must be a positive number, not {weight!r}",
                               fix="give weights such as 1, 2 or 0.5")
    texts = [spec_text(item, "field entry") for item in items]
    if weights is None and all(text is not None for text in texts):  # as `simulate --vs`
        found = read_field([text for text in texts if text is not None], catalog, game=game,
                           side_against=side_against, allow_illegal=allow_illegal,
                           option="field")
        return list(found.entries), [*found.notes]
    entries: list[FieldEntry] = []
    notes: list[str] = []
    for item, text, weight in zip(items, texts, weights or [1.0] * len(items), strict=True):
        if text is not None:
            read = read_field([text], catalog, game=game, side_against=side_against,
                              allow_illegal=allow_illegal, option="field")
            entries += [replace(entry, weight=entry.weight * weight) for entry in read.entries]
            notes += read.notes
        else:
            deck = read_side_deck(item, side_against, game, catalog,
                                  allow_illegal=allow_illegal, what="field")
            entries.append(FieldEntry(deck.name, deck, float(weight), deck.name))
    return _unique(entries), notes


def gauntlet(
    deck: DeckSource,
    field: DeckSource | Sequence[DeckSource],
    *,
    weights: Sequence[float] | None = None,
    games: int = 1000,
    seed: int = 1,
    bot: str = "greedy",
    opponent_bot: str | None = None,
    ruleset: str | None = None,
    switches: Mapping[str, str] | None = None,
    modules: Sequence[str] = (),
    max_turns: int = 200,
    workers: int = 1,
    executor: Executor | None = None,
    allow_illegal: bool = False,
    catalog: Catalog | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> GauntletResult:
    """Play `deck` against each opponent of `field`, `games` games each on the same seeds,
    and weigh the results into the field's win rate (`weights`: one per entry of `field`,
    default all alike; a folder's weight goes to each of its decks).

    `field`: decks given as `simulate`'s `against` (loaded, models, paths, names, factions),
    folders of deck files (the other side's decks in them are left out with a note), or one
    of these alone. Other settings as `simulate`.
    """
    check_count("games", games, 1)
    check_count("seed", seed, 0)
    found = use_catalog(catalog)
    played = read_deck(deck, found, allow_illegal=allow_illegal)
    side, sides = side_of_deck(played)
    entries, notes = field_entries(listed(field, "field"), weights, found, played.game,
                                   sides[1 - side], allow_illegal=allow_illegal)
    rules = read_rules(found, played.game, ruleset, switches, modules, max_turns)
    against = opponent_bot or bot
    with games_on(workers, executor) as runner:
        result = run_gauntlet(
            Contestant(played.name, played.cards, bot),
            [Contestant(entry.label, entry.cards, against) for entry in entries],
            weights=[entry.weight for entry in entries], games=games, seed=seed,
            executor=runner, ruleset=rules.ruleset, switches=rules.switches,
            modules=rules.modules, max_turns=rules.max_turns, on_result=on_result)
    matchups = tuple(
        Matchup(row.opponent, entry.source, entry.weight, row.weight, row.games, row.wins,
                row.draws, row.losses, row.win_rate, row.mean_turns, frozen_mapping(
                    dict(row.endings)), card_figures(row.cards))
        for row, entry in zip(result.matchups, entries, strict=True))
    warnings = [*played.warnings, *(w for entry in entries for w in entry.deck.warnings)]
    return GauntletResult(
        played.name, result.side, result.opponent_side, result.field_win_rate,
        result.field_method, matchups,
        settings(played.game, rules, bot=bot, opponent_bot=against, seed=seed, games=games),
        result.reproducible, tuple(warnings), tuple(notes))


def _tournament_decks(items: list[DeckSource], catalog: Catalog, allow_illegal: bool
                      ) -> tuple[list[FieldEntry], list[str]]:
    texts = [spec_text(item, "tournament deck") for item in items]
    if all(text is not None for text in texts):  # as `deckbuilder tournament DECKS`
        return read_decks([text for text in texts if text is not None], catalog,
                          allow_illegal=allow_illegal, option="decks")
    entries: list[FieldEntry] = []
    notes: list[str] = []
    for item, text in zip(items, texts, strict=True):
        if text is not None:
            read, said = read_decks([text], catalog, allow_illegal=allow_illegal,
                                    option="decks")
            entries += read
            notes += said
        else:
            deck = read_deck(item, catalog, allow_illegal=allow_illegal, what="tournament deck")
            entries.append(FieldEntry(deck.name, deck, 1.0, deck.name))
    return _unique(entries), notes


def tournament(
    decks: DeckSource | Sequence[DeckSource],
    *,
    games: int = 200,
    seed: int = 1,
    bot: str = "greedy",
    ruleset: str | None = None,
    switches: Mapping[str, str] | None = None,
    modules: Sequence[str] = (),
    max_turns: int = 200,
    workers: int = 1,
    executor: Executor | None = None,
    allow_illegal: bool = False,
    catalog: Catalog | None = None,
    on_result: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Play every deck of one side against every deck of the other, `games` games per
    pairing on shared seeds, and rank them (a Bradley-Terry rating and the win rate, with
    95% intervals). Given decks of one side only, the other side's base deck plays them all.

    `decks`: loaded decks, models, paths, names, factions or folders (or one folder), all of
    one game; `bot` plays every deck. Other settings as `simulate`.
    """
    check_count("games", games, 1)
    check_count("seed", seed, 0)
    found = use_catalog(catalog)
    entries, notes = _tournament_decks(listed(decks, "decks"), found, allow_illegal)
    game = entries[0].deck.game
    sides = get_game(game).side_names
    for entry in entries:
        if entry.deck.game != game:
            raise DeckError(f"{entry.source} is {an(entry.deck.game)} deck but "
                            f"{entries[0].source} is {an(game)} deck: decks of one game only",
                            fix=f"give only {game} decks, or only {entry.deck.game} decks")
        if entry.weight != 1.0:
            raise DeckError(f"{entry.source}@{entry.weight:g}: a tournament counts every "
                            "pairing alike; weights are for a gauntlet",
                            fix=f"name {entry.source} without @WEIGHT")
        if entry.deck.faction not in sides:
            raise DeckError(f"{entry.source} is {an(entry.deck.faction)} deck: no side of "
                            f"{game}", fix=f"give decks of {' or '.join(sides)}")
    counts = [max(1, sum(1 for e in entries if e.deck.faction == side)) for side in sides]
    if games * counts[0] * counts[1] > MOST_TOURNAMENT_GAMES:
        raise SettingError(f"{games * counts[0] * counts[1]} games in all: at most "
                           f"{MOST_TOURNAMENT_GAMES}", fix="give fewer decks or games")
    rules = read_rules(found, game, ruleset, switches, modules, max_turns)
    with games_on(workers, executor) as runner:
        result = run_tournament(
            [Contestant(entry.label, entry.cards, bot) for entry in entries], games=games,
            seed=seed, executor=runner, ruleset=rules.ruleset, switches=rules.switches,
            modules=rules.modules, max_turns=rules.max_turns, on_result=on_result)
    return TournamentResult(
        game, result.sides, result.standings, result.pairings, result.rating_method,
        result.win_rate_method,
        settings(game, rules, bot=bot, opponent_bot=bot, seed=seed, games=games),
        result.reproducible, tuple(w for entry in entries for w in entry.deck.warnings),
        (*notes, *result.notes),
        frozen_mapping({row.deck: card_figures(row.cards) for row in result.standings}))
