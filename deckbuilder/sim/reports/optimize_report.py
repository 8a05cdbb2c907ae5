"""What `optimize` found, for machines and for people. The explanation of the best swap reads
only the confirmation games (fresh seeds, on which no choice was made), so its figures are
not flattered by the race's selection."""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from deckbuilder.catalog import Catalog
from deckbuilder.games import get_game
from deckbuilder.sim.optimiser.optimize import CONFIRM_SHARE, FINALISTS, OptimizeResult
from deckbuilder.sim.optimiser.optimize_candidates import Candidate, card_name
from deckbuilder.sim.optimiser.optimize_table import score
from deckbuilder.sim.reports.optimize_json import (
    CardWorthJson,
    ChangedGameJson,
    ExplanationJson,
    FinalistJson,
    LeftOutJson,
    OpponentShareJson,
    OptimizeJson,
    RacedJson,
    SwapJson,
    WonJson,
)
from deckbuilder.sim.reports.sensitivity import data_in_force, rests_on
from deckbuilder.sim.runs.runner import GameResult
from deckbuilder.sim.runs.stats import proportion

#: Paired games that changed the winner listed in the explanation's JSON, at most.
LISTED_GAMES = 8
#: ... and told in its words (the text and the page), for a swap told apart from the deck.
TOLD_GAMES = 3

METHOD = ("racing on paired seeds: a candidate is dropped only when a Bonferroni-corrected "
          "interval puts it below the deck or the leader; each round re-samples the leader "
          "and the challengers with the highest upper bound (LUCB), on means shrunk towards "
          "zero by the cards a swap changes (empirical Bayes); the leader and the challengers "
          "the race cannot tell apart from it are re-played on fresh seeds and only those "
          "games give the difference reported")


@dataclass(frozen=True)
class ReplayContext:
    """How the command line named the decks, so a listed game's command plays it again."""

    deck: str  # the deck as given (a file, a packaged name, a faction)
    opponents: Sequence[str]  # each opponent of the field as given, in field order


def _swaps_json(candidate: Candidate, catalog: Catalog) -> list[SwapJson]:
    return [SwapJson(s.out, s.into, s.count, s.text(catalog)) for s in candidate.swaps]


def swaps_text(candidate: Candidate, catalog: Catalog) -> str:
    return "; ".join(s.text(catalog) for s in candidate.swaps)


def points(value: float) -> str:
    return f"{value * 100:+.1f}"


def report_json(result: OptimizeResult, catalog: Catalog,
                replay: ReplayContext | None = None) -> OptimizeJson:
    """The result for machines (`optimize --json`)."""
    from deckbuilder.sim.reports.report import verdict

    settings = result.settings
    opponents = settings.opponents()
    total = sum(o.weight for o in opponents)
    # what the answer rests on: the deck's, the field's and the finalists' new cards' values
    put_in = [{swap.into: swap.count} for candidate in result.finalists
              for swap in candidate.swaps]
    return OptimizeJson(
        games=result.games, budget=settings.budget, supply=result.supply, seed=settings.seed,
        game=settings.game, bot=settings.bot, opponent_bot=settings.opponent_bot,
        opponents=[OpponentShareJson(o.name, o.weight / total) for o in opponents],
        confirmation_games=len(result.baseline_confirmed) * len(opponents),
        candidates=len(result.candidates), improved=result.improved, method=METHOD,
        selection=("racing on shared seeds; the finalists are re-played on fresh seeds "
                   "and only those games give the difference reported"),
        told_apart=result.told_apart(), advice=advice(result),
        left_out=[LeftOutJson(card, card_name(catalog, card), why)
                  for card, why in sorted(result.left_out.items())],
        finalists=[FinalistJson(
            _swaps_json(candidate, catalog), result.difference(candidate).as_dict(),
            len(candidate.confirmed), result.selection_difference(candidate).as_dict(),
            len(candidate.scores),
            verdict("the deck with " + swaps_text(candidate, catalog), "the deck",
                    result.difference(candidate).as_dict()))
            for candidate in result.finalists],
        race=[RacedJson(candidate.label, _swaps_json(candidate, catalog),
                        len(candidate.scores), candidate.dropped_after, candidate.dropped_by,
                        result.selection_difference(candidate).as_dict())
              for candidate in result.candidates if candidate.scores],
        rests_on=rests_on(catalog, [result.deck, *(o.cards for o in opponents), *put_in]),
        data=data_in_force(catalog),
        explanation=None if result.best is None else explain(result, result.best, catalog,
                                                             replay))


