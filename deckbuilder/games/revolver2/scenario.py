"""Laying out a Revolver 2 position (the game's `GameParts.scenario`): past the poker
tournament with the position's battlefield set, then the guardians, the Mexican Army, the
bridge and the power tokens; or, with `position.poker`, the tournament under way
(`scenario_poker.py`).
"""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from deckbuilder.engine.position import pile_ids
from deckbuilder.engine.state import State
from deckbuilder.games.revolver2 import poker
from deckbuilder.games.revolver2.poker import Tournament, in_progress
from deckbuilder.games.revolver2.scenario_model import FORMAT, MALPASO_PLAYERS, Revolver2Scenario
from deckbuilder.games.revolver2.scenario_poker import stage_tournament
from deckbuilder.games.revolver2.staging import (
    BATTLEFIELD_SETS,
    StagingError,
    battlefield_set_of,
    is_bridge_blown,
    skip_tournament,
    stage_battlefield_tokens,
    stage_bridge,
)
from deckbuilder.scenario_kit.layout import Ids
from deckbuilder.scenario_kit.parts import Source
from deckbuilder.scenario_kit.staging import (
    Result,
    ScenarioParts,
    Staging,
    reading,
    same,
    set_alive,
    set_generic_table,
    set_tokens,
    side_values,
)


def _named_battlefields(scenario: Revolver2Scenario) -> list[tuple[str, tuple]]:
    """Every battlefield the file names, with where it names it."""
    position = scenario.position
    named: list[tuple[str, tuple]] = []
    if position.marker is not None:
        named.append((position.marker.battlefield, ("position", "marker", "battlefield")))
    for key in ("battlefields", "battlefield_tokens"):
        named.extend((bf, ("position", key, bf)) for bf in getattr(position, key))
    expectations: list[tuple[Any, tuple]] = \
        [(scenario.expect, ("expect",))] if scenario.expect is not None else []
    for index, item in enumerate(scenario.actions):
        expect = getattr(item, "expect", None)
        if expect is not None:
            expectations.append((expect, ("actions", index, "expect")))
    for expect, loc in expectations:
        if expect.marker is not None:
            named.append((expect.marker.battlefield, (*loc, "marker", "battlefield")))
        for key in ("at", "battlefield_tokens"):
            named.extend((bf, (*loc, key, bf)) for bf in getattr(expect, key) or {})
    return named


def battlefield_set(state: State, scenario: Revolver2Scenario, ids: Ids) -> str:
    """The set the position is played with: as written, else the one its battlefields
    belong to (they must all belong to one), else crystal-river."""
    chosen: str | None = scenario.position.battlefield_set
    for text, loc in _named_battlefields(scenario):
        bf_id = ids.resolve(text, "battlefield", loc)
        belongs = battlefield_set_of(state, bf_id)
        if belongs is None:
            continue
        if chosen is None:
            chosen = belongs
        elif belongs != chosen:
            raise ids.source.error(
                f"battlefield '{bf_id}' belongs to the {belongs} set, not {chosen}", loc,
                "name battlefields of one set (position.battlefield_set says which)")
    return chosen or BATTLEFIELD_SETS[0]


def prepare(state: State, scenario: Revolver2Scenario, source: Source, ids: Ids) -> None:
    """Skip the poker tournament: the position's battlefield set is in play. During the
    tournament (`position.poker`) it is laid out instead and no set is in play yet."""
    if scenario.position.poker is not None:
        stage_tournament(state, scenario, source, ids)
        return
    chosen = battlefield_set(state, scenario, ids)
    skip_tournament(state, chosen, begin=False)
    ids.in_play = {bf.id: bf.idx for bf in state.spec.bfs}
    ids.in_play_note = f" with the {chosen} battlefield set"


