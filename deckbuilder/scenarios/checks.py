"""The expectations of a scenario, each checked against a State into a `Check` named after its
field and pointing at its line ("attack-example-2.yaml:31:3: countdown: expected 11, got 12").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import JsonValue

from deckbuilder.engine.actions import kind_name
from deckbuilder.engine.position import (
    active_face_spaces,
    attack_totals,
    player_name,
    player_names,
)
from deckbuilder.engine.state import State
from deckbuilder.games import get_game
from deckbuilder.protocol import Outcome
from deckbuilder.scenario_kit.layout import OPEN_RANGE, Ids
from deckbuilder.scenario_kit.parts import Check, Offer, Offered, Tokens
from deckbuilder.scenario_kit.staging import (
    CheckFn,
    Result,
    per_side_count,
    reading,
    same,
    side_findings,
    side_values,
)
from deckbuilder.scenarios.choosing import (
    cards_under,
    copies_in_play,
    describe_instance,
    norm_text,
    split_number,
)
from deckbuilder.scenarios.model import PARTS

_KINDS = {"power": "power", "true_grit": "grit", "eagle": "eagle"}


# -- ids: resolved before anything runs, so a typo is exit 2 and never a half-run ---------------
def validate_ids(expect: Any, ids: Ids, loc: tuple) -> None:
    """Resolve every id an expectation names (raises ScenarioError at a bad one)."""
    names = get_game(ids.game).side_names
    if expect.marker is not None:
        ids.resolve(expect.marker.battlefield, "battlefield", (*loc, "marker", "battlefield"))
    for key in ("alive", "dead", "pile"):
        for index, text in enumerate(getattr(expect, key, None) or []):
            ids.resolve(text, "character", (*loc, key, index))
    for key in expect.tokens or {}:
        _token_target(ids, key, (*loc, "tokens", key))
    for key, cards in (expect.under or {}).items():
        if _token_target(ids, key, (*loc, "under", key))[0] != "card":
            raise ids.source.error(f"'{key}' is not a card: only cards lie under cards",
                                   (*loc, "under", key), "name a card in play")
        ids.cards(cards, (*loc, "under", key))
    for index, offer in enumerate(expect.offered or []):
        if offer.by is not None and offer.by not in names:
            raise ids.source.error(f"unknown side '{offer.by}'", (*loc, "offered", index, "by"),
                                   f"use one of: {', '.join(names)}")
    for bf in getattr(expect, "battlefield_tokens", None) or {}:
        ids.resolve(bf, "battlefield", (*loc, "battlefield_tokens", bf))
    for bf, sides in (expect.at or {}).items():
        if bf != OPEN_RANGE:
            ids.resolve(bf, "battlefield", (*loc, "at", bf))
        for name in names:
            ids.cards(getattr(sides, name) or [], (*loc, "at", bf, name))
    for key in ("hand", "discard", "removed", "deck_top"):
        per_player = getattr(expect, key)
        for name in names:
            if per_player is not None:
                ids.cards(getattr(per_player, name) or [], (*loc, key, name))
    known = [t.value for t in get_game(ids.game).terminations]
    if expect.termination is not None and expect.termination not in known:
        raise ids.source.error(f"unknown termination '{expect.termination}'",
                               (*loc, "termination"), f"use one of: {', '.join(known)}")


def _token_target(ids: Ids, key: str, loc: tuple) -> tuple[str, str, str | None, int | None]:
    """('character', id, None, None) or ('card', id, battlefield id or None, copy number or
    None) for `character`, `card`, `card@battlefield`, each card form with `#N`."""
    key, number = split_number(key)
    text, _, bf = key.partition("@")
    entry = ids.catalog.find(text, game=ids.game)
    if entry is not None and entry.kind == "character" and not bf:
        return "character", entry.id, None, None
    card = ids.resolve(text, "card", loc)
    return "card", card, ids.resolve(bf, "battlefield", loc) if bf else None, number


# -- checks -----------------------------------------------------------------------------------
def check_all(state: State, expect: Any, ids: Ids, loc: tuple, label: str) -> list[Check]:
    """Every expectation that is set, in the order of the game's Expectations fields (the
    table's checks, then the game's own)."""
    checks: list[Check] = []
    for key in type(expect).model_fields:
        value = getattr(expect, key)
        if value is None:
            continue
        written = ids.source.as_written(loc, expect, key)
        where = ids.source.where(*loc, written)
        name = f"{label} {written}".strip()
        check = CHECKS.get(key) or PARTS[ids.game].checks[key]
        for suffix, ok, expected, actual, *shown in check(state, value, ids, (*loc, key)):
            checks.append(Check(name + suffix, ok, expected, actual, str(where),
                                shown[0] if shown else None))
    return checks


def _decision(state: State, value: str, ids: Ids, loc: tuple) -> Result:
    actual = "" if state.is_terminal() else kind_name(state.pending_kind, state.spec)
    return [("", norm_text(value) == norm_text(actual), value, actual)]


def _marker(state: State, value: Any, ids: Ids, loc: tuple) -> Result:
    bf = state.spec.bfs[state.marker_bf]
    expected = f"{ids.resolve(value.battlefield, 'battlefield', loc)} space {value.space}"
    return same(expected, f"{bf.id} space {bf.labels[state.marker_space]}")


def _face_spaces(state: State, value: list[str], ids: Ids, loc: tuple) -> Result:
    return same(sorted(value), sorted(active_face_spaces(state)))


def _character_states(state: State) -> dict[str, str]:
    """Each character: alive (in play), in the pile (Revolver 2's face-down guardians, not
    yet recruited) or dead."""
    pile = set(state.pile)
    return {c.id: "alive" if state.alive[c.idx] else "in the pile" if c.idx in pile else "dead"
            for c in state.spec.characters}


def _in_state(wanted_state: str) -> CheckFn:
    def check(state: State, value: list[str], ids: Ids, loc: tuple) -> Result:
        states = _character_states(state)
        wanted = [ids.resolve(t, "character", (*loc, i)) for i, t in enumerate(value)]
        others = [f"{who} {states[who]}" for who in wanted if states[who] != wanted_state]
        return [("", not others, wanted, ", ".join(others))]

    return check


def _named_copies(state: State, ids: Ids, key: str, loc: tuple) -> tuple[list[int], int | None]:
    """The character, or the copies in play (the `#N`-th only, when given), `key` names."""
    spec = state.spec
    kind, target, bf, number = _token_target(ids, key, loc)
    if kind == "character":
        return [spec.character_base + c.idx for c in spec.characters if c.id == target], None
    uids = copies_in_play(state, target, bf)
    return (uids if number is None else uids[number - 1:number]), number


def _tokens(state: State, value: dict[str, Tokens], ids: Ids, loc: tuple) -> Result:
    results: Result = []
    for key, tokens in value.items():
        uids, number = _named_copies(state, ids, key, (*loc, key))
        expected = {k: v for k, v in tokens.model_dump().items() if v is not None}
        if not uids:
            results.append((f" {key}", False, expected, _not_there(number)))
            continue
        actual = {k: sum(getattr(state, _KINDS[k])[uid] for uid in uids) for k in expected}
        results.append((f" {key}", expected == actual, expected, actual))
    return results


def _not_there(number: int | None) -> str:
    return "not in play" if number is None else f"no copy #{number} in play"


def _under(state: State, value: dict[str, list[str]], ids: Ids, loc: tuple) -> Result:
    spec = state.spec
    results: Result = []
    for key, cards in value.items():
        uids, number = _named_copies(state, ids, key, (*loc, key))
        expected = sorted(ids.cards(cards, (*loc, key)))
        if len(uids) != 1:
            actual = _not_there(number) if not uids else (
                f"{len(uids)} copies in play: say which with #1..#{len(uids)} ("
                + "; ".join(f"#{n}: {describe_instance(state, u)}" for n, u in
                            enumerate(uids, 1)) + ")")
            results.append((f" {key}", False, expected, actual))
            continue
        actual_cards = sorted([spec.uid_id(u) for u in cards_under(state, uids[0])])
        results.append((f" {key}", expected == actual_cards, expected, actual_cards))
    return results


def _at(state: State, value: dict[str, JsonValue], ids: Ids, loc: tuple) -> Result:
    results: Result = []
    for bf_text, sides in value.items():
        bf = ids.battlefield(bf_text, (*loc, bf_text), open_range=True)
        where = state.spec.bfs[bf].id if bf < state.spec.n_bf else OPEN_RANGE
        rows = state.rows[2 * bf:2 * bf + 2]  # the battlefield's row of each side
        results += _cards_findings(state, sides, ids, (*loc, bf_text), rows.__getitem__,
                                   f" {where}")
    return results


def _cards_findings(state: State, value: object, ids: Ids, loc: tuple,
                    cards_of: Callable[[int], Sequence[int]], label: str = "") -> Result:
    """Each side's cards (`cards_of(player)`) against those `value` names, as multisets."""
    return side_findings(state, value, lambda player, name, wanted: (
        sorted(ids.cards(wanted, (*loc, name))),
        sorted(state.spec.uid_id(uid) for uid in cards_of(player))), label)