def advice(result: OptimizeResult) -> str:
    told = result.told_apart()
    if result.best is None:
        return "no legal swap found near this deck"
    apart = told["worse_than_the_deck"] + told["better_than_the_deck"]
    head = (f"{apart} of {told['candidates']} candidates told apart from the deck "
            f"({told['better_than_the_deck']} better, {told['worse_than_the_deck']} worse), "
            f"{told['behind_a_better_swap']} behind a better swap")
    if result.improved:
        return f"{head}: the best swap is better, confirmed on fresh seeds"
    needed = result.games_to_tell()
    assert needed is not None
    units, difference = needed
    per = len(result.settings.opponents())
    finalists = max(1, min(FINALISTS, len(result.finalists)))
    budget = round(units * per * (finalists + 1) / CONFIRM_SHARE, -2)
    return (f"{head}: no swap is clearly better at this budget; about {units * per} games "
            f"would tell a difference of {difference * 100:.0f} points (a --budget of about "
            f"{budget:.0f})")


def _drawn(game: GameResult, side: int, card: str) -> bool:
    return game.drawn[side].get(card, 0) > 0


def _card_figures(card: str, role: str, copies: int, games: Sequence[GameResult], side: int,
                  per_copy: float, catalog: Catalog, model_units: int) -> CardWorthJson:
    drawn = [g for g in games if _drawn(g, side, card)]
    others = [g for g in games if not _drawn(g, side, card)]

    def won(chosen: Sequence[GameResult]) -> WonJson:
        wins = sum(1 for g in chosen if score(g, side) == 1.0)
        rate = proportion(wins, len(chosen))
        return WonJson(len(chosen), wins, rate.as_dict())

    played = sum(g.played[side].get(card, 0) for g in games)
    return CardWorthJson(card, card_name(catalog, card), role, copies, per_copy, len(games),
                         len(drawn), played / len(games) if games else 0.0, won(drawn),
                         won(others), model_units)


def explain(result: OptimizeResult, candidate: Candidate, catalog: Catalog,
            replay: ReplayContext | None = None) -> ExplanationJson:
    side = result.settings.side
    deck_games = result.confirmation_games.get("deck", [])
    mine = result.confirmation_games.get(candidate.label, [])
    # A card that several of the swaps bring in (or take out) is one line, its copies added:
    # its figures are the same games'.
    copies: dict[tuple[str, str], int] = {}
    for swap in candidate.swaps:
        for key in ((swap.into, "in"), (swap.out, "out")):
            copies[key] = copies.get(key, 0) + swap.count
    cards = []
    for (card, role), count in copies.items():
        moved, games, per_copy = (
            ("into", mine, result.worth.get(card, 0.0)) if role == "in"
            else ("out", deck_games[:len(mine)], -result.cost.get(card, 0.0)))
        # what the model's figure rests on: a few units make a rough one
        units = sum(len(other.scores) for other in result.candidates
                    if any(getattr(swap, moved) == card for swap in other.swaps))
        cards.append(_card_figures(card, role, count, games, side, per_copy, catalog, units))
    opponents = result.settings.opponents()
    per = len(opponents)
    changed = []
    for before, after in zip(deck_games[:len(mine)], mine, strict=True):
        if before.winner == after.winner:
            continue
        which = before.index % per
        changed.append(ChangedGameJson(
            before.seed, opponents[which].name, _result_word(before, side),
            _result_word(after, side), before.turns, after.turns,
            *(() if replay is None else (
                replay_command(result, replay, which, before.seed),
                replay_command(result, replay, which, before.seed, candidate)))))
    gained = sum(1 for g in changed if _RANK[g.with_swap] > _RANK[g.deck])
    confirmed = result.difference(candidate)
    return ExplanationJson(
        _swaps_json(candidate, catalog), cards, len(mine), len(changed), gained,
        len(changed) - gained, confirmed.low > 0 or confirmed.high < 0, changed[:LISTED_GAMES],
        "both games of a pair replay exactly with the two commands given (`play --swap` lays "
        "the changed deck out along the deck, as the search did)")


