"""Which legal action, or which card in play, a scenario's text means (docs/players/
scenarios.md): an action's text or a prefix that reads one way, `#N` for the N-th of actions
that read alike (in instance order), `decline` and `accept`; a card in play as `card` or
`card@battlefield`, either with `#N`. Copies nothing tells apart need no number.
"""

from __future__ import annotations

import re

from deckbuilder.engine.actions import (
    ACCEPT,
    IN_PLAY_BASE,
    K_MAIN,
    MAX_ABILITIES,
    PASS,
    kind_name,
)
from deckbuilder.engine.codes import SLOT_UNDER
from deckbuilder.engine.state import State

DECLINE, ACCEPT_WORD = "decline", "accept"
_NUMBERED = re.compile(r"^(?P<text>.*?)\s*#(?P<n>\d+)\s*$", re.DOTALL)


def norm_text(text: str) -> str:
    """A text as the scenario's matching reads it: spaces folded, case ignored."""
    return " ".join(str(text).split()).casefold()


def split_number(text: str) -> tuple[str, int | None]:
    """'kill Deputy at Bank #2' -> ('kill Deputy at Bank', 2); no `#N`: (text, None)."""
    found = _NUMBERED.match(text)
    return (text, None) if found is None else (found["text"], int(found["n"]))


def action_instance(state: State, action: int) -> int:
    """The card instance an action is about (a target, one's own card, an ability), or -1."""
    layout = state.spec.layout
    if IN_PLAY_BASE <= action < layout.own_base:
        return action - IN_PLAY_BASE
    if layout.own_base <= action < layout.ability_base:
        return action - layout.own_base
    if layout.ability_base <= action < layout.play_base:
        return (action - layout.ability_base) // MAX_ABILITIES
    return -1


def cards_under(state: State, uid: int) -> list[int]:
    """The cards lying under `uid` (instance ids)."""
    placed = state.placed
    return [other for other in range(state.spec.n_cards)
            if (mode := placed[other]) is not None and mode.slot == SLOT_UNDER
            and mode.host == uid]


def _looks(state: State, uid: int) -> tuple:
    """What tells a card instance apart from another copy of it."""
    if uid < 0:
        return (uid,)
    spec = state.spec
    placed = state.placed[uid] if uid < spec.n_cards else None
    return (spec.uid_id(uid), spec.owner[uid], state.card_zone(uid) if uid < spec.n_cards
            else "character", getattr(placed, "name", None), state.power[uid], state.grit[uid],
            state.eagle[uid], tuple(sorted(spec.uid_id(u) for u in cards_under(state, uid))))


def describe_instance(state: State, uid: int) -> str:
    """'Deputy at Bank (McReady's, power 1, under it: Volcanic pistol)'."""
    spec = state.spec
    details = [f"{spec.game_rules.side_names[spec.owner[uid]]}'s", *(
        f"{label} {values[uid]}" for label, values in
        (("power", state.power), ("true grit", state.grit), ("eagle", state.eagle)) if values[uid])]
    under = [spec.uid_name(u) for u in cards_under(state, uid)] if uid < spec.n_cards else []
    if under:
        details.append(f"under it: {', '.join(under)}")
    return f"{spec.uid_name(uid)}{state.where_text(uid)} ({', '.join(details)})"


def choose_action(state: State, wanted: str) -> tuple[int | None, str, list[str]]:
    """The legal action `wanted` names: (action, "", texts) or (None, the problem, texts),
    where texts are every legal action's."""
    legal = state.legal_actions()
    texts = [state.action_to_string(action) for action in legal]
    # a copy's text ends ' #N' (engine.actions): N is the number this format gives it below
    bases = [split_number(text)[0] for text in texts]
    key = norm_text(wanted)
    if key in (DECLINE, ACCEPT_WORD):
        answer = PASS if key == DECLINE else ACCEPT
        if answer in legal and state.pending_kind != K_MAIN:
            return answer, "", texts
        return None, (f"there is nothing to {key} (the open decision: "
                      f"{kind_name(state.pending_kind, state.spec)})"), texts
    text, number = split_number(wanted)
    key = norm_text(text)
    pairs = list(zip(legal, bases, strict=True))
    found = [(a, t) for a, t in pairs if norm_text(t) == key] or \
        [(a, t) for a, t in pairs if norm_text(t).startswith(key)]
    if not found:
        return None, "no legal action reads so", texts
    if len({norm_text(t) for _, t in found}) > 1:
        return None, (f"it matches {len(found)} legal actions that read differently: write "
                      f"more of the text"), texts
    actions = [a for a, _ in found]
    if number is not None:
        if not 1 <= number <= len(actions):
            return None, (f"#{number}: only {len(actions)} legal action(s) read "
                          f"'{found[0][1]}'"), texts
        return actions[number - 1], "", texts
    if len(actions) == 1 or len({_looks(state, action_instance(state, a))
                                 for a in actions}) == 1:
        return actions[0], "", texts
    choices = "; ".join(f"#{n}: {_about(state, a)}" for n, a in enumerate(actions, 1))
    return None, (f"{len(actions)} legal actions read '{found[0][1]}': say which with "
                  f"#1..#{len(actions)}, the text in quotes (YAML reads an unquoted ' #' as "
                  f"a comment) ({choices})"), texts


def _about(state: State, action: int) -> str:
    uid = action_instance(state, action)
    return describe_instance(state, uid) if uid >= 0 else state.action_to_string(action)


def copies_in_play(state: State, card: str, bf: str | None) -> list[int]:
    """The instances of `card` in play (at battlefield id `bf` if given), in instance order;
    cards lying under others included."""
    spec = state.spec
    return sorted(uid for index, row in enumerate(state.rows)
                  if bf is None or (index >> 1 < spec.n_bf and spec.bfs[index >> 1].id == bf)
                  for uid in row if spec.uid_id(uid) == card)
