"""What no position of either game can hold: the table's limits, the box's tokens, the eagle
token's places, the face spaces of a living character. Play never reaches such a position,
but one laid out by hand (a scenario file, a rules test) can: `verify_position` refuses it
with the rule it breaks. The box's token counts come from the card sets (`Token.count`), which
box token each counter uses from the game (`GameRules.token_ids`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from deckbuilder.catalog import Catalog
from deckbuilder.engine.addons import host_of
from deckbuilder.engine.board import ROW_BLOCKING_LIMIT, column_count, row_blocking_count
from deckbuilder.engine.codes import SPACE_FACE
from deckbuilder.engine.effects import run_extra_turns
from deckbuilder.engine.state import State
from deckbuilder.errors import DeckbuilderError

#: The table's token counters (`GameRules.token_ids` maps each to the box's token, per side).
POWER = "power"
TRUE_GRIT = "true_grit"
EAGLE = "eagle"
COUNTDOWN = "countdown"
SILVER = "silver"
TOKEN_COUNTERS = (POWER, TRUE_GRIT, EAGLE, COUNTDOWN, SILVER)

CARD_LIMIT_RULE = "rulebook-en, Cards: the three card limit (at most three firepower cards " \
                  "of the first side at each battlefield, row-blocking cards included)"
ROW_BLOCKING_RULE = "rulebook-en, Cards: row-blocking cards (maximum of 2 row-blocking cards " \
                    "per battlefield)"
FACE_SPACE_RULE = "rulebook-en, Advance turn marker: the face spaces are used only when the " \
                  "characters whose cards grant them are killed (or lose their token)"


@dataclass(frozen=True)
class TokenSupply:
    """How many of a token the box holds, and the document that says so."""

    name: str
    count: int
    source: str


@dataclass(frozen=True)
class Impossible:
    """One thing the position holds that no game can reach: what, the rule, where (a hint
    into a position: ("battlefields", battlefield id), ("tokens", counter), ...)."""

    message: str
    rule: str
    where: tuple[Any, ...] = ()


class ImpossiblePositionError(DeckbuilderError):
    """A position the rules rule out (its `rule` says which)."""

    def __init__(self, found: Impossible) -> None:
        super().__init__(f"{found.message} ({found.rule})")
        self.found = found


def token_supply(catalog: Catalog, game: str) -> dict[str, TokenSupply]:
    """Token id -> what the box of `game` holds, from the installed sets' token records."""
    supply: dict[str, TokenSupply] = {}
    for entry in catalog.iter_kind("token"):
        if entry.game == game:
            token = entry.record
            source = token.provenance.sources.get("count") or token.provenance.sources.get(
                "name") or f"{entry.set_id}: tokens"
            supply[token.id] = TokenSupply(token.name, token.count, source)
    return supply


def tokens_in_use(state: State) -> Counter[str]:
    """The box's tokens on the table, by token id (as `GameRules.token_ids` names them)."""
    spec = state.spec
    names: Mapping[str, tuple[str, ...]] = spec.game_rules.token_ids
    used: Counter[str] = Counter()

    def add(counter: str, player: int, count: int) -> None:
        ids = names.get(counter)
        if ids and count:
            used[ids[player]] += count

    for uid in range(spec.n_uids):
        owner = spec.owner[uid]
        add(POWER, owner, state.power[uid])
        add(TRUE_GRIT, owner, state.grit[uid])
        # the cards under an emptied card are empty too, under the same token
        add(EAGLE, owner, 1 if state.eagle[uid] and (
            uid >= spec.n_cards or host_of(state, uid) < 0) else 0)
    for index, count in enumerate(state.bf_power):
        add(POWER, index & 1, count)
    add(COUNTDOWN, 0, state.countdown)
    for player in (0, 1):
        add(SILVER, player, state.silver[player])
    return used