_RANK = {"lost": 0, "drew": 1, "won": 2}


def _result_word(game: GameResult, side: int) -> str:
    return {1.0: "won", 0.5: "drew", 0.0: "lost"}[score(game, side)]


def replay_command(result: OptimizeResult, replay: ReplayContext, which: int,
                   seed: int, swapped: Candidate | None = None) -> str:
    """The `deckbuilder play` line that plays the deck's (or `swapped`'s) game again."""
    settings = result.settings
    game = get_game(settings.game)
    bots = ([settings.bot, settings.opponent_bot] if settings.side == 0
            else [settings.opponent_bot, settings.bot])
    opponent = replay.opponents[which] if which < len(replay.opponents) else \
        game.side_names[1 - settings.side]
    words = ["deckbuilder", "play", replay.deck, opponent, "--bots", ",".join(bots),
             "--seed", str(seed)]
    if settings.ruleset and settings.ruleset != game.default_ruleset:
        words += ["--ruleset", settings.ruleset]
    for key, value in sorted((settings.switches or {}).items()):
        words += ["--switch", f"{key}={value}"]
    for module in settings.modules:
        words += ["--module", module]
    if settings.max_turns != 200:
        words += ["--max-turns", str(settings.max_turns)]
    for swap in swapped.swaps if swapped is not None else ():
        words += ["--swap", f"{swap.out}={swap.into}:{swap.count}"]
    return " ".join(shlex.quote(word) for word in words)


def _won(games: WonJson, when: str, none: str) -> str:
    """'won 43% when drawn (20/47)'; `none` where there was no such game (not '0% (0/0)')."""
    if not games.games:
        return none
    return f"won {games.rate['estimate'] * 100:.0f}% {when} ({games.wins}/{games.games})"


def explanation_lines(explanation: ExplanationJson) -> list[str]:
    lines = []
    for card in explanation.cards:
        holder, moving = (("with the swap", "bringing it in") if card.role == "in"
                          else ("of the deck", "taking it out"))
        lines.append(
            f"{card.role}: {card.copies}x {card.name}: worth {points(card.worth_per_copy)} "
            f"points a copy (the race's model, from {card.model_units} racing units of the "
            f"swaps {moving}); in the games {holder}, drawn in {card.drawn_in} of "
            f"{card.games}, played {card.played_per_game:.1f} a game; "
            f"{_won(card.when_drawn, 'when drawn', 'never drawn')}, "
            f"{_won(card.when_not_drawn, 'when not', 'drawn in every game')}")
    lines.append(
        f"the swap changed the winner in {explanation.changed_winner} of "
        f"{explanation.paired_games} paired games: {explanation.turned_for_the_deck} "
        f"for the deck, {explanation.turned_against} against it")
    if not explanation.told_apart:
        lines.append("  the swap is not told apart from the deck: which games it changed is "
                     "chance here, so none is told (the --json report lists them)")
        return lines
    for game in explanation.games[:TOLD_GAMES]:
        lines.append(f"  seed {game.seed} against {game.opponent}: the deck {game.deck} in "
                     f"{game.deck_turns} turns, with the swap {game.with_swap} in "
                     f"{game.with_swap_turns}")
        if game.replay_deck is not None:
            lines.append(f"    the deck's game: {game.replay_deck}")
            lines.append(f"    with the swap: {game.replay_with_swap}")
    more = explanation.changed_winner - min(TOLD_GAMES, len(explanation.games))
    if more > 0:
        lines.append(f"  and {more} more: the same command with --json lists "
                     f"{len(explanation.games)} of them with the commands that replay them")
    return lines