def _zone(attribute: str) -> CheckFn:
    def check(state: State, value: object, ids: Ids, loc: tuple) -> Result:
        return _cards_findings(state, value, ids, loc, getattr(state, attribute).__getitem__)

    return check


def _deck_top(state: State, value: object, ids: Ids, loc: tuple) -> Result:
    """The deck is drawn from the end of its list: its top is the last card."""
    def compare(player: int, name: str, wanted: list[str]) -> tuple[object, object]:
        expected = ids.cards(wanted, (*loc, name))
        return expected, [state.spec.uid_id(uid)
                          for uid in reversed(state.decks[player])][:len(expected)]

    return side_findings(state, value, compare)


def _firepower(state: State, value: object, ids: Ids, loc: tuple) -> Result:
    totals = attack_totals(state)
    return side_values(state, value, [totals[name] for name in player_names(state)])


def _ended(read: Callable[[State, Outcome], str]) -> CheckFn:
    """The check of something of the game's end, `read(state, outcome)`, or 'game not over'."""
    return reading(lambda state: "game not over" if (outcome := state.outcome()) is None
                   else read(state, outcome))


def _legal_texts(state: State) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


def _legal(state: State, value: list[str], ids: Ids, loc: tuple) -> Result:
    texts = _legal_texts(state)
    return [("", sorted(map(norm_text, value)) == sorted(map(norm_text, texts)), sorted(value),
             sorted(texts))]