def _over_supply(state: State, supply: Mapping[str, TokenSupply]) -> Iterator[Impossible]:
    for token_id, count in sorted(tokens_in_use(state).items()):
        box = supply.get(token_id)
        if box is not None and count > box.count:
            counter = next(counter for counter, ids in state.spec.game_rules.token_ids.items()
                           if token_id in ids)
            yield Impossible(f"{count} {box.name}s on the table: more tokens than the supply "
                             f"holds ({box.count})", box.source, ("tokens", counter))


def _over_limits(state: State) -> Iterator[Impossible]:
    spec = state.spec
    for bf in spec.bfs:
        blocking = row_blocking_count(state, bf.idx)
        if blocking > ROW_BLOCKING_LIMIT:
            yield Impossible(f"{blocking} row-blocking cards at {bf.name}: more than the rules "
                             f"allow ({ROW_BLOCKING_LIMIT})", ROW_BLOCKING_RULE,
                             ("battlefields", bf.id))
        for side in (0, 1):
            limit = spec.column_limit[side]
            count = column_count(state, bf.idx, side)
            if count > limit:
                yield Impossible(
                    f"{count} cards count toward the {spec.game_rules.side_names[side]} card "
                    f"limit at {bf.name}: more than the rules allow ({limit})",
                    CARD_LIMIT_RULE, ("battlefields", bf.id, spec.game_rules.side_names[side]))


def _eagle_misplaced(state: State, supply: Mapping[str, TokenSupply]) -> Iterator[Impossible]:
    spec = state.spec
    eagle_ids = spec.game_rules.token_ids.get(EAGLE, ())
    rule = next((supply[token].source for token in eagle_ids if token in supply),
                "the eagle token's card notes")
    for uid in range(spec.n_cards):
        if state.eagle[uid] and spec.card_def[uid].eagle_proof:
            card = spec.card_def[uid]
            yield Impossible(f"an eagle token may not lie on {card.name} (not on location or "
                             "event cards)", rule, ("battlefields",))


def face_grants(state: State) -> dict[str, list[tuple[int, int, bool]]]:
    """Face -> the characters whose cards grant its spaces: (index, count, on losing his
    token rather than on his death)."""
    grants: dict[str, list[tuple[int, int, bool]]] = {}
    for character in state.spec.characters:
        for steps, on_token in ((character.on_death, False), (character.on_token_lost, True)):
            for function, params in steps:
                if function is run_extra_turns:
                    face, count, _ = params
                    grants.setdefault(face, []).append((character.idx, count, on_token))
    return grants


def _faces_too_early(state: State) -> Iterator[Impossible]:
    spec = state.spec
    in_use = Counter(bf.faces[space] for bf in spec.bfs for space, kind in enumerate(bf.kinds)
                     if kind == SPACE_FACE and state.face_on[bf.offset + space])
    base = spec.character_base
    for face, granters in face_grants(state).items():
        granted = sum(count for index, count, on_token in granters
                      if not state.alive[index] or (
                          on_token and not state.power[base + index]
                          and not state.grit[base + index]))
        if in_use[face] > granted:
            living = " and ".join(spec.characters[index].name for index, _, _ in granters
                                  if state.alive[index])
            why = f"while {living} lives" if living else f"but only {granted} were granted"
            yield Impossible(f"{in_use[face]} '{face}' face spaces in use {why}",
                             FACE_SPACE_RULE, ("face_spaces",))


def impossibilities(state: State, supply: Mapping[str, TokenSupply]) -> list[Impossible]:
    """Everything the position holds that the rules rule out, the table's and the game's."""
    found = [*_over_limits(state), *_over_supply(state, supply),
             *_eagle_misplaced(state, supply), *_faces_too_early(state)]
    found.extend(state.spec.game_rules.impossibilities(state))
    return found


def verify_position(state: State, catalog: Catalog) -> None:
    """Raise ImpossiblePositionError for the first thing the rules rule out in a position."""
    found = impossibilities(state, token_supply(catalog, state.spec.game_rules.game))
    if found:
        raise ImpossiblePositionError(found[0])
