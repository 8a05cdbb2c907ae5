"""Set up positions by hand, for rule tests ("Deputy and Cowboy at the Bank"). Staging moves
real card instances, so every card stays in one place (`check_invariants`); then call
`refresh(state)` to recompute the open decision's actions, and
`engine.possible.verify_position` to refuse a position the rules rule out. (Scenario files
are laid out by `deckbuilder.scenarios`, through each game's staging.)
"""

from __future__ import annotations

from deckbuilder.engine.actions import K_MAIN
from deckbuilder.engine.board import lift, place
from deckbuilder.engine.state import State


class StagingError(ValueError):
    """A staging request that the state cannot satisfy (no such card left, bad place)."""


def _definition(state: State, card_id: str) -> int:
    for card in state.spec.defs:
        if card.id == card_id:
            return card.idx
    raise StagingError(f"no card '{card_id}' in this game")


def _bf(state: State, battlefield: str | int | None) -> int:
    if battlefield is None:
        return state.marker_bf
    if isinstance(battlefield, int):
        return battlefield
    for bf in state.spec.bfs:
        if bf.id == battlefield:
            return bf.idx
    raise StagingError(f"no battlefield '{battlefield}'")


def _zone(state: State, zone: str) -> list[list[int]] | None:
    return {"hand": state.hands, "discard": state.discards, "deck-top": state.decks,
            "removed": state.removed}.get(zone)


def stage(state: State, player: int, card_id: str, zone: str,
          battlefield: str | int | None = None, mode: int = 0) -> int:
    """Move one of `player`'s copies of `card_id` (from the deck first, then discard, removed,
    hand) into `zone` (hand, discard, deck-top, deck-bottom, removed, play); its uid."""
    definition = _definition(state, card_id)
    def_of = state.spec.def_of
    piles = [source[player] for source in (state.decks, state.discards, state.removed,
                                           state.hands)]
    pile = next((pile for pile in piles if any(def_of[uid] == definition for uid in pile)), None)
    if pile is None:
        raise StagingError(f"player {player} has no {card_id} left outside play")
    uid = next(uid for uid in reversed(pile) if def_of[uid] == definition)
    pile.remove(uid)
    if zone == "play":
        place(state, uid, player, _bf(state, battlefield), state.spec.card_def[uid].modes[mode])
    elif zone == "deck-bottom":
        state.decks[player].insert(0, uid)
    elif (target := _zone(state, zone)) is not None:
        target[player].append(uid)
    else:
        state.hands[player].append(uid)
        raise StagingError(f"unknown zone '{zone}'")
    return uid


def unstage(state: State, uid: int, zone: str = "discard") -> None:
    """Take a card out of play into its owner's discard pile (or deck-top / hand)."""
    owner = state.spec.owner[uid]
    if state.placed[uid] is not None:
        lift(state, uid)
    else:
        for zones in (state.hands, state.discards, state.decks, state.removed):
            if uid in zones[owner]:
                zones[owner].remove(uid)
                break
    target = _zone(state, zone)
    assert target is not None, f"unknown zone '{zone}'"
    target[owner].append(uid)


def clear_hand(state: State, player: int, to: str = "deck") -> None:
    """Put the whole hand back (into the deck, at the bottom, or the discard pile)."""
    hand = state.hands[player]
    if to == "discard":
        state.discards[player].extend(hand)
    else:
        state.decks[player][0:0] = hand
    hand.clear()


def stage_marker(state: State, battlefield: str | int, label: str) -> None:
    bf = _bf(state, battlefield)
    labels = state.spec.bfs[bf].labels
    if label not in labels:
        raise StagingError(f"{state.spec.bfs[bf].name} has no space '{label}'")
    state.marker_bf = bf
    state.marker_space = labels.index(label)


def stage_character(state: State, character_id: str, alive: bool = True,
                    true_grit: int | None = None, power: int | None = None) -> int:
    """Set a character's life and tokens; returns his index."""
    spec = state.spec
    for character in spec.characters:
        if character.id == character_id:
            uid = spec.character_base + character.idx
            state.alive[character.idx] = alive
            if true_grit is not None or not alive:
                state.own_grit()[uid] = true_grit if alive and true_grit is not None else 0
            if power is not None or not alive:
                state.own_power()[uid] = power if alive and power is not None else 0
            return character.idx
    raise StagingError(f"no character '{character_id}'")


def refresh(state: State) -> None:
    """Recompute the open play-phase decision after staging."""
    if state.over or state.pending_kind != K_MAIN:
        raise StagingError("refresh works only while a play-phase decision is open")
    state.pending_resume = None
    state.legal = []
    state.run()


def _norm(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def actions_reading(state: State, wanted: str) -> tuple[list[int], list[str]]:
    """Legal actions whose text reads `wanted` (case and spacing aside), else those it is a
    prefix of (one, if they all read alike); and the texts of all legal actions. Scenario
    files name actions this way too."""
    texts = [(action, state.action_to_string(action)) for action in state.legal_actions()]
    key = _norm(wanted)
    exact = [action for action, text in texts if _norm(text) == key]
    if exact:
        return exact, [text for _, text in texts]
    prefixed = [(action, _norm(text)) for action, text in texts if _norm(text).startswith(key)]
    distinct = {text for _, text in prefixed}
    actions = [action for action, _ in prefixed]
    return (actions[:1] if len(distinct) == 1 else actions), [text for _, text in texts]


def action_by_text(state: State, text: str) -> int:
    """The legal action whose `action_to_string` reads `text`, or the only one it begins
    (the same reading as scenario files)."""
    actions, texts = actions_reading(state, text)
    if len(actions) != 1:
        raise StagingError(f"{len(actions)} legal actions match '{text}': "
                           f"{', '.join(texts) or 'none'}")
    return actions[0]


def do(state: State, *texts: str) -> None:
    """Apply legal actions named by their text, in order ("play Deputy", "end play phase")."""
    for text in texts:
        state.apply(action_by_text(state, text))
