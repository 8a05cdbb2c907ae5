"""The expectations of a scenario, each checked against a State into a `Check`.

Every check is named after the field it came from and points at the line that wrote it, so a
failing scenario reads like "attack-example-2.yaml:31:3: border: expected 11, got 12".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deckbuilder.engine.actions import kind_name
from deckbuilder.engine.position import (
    active_face_spaces,
    attack_totals,
    player_name,
    player_names,
)
from deckbuilder.games import get_game
from deckbuilder.games.revolver2.staging import is_bridge_blown, pile_ids
from deckbuilder.scenarios.parts import Check, Tokens

_KINDS = {"power": "power", "true_grit": "grit"}


def _norm(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _multiset(cards: list[str]) -> list[str]:
    return sorted(cards)


# -- ids: resolved before anything runs, so a typo is exit 2 and never a half-run ---------------
def validate_ids(expect: Any, ids: Any, loc: tuple) -> None:
    """Resolve every id an expectation names (raises ScenarioError at a bad one)."""
    names = get_game(ids.game).side_names
    if expect.marker is not None:
        ids.resolve(expect.marker.battlefield, "battlefield", (*loc, "marker", "battlefield"))
    for key in ("alive", "dead", "pile"):
        for index, text in enumerate(getattr(expect, key, None) or []):
            ids.resolve(text, "character", (*loc, key, index))
    for key in expect.tokens or {}:
        _token_target(ids, key, (*loc, "tokens", key))
    for bf in getattr(expect, "battlefield_tokens", None) or {}:
        ids.resolve(bf, "battlefield", (*loc, "battlefield_tokens", bf))
    for bf, sides in (expect.at or {}).items():
        ids.resolve(bf, "battlefield", (*loc, "at", bf))
        for name in names:
            ids.cards(getattr(sides, name) or [], (*loc, "at", bf, name))
    for key in ("hand", "discard", "removed"):
        per_player = getattr(expect, key)
        for name in names:
            if per_player is not None:
                ids.cards(getattr(per_player, name) or [], (*loc, key, name))
    known = [t.value for t in get_game(ids.game).terminations]
    if expect.termination is not None and expect.termination not in known:
        raise ids.source.error(f"unknown termination '{expect.termination}'",
                               (*loc, "termination"), f"use one of: {', '.join(known)}")


def _token_target(ids: Any, key: str, loc: tuple) -> tuple[str, str, str | None]:
    """('bandit', id, None) or ('card', id, battlefield id or None)."""
    text, _, bf = key.partition("@")
    entry = ids.catalog.find(text, game=ids.game)
    if entry is not None and entry.kind == "character":
        return "bandit", entry.id, None
    card = ids.resolve(text, "card", loc)
    return "card", card, ids.resolve(bf, "battlefield", loc) if bf else None


# -- checks -----------------------------------------------------------------------------------
def check_all(state: Any, expect: Any, ids: Any, loc: tuple, label: str) -> list[Check]:
    """Every expectation that is set, in the order of the game's Expectations fields."""
    checks: list[Check] = []
    for key in type(expect).model_fields:
        value = getattr(expect, key)
        if value is None:
            continue
        where = str(ids.source.where(*loc, key))
        name = f"{label} {key}".strip()
        for suffix, ok, expected, actual in CHECKS[key](state, value, ids, (*loc, key)):
            checks.append(Check(name + suffix, ok, expected, actual, where))
    return checks


Result = list[tuple[str, bool, Any, Any]]


def _same(expected: Any, actual: Any, suffix: str = "") -> Result:
    return [(suffix, expected == actual, expected, actual)]


def _to_act(state: Any, value: str, ids: Any, loc: tuple) -> Result:
    return _same(value, player_name(state, state.current_player()))


def _decision(state: Any, value: str, ids: Any, loc: tuple) -> Result:
    actual = "" if state.is_terminal() else kind_name(state.pending_kind)
    return [("", _norm(value) == _norm(actual), value, actual)]


def _turn(state: Any, value: int, ids: Any, loc: tuple) -> Result:
    return _same(value, state.turn)


def _marker(state: Any, value: Any, ids: Any, loc: tuple) -> Result:
    bf = state.spec.bfs[state.marker_bf]
    expected = f"{ids.resolve(value.battlefield, 'battlefield', loc)} space {value.space}"
    return _same(expected, f"{bf.id} space {bf.labels[state.marker_space]}")