def _offered(texts: list[str], wanted: str) -> bool:
    key = norm_text(wanted)
    return any(norm_text(text) == key or norm_text(text).startswith(key) for text in texts)


def _legal_includes(state: State, value: list[str], ids: Ids, loc: tuple) -> Result:
    texts = _legal_texts(state)
    return [(f" '{wanted}'", _offered(texts, wanted), "legal", f"not legal (legal: "
             f"{'; '.join(texts) or 'none'})") for wanted in value]


def _legal_excludes(state: State, value: list[str], ids: Ids, loc: tuple) -> Result:
    texts = _legal_texts(state)
    hits = [[text for text in texts if norm_text(text).startswith(norm_text(wanted))]
            for wanted in value]
    return [(f" '{wanted}'", not hit, "not legal", f"legal ({'; '.join(hit)})")
            for wanted, hit in zip(value, hits, strict=True)]


def _log_includes(state: State, value: list[str], ids: Ids, loc: tuple) -> Result:
    """Each text, with the logged event it was found in (shown even when the check holds)."""
    lines = [next((line for line in state.log if norm_text(text) in norm_text(line)), None)
             for text in value]
    return [(f" '{text}'", line is not None, "found", "not found",
             f"'{line}'" if line is not None else None)
            for text, line in zip(value, lines, strict=True)]


def _offer_matches(offer: Offer, wanted: Offered) -> bool:
    if wanted.by is not None and wanted.by != offer.player:
        return False
    if wanted.decision is not None and norm_text(wanted.decision) != norm_text(offer.decision):
        return False
    if wanted.options is not None and \
            sorted(map(norm_text, wanted.options)) != sorted(map(norm_text, offer.options)):
        return False
    return all(_offered(offer.options, text) for text in wanted.includes or [])


def _describe_offer(offer: Offer) -> str:
    return (f"after action {offer.step}, {offer.player}: {offer.decision} "
            f"[{'; '.join(offer.options)}]")


def _offered_check(state: State, value: list[Offered], ids: Ids, loc: tuple) -> Result:
    """Each described decision was met (the runner notes every one it sees: `ids.offers`)."""
    offers = ids.offers
    results: Result = []
    for index, wanted in enumerate(value):
        found = next((offer for offer in offers if _offer_matches(offer, wanted)), None)
        expected = {k: v for k, v in wanted.model_dump().items() if v is not None}
        actual = "no such decision (met: " + (" | ".join(map(_describe_offer, offers))
                                             or "none") + ")"
        results.append((f" #{index + 1}", found is not None, expected, actual,
                        _describe_offer(found) if found is not None else None))
    return results


#: The table's checks, by expectation field; a game's own are its `ScenarioParts.checks`.
CHECKS: dict[str, CheckFn] = {
    "to_act": reading(lambda state: player_name(state, state.current_player())),
    "decision": _decision,
    "turn": reading(lambda state: state.turn),
    "marker": _marker,
    # the tokens left on the countdown card (the Mexican Border, the Mexican Army): every
    # format's name (`border`, `army`: the former keys)
    "countdown": reading(lambda state: state.countdown),
    "face_spaces": _face_spaces,
    "alive": _in_state("alive"),
    "dead": _in_state("dead"),
    "alive_count": reading(lambda state: sum(state.alive)),
    "tokens": _tokens,
    "at": _at,
    "hand": _zone("hands"),
    "hand_size": per_side_count(lambda state, player: len(state.hands[player])),
    "deck_size": per_side_count(lambda state, player: len(state.decks[player])),
    "deck_top": _deck_top,
    "discard": _zone("discards"),
    "removed": _zone("removed"),
    "firepower": _firepower,
    "winner": _ended(lambda state, outcome: player_name(state, outcome.winner)),
    "termination": _ended(lambda state, outcome: outcome.termination.value),
    "over": reading(lambda state: state.is_terminal()),
    "legal": _legal,
    "legal_includes": _legal_includes,
    "legal_excludes": _legal_excludes,
    "log_includes": _log_includes,
    "offered": _offered_check,
    "under": _under,
}