def set_guardians(state: State, scenario: Revolver2Scenario, source: Source, ids: Ids) -> None:
    """Who is in play, in the pile (in order) and dead; their tokens."""
    spec = state.spec
    guardians = scenario.position.guardians
    index = {character.id: character.idx for character in spec.characters}
    loc = ("position", "guardians")

    def named(key: str) -> list[int]:
        return [index[ids.resolve(text, "character", (*loc, key, i))]
                for i, text in enumerate(getattr(guardians, key))]

    given = {key: named(key) for key in ("alive", "dead", "pile")
             if getattr(guardians, key) is not None}
    seen: dict[int, str] = {}
    for key, members in given.items():
        for i, guardian in enumerate(members):
            if guardian in seen:
                raise source.error(
                    f"{spec.characters[guardian].name} is named in both `{seen[guardian]}` and "
                    f"`{key}`", (*loc, key, i), "name each guardian in one place")
            seen[guardian] = key
    dead = given["dead"]
    alive = given["alive"] if "alive" in given else \
        [g for g, living in enumerate(state.alive) if living and g not in seen]
    pile = given.get("pile")
    if pile is None:
        # the set-up's pile (the guardians who do not start in play, in the seed's order,
        # first drawn first), less those the file puts in play or among the dead; a starting
        # guardian who is not in play never goes back to the pile: he is dead
        pile = [g for g in reversed(state.pile) if g not in alive and g not in dead]
        if guardians.pile_size is not None:
            if guardians.pile_size > len(pile):
                raise source.error(
                    f"the pile cannot hold {guardians.pile_size} guardians: only "
                    f"{len(pile)} of those who did not start in play are neither in play nor dead",
                    (*loc, "pile_size"),
                    f"use at most {len(pile)}")
            pile = pile[:guardians.pile_size]
    for guardian in range(len(spec.characters)):
        set_alive(state, guardian, guardian in alive)
    state.pile = pile[::-1]  # drawn from its end
    for text, tokens in guardians.tokens.items():
        guardian = index[ids.resolve(text, "character", (*loc, "tokens", text))]
        if not state.alive[guardian]:
            raise source.error(f"{spec.characters[guardian].name} is not in play: no tokens",
                               (*loc, "tokens", text), "put him in `alive`")
        set_tokens(state, spec.character_base + guardian, tokens)
        if tokens.eagle:
            raise source.error("Revolver 2 has no eagle token", (*loc, "tokens", text, "eagle"),
                               "leave `eagle` out")


def set_table(state: State, scenario: Revolver2Scenario, source: Source, ids: Ids) -> None:
    """The bridge and the power tokens on the battlefield cards; then the generic table."""
    position = scenario.position
    stage_bridge(state, position.bridge_blown)
    for text, tokens in position.battlefield_tokens.items():
        bf_id = ids.resolve(text, "battlefield", ("position", "battlefield_tokens", text))
        for player, name in enumerate(MALPASO_PLAYERS):
            count = getattr(tokens, name)
            if count is not None:
                try:
                    stage_battlefield_tokens(state, bf_id, player, count)
                except StagingError as error:
                    raise source.error(str(error), ("position", "battlefield_tokens", text)) \
                        from None
    set_generic_table(state, scenario, source, ids)


def opens(state: State, scenario: Revolver2Scenario) -> bool:
    """During the tournament (`position.poker`) its poker choice is the decision now due."""
    if scenario.position.poker is None:
        return False
    poker.stage(state, state.game_data)
    return True


# -- the checks of Revolver 2's own expectations ----------------------------------------------
def _pile(state: State, value: list[str], ids: Ids, loc: tuple) -> Result:
    wanted = [ids.resolve(t, "character", (*loc, i)) for i, t in enumerate(value)]
    return same(wanted, pile_ids(state))


def _battlefield_tokens(state: State, value: dict[str, JsonValue], ids: Ids, loc: tuple) -> Result:
    results: Result = []
    for bf_text, tokens in value.items():
        bf = ids.battlefield(bf_text, (*loc, bf_text))
        results += side_values(state, tokens, state.bf_power[2 * bf:2 * bf + 2],
                               f" {state.spec.bfs[bf].id}")
    return results


def _battlefield_set(state: State, value: str, ids: Ids, loc: tuple) -> Result:
    """The set the poker tournament's winner brought in (none while it goes on)."""
    tournament = state.game_data
    if not isinstance(tournament, Tournament) or in_progress(state):
        return same(value, "none")
    return same(value, BATTLEFIELD_SETS[tournament.winner])


def _poker_wins(state: State, value: object, ids: Ids, loc: tuple) -> Result:
    tournament = state.game_data
    wins = tournament.wins if isinstance(tournament, Tournament) else (0, 0)
    return side_values(state, value, wins)


#: Revolver 2's scenarios, for the registry (`GameParts.scenario`).
SCENARIO = ScenarioParts(FORMAT, Staging(
    prepare=prepare, characters=set_guardians, table=set_table, opens=opens), {
    "bridge_blown": reading(is_bridge_blown), "pile": _pile,
    "pile_size": reading(lambda state: len(state.pile)),
    "battlefield_tokens": _battlefield_tokens, "battlefield_set": _battlefield_set,
    "poker_wins": _poker_wins})