def _countdown(state: Any, value: int, ids: Any, loc: tuple) -> Result:
    """The tokens left on the countdown card: the Mexican Border, the Mexican Army."""
    return _same(value, state.countdown)


def _face_spaces(state: Any, value: list[str], ids: Any, loc: tuple) -> Result:
    return _same(_multiset(value), _multiset(active_face_spaces(state)))


def _derail_used(state: Any, value: bool, ids: Any, loc: tuple) -> Result:
    return _same(value, "derail" in state.pieces_used)


def _bridge_blown(state: Any, value: bool, ids: Any, loc: tuple) -> Result:
    return _same(value, is_bridge_blown(state))


def _character_states(state: Any) -> dict[str, str]:
    """Each character: alive (in play), in the pile (Revolver 2's face-down guardians, not
    yet recruited) or dead."""
    pile = set(state.pile)
    return {c.id: "alive" if state.alive[c.idx] else "in the pile" if c.idx in pile else "dead"
            for c in state.spec.bandits}


def _in_state(wanted_state: str) -> Callable[[Any, Any, Any, tuple], Result]:
    def check(state: Any, value: list[str], ids: Any, loc: tuple) -> Result:
        states = _character_states(state)
        wanted = [ids.resolve(t, "character", (*loc, i)) for i, t in enumerate(value)]
        others = [f"{who} {states[who]}" for who in wanted if states[who] != wanted_state]
        return [("", not others, wanted, ", ".join(others))]

    return check


def _pile(state: Any, value: list[str], ids: Any, loc: tuple) -> Result:
    wanted = [ids.resolve(t, "character", (*loc, i)) for i, t in enumerate(value)]
    return _same(wanted, pile_ids(state))


def _pile_size(state: Any, value: int, ids: Any, loc: tuple) -> Result:
    return _same(value, len(state.pile))


def _battlefield_tokens(state: Any, value: dict[str, Any], ids: Any, loc: tuple) -> Result:
    results: Result = []
    for bf_text, tokens in value.items():
        bf = ids.battlefield(bf_text, (*loc, bf_text))
        for player, name in enumerate(player_names(state)):
            wanted = getattr(tokens, name)
            if wanted is not None:
                actual = state.bf_power[2 * bf + player]
                results.append((f" {state.spec.bfs[bf].id} {name}", wanted == actual, wanted,
                                actual))
    return results


def _alive_count(state: Any, value: int, ids: Any, loc: tuple) -> Result:
    return _same(value, sum(state.alive))


def _tokens(state: Any, value: dict[str, Tokens], ids: Any, loc: tuple) -> Result:
    spec = state.spec
    results: Result = []
    for key, tokens in value.items():
        kind, target, bf = _token_target(ids, key, (*loc, key))
        if kind == "bandit":
            uids = [spec.bandit_base + c.idx for c in spec.bandits if c.id == target]
        else:
            uids = _copies_in_play(state, target, bf)
        expected = {k: v for k, v in tokens.model_dump().items() if v is not None}
        if not uids:
            results.append((f" {key}", False, expected, "not in play"))
            continue
        actual = {k: sum(getattr(state, _KINDS[k])[uid] for uid in uids) for k in expected}
        results.append((f" {key}", expected == actual, expected, actual))
    return results


def _copies_in_play(state: Any, card: str, bf: str | None) -> list[int]:
    spec = state.spec
    found: list[int] = []
    for index, row in enumerate(state.rows):
        where = index >> 1
        if bf is not None and (where >= spec.n_bf or spec.bfs[where].id != bf):
            continue
        found.extend(uid for uid in row if spec.uid_id(uid) == card)
    return found


def _at(state: Any, value: dict[str, Any], ids: Any, loc: tuple) -> Result:
    spec = state.spec
    index = {bf.id: bf.idx for bf in spec.bfs}
    results: Result = []
    for bf_text, sides in value.items():
        bf = index[ids.resolve(bf_text, "battlefield", (*loc, bf_text))]
        for player, name in enumerate(player_names(state)):
            wanted = getattr(sides, name)
            if wanted is None:
                continue
            expected = _multiset(ids.cards(wanted, (*loc, bf_text, name)))
            actual = _multiset([spec.uid_id(uid) for uid in state.rows[2 * bf + player]])
            results.append((f" {spec.bfs[bf].id} {name}", expected == actual, expected, actual))
    return results


def _zone(attribute: str) -> Callable[[Any, Any, Any, tuple], Result]:
    def check(state: Any, value: Any, ids: Any, loc: tuple) -> Result:
        zones = getattr(state, attribute)
        results: Result = []
        for player, name in enumerate(player_names(state)):
            wanted = getattr(value, name)
            if wanted is None:
                continue
            expected = _multiset(ids.cards(wanted, (*loc, name)))
            actual = _multiset([state.spec.uid_id(uid) for uid in zones[player]])
            results.append((f" {name}", expected == actual, expected, actual))
        return results

    return check


def _hand_size(state: Any, value: Any, ids: Any, loc: tuple) -> Result:
    return [(f" {name}", getattr(value, name) == len(state.hands[player]),
             getattr(value, name), len(state.hands[player]))
            for player, name in enumerate(player_names(state))
            if getattr(value, name) is not None]


def _firepower(state: Any, value: Any, ids: Any, loc: tuple) -> Result:
    totals = attack_totals(state)
    return [(f" {name}", getattr(value, name) == totals[name], getattr(value, name),
             totals[name]) for name in player_names(state) if getattr(value, name) is not None]


def _winner(state: Any, value: str, ids: Any, loc: tuple) -> Result:
    outcome = state.outcome()
    actual = "game not over" if outcome is None else player_name(state, outcome.winner)
    return _same(value, actual)


def _termination(state: Any, value: str, ids: Any, loc: tuple) -> Result:
    outcome = state.outcome()
    return _same(value, "game not over" if outcome is None else outcome.termination.value)


def _over(state: Any, value: bool, ids: Any, loc: tuple) -> Result:
    return _same(value, state.is_terminal())


def _legal_texts(state: Any) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


def _legal(state: Any, value: list[str], ids: Any, loc: tuple) -> Result:
    texts = _legal_texts(state)
    return [("", sorted(map(_norm, value)) == sorted(map(_norm, texts)), sorted(value),
             sorted(texts))]


def _offered(texts: list[str], wanted: str) -> bool:
    key = _norm(wanted)
    return any(_norm(text) == key or _norm(text).startswith(key) for text in texts)


def _legal_includes(state: Any, value: list[str], ids: Any, loc: tuple) -> Result:
    texts = _legal_texts(state)
    return [(f" '{wanted}'", _offered(texts, wanted), "legal", f"not legal (legal: "
             f"{'; '.join(texts) or 'none'})") for wanted in value]


def _legal_excludes(state: Any, value: list[str], ids: Any, loc: tuple) -> Result:
    texts = _legal_texts(state)
    results: Result = []
    for wanted in value:
        hits = [text for text in texts if _norm(text).startswith(_norm(wanted))]
        results.append((f" '{wanted}'", not hits, "not legal", f"legal ({'; '.join(hits)})"))
    return results


def _log_includes(state: Any, value: list[str], ids: Any, loc: tuple) -> Result:
    lines = [line.casefold() for line in state.log]
    return [(f" '{text}'", any(_norm(text) in _norm(line) for line in lines), "logged",
             "not in the log") for text in value]


CHECKS: dict[str, Callable[[Any, Any, Any, tuple], Result]] = {
    "to_act": _to_act,
    "decision": _decision,
    "turn": _turn,
    "marker": _marker,
    "border": _countdown,
    "army": _countdown,
    "bridge_blown": _bridge_blown,
    "face_spaces": _face_spaces,
    "derail_used": _derail_used,
    "alive": _in_state("alive"),
    "dead": _in_state("dead"),
    "alive_count": _alive_count,
    "pile": _pile,
    "pile_size": _pile_size,
    "tokens": _tokens,
    "battlefield_tokens": _battlefield_tokens,
    "at": _at,
    "hand": _zone("hands"),
    "hand_size": _hand_size,
    "discard": _zone("discards"),
    "removed": _zone("removed"),
    "firepower": _firepower,
    "winner": _winner,
    "termination": _termination,
    "over": _over,
    "legal": _legal,
    "legal_includes": _legal_includes,
    "legal_excludes": _legal_excludes,
    "log_includes": _log_includes,
}
