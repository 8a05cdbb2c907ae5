"""What playing a card changes in the numbers Revolver 2's value reads, where that can be said
without playing it out: the firepower at the marker's battlefield on either side and the cards
drawn. Everything else the value reads (the guardians, the army, the marker, the pile) such a
play leaves as it was.

A card qualifies only when nothing in the game can answer it: one way to play it, no text that
watches the marker or the draw, no arrival or play watcher, no reaction of the other side. Its
one effect is one of: drawing cards, putting power tokens on one card of its own side here,
killing or destroying one card of the other side here (a card with nothing that speaks when it
dies, is destroyed or loses a token). A card with no effect at all qualifies where it adds no
firepower (Mapache's roadblock goes on the guardians' side of any battlefield: wherever it
goes, the numbers stay). Where a play asks its player to choose (which card gets the token,
which is killed), each choice is one `Change` and the greedy's look-ahead would take the best.
"""

from __future__ import annotations

from typing import Final

from deckbuilder.engine.board import card_firepower, targets
from deckbuilder.engine.card_records import CardDef
from deckbuilder.engine.card_steps import (
    TargetFilter,
    kill_candidates,
    removable,
    run_add_token,
    run_destroy,
    run_kill,
)
from deckbuilder.engine.codes import (
    FIREPOWER,
    PLACE_ANY,
    PLACE_OPPONENT_ANY,
    SIDE_OPPONENT,
    SIDE_SELF,
    SLOT_NONE,
    SLOT_OPPONENT,
    SLOT_OWN,
    WHERE_CURRENT,
)
from deckbuilder.engine.definitions import played_as_printed
from deckbuilder.engine.effects import run_draw
from deckbuilder.engine.spec_fields import SpecFields
from deckbuilder.engine.spec_memo import SpecMemo
from deckbuilder.engine.state import State

#: (firepower the player gains here, firepower his opponent loses here): one way a play ends.
Change = tuple[int, int]
#: A play that changes no number the value reads.
NO_CHANGE: Final[Change] = (0, 0)


def _unanswered_seats(spec: SpecFields) -> tuple[tuple[bool, bool], ...]:
    plays = [spec.play_reactions[1 - seat] is None and not any(spec.play_watchers)
             for seat in (0, 1)]
    return tuple((quiet, quiet and spec.arrival_defs is None) for quiet in plays)


_UNANSWERED: Final[SpecMemo[tuple[tuple[bool, bool], ...]]] = SpecMemo(_unanswered_seats)


def unanswered(spec: SpecFields, player: int) -> tuple[bool, bool]:
    """Whether nothing in this game answers or watches `player`'s plays (no reaction of the
    other side, no watcher), and whether nothing watches an arrival either; read once per
    game, not at every option of every play phase."""
    return _UNANSWERED.of(spec)[player]


def is_plain(state: State, card: CardDef, player: int) -> bool:
    """Played as it is printed, at the marker, with no effect of its own and nothing in this
    game watching or answering a play: its firepower is all it changes."""
    mode = card.modes[0]
    return (card.simple and mode.play == FIREPOWER and mode.slot == SLOT_OWN and not mode.effect
            and not card.enter_grit and not card.watch and not card.arrivals
            and unanswered(state.spec, player)[1])


def changes(state: State, card: CardDef, player: int) -> tuple[list[Change], int] | None:
    """The ways playing `card` may end, each as a `Change`, and the cards it draws; None
    where the play must be played out to be judged."""
    if is_plain(state, card, player):
        mode = card.modes[0]
        return [(mode.firepower + card.enter_power, 0)], 0
    if _placed_without_firepower(state, card, player):
        return [NO_CHANGE], 0
    effect = _one_effect(state, card, player)
    if effect is None:
        return None
    runner, params = effect
    if runner is run_draw:
        return ([NO_CHANGE], int(params[0])) if params[1] == SIDE_SELF else None
    if runner is run_add_token:
        found = _power_tokens(state, params, player)
    elif runner is run_kill:
        found = _kills(state, params, player)
    elif runner is run_destroy:
        found = _destroys(state, params, player)
    else:
        return None
    return (found, 0) if found is not None else None


def _one_effect(state: State, card: CardDef, player: int) -> tuple | None:
    """The one compiled effect step of a plain one-shot nothing answers (None: not such a
    card)."""
    mode = card.modes[0]
    if (card.simple and mode.slot == SLOT_NONE and len(mode.effect) == 1 and not card.watch
            and unanswered(state.spec, player)[0]):
        return mode.effect[0]
    return None


def _placed_without_firepower(state: State, card: CardDef, player: int) -> bool:
    """A card with no effect that goes on the opponent's side of a battlefield of its
    player's choosing and adds no firepower there (a row-blocking card)."""
    if card.placement not in (PLACE_ANY, PLACE_OPPONENT_ANY) or not played_as_printed(card):
        return False
    mode = card.modes[0]
    return (mode.slot == SLOT_OPPONENT and not mode.effect and mode.firepower == 0
            and not card.enter_power and not card.enter_grit and not card.watch
            and not card.arrivals and unanswered(state.spec, player)[1])


def _reaches_here(state: State, target: TargetFilter) -> bool:
    """Whether a one-shot's target filter looks only at cards in a row at the marker's
    battlefield (not at the card it lies under, nor the played card itself)."""
    return (not target.host and not target.this_card and target.where == WHERE_CURRENT
            and not state.spec.attaching)


def _cards_only(state: State, found: list[int]) -> bool:
    """No character among the cards found (a character's death is more than its firepower)."""
    n_cards = state.spec.n_cards
    return all(uid < n_cards for uid in found)


def _power_tokens(state: State, params: tuple, player: int) -> list[Change] | None:
    """Power tokens on one card of the player's own side here: each card that counts its
    firepower (no eagle token) gains them."""
    kind, count, target, per_card, only_upcoming, each = params
    if (kind != "power" or target is None or target.side != SIDE_SELF or per_card is not None
            or only_upcoming or each or not _reaches_here(state, target)):
        return None
    found = targets(state, target, (player, -1, state.marker_bf))
    if not _cards_only(state, found):
        return None
    eagle = state.eagle
    return [(0 if eagle[uid] else count, 0) for uid in found] or [NO_CHANGE]


def _kills(state: State, params: tuple, player: int) -> list[Change] | None:
    """One card of the other side here killed (a true grit token absorbs it): its firepower
    goes, unless something speaks when it dies or loses the token."""
    target, count, up_to, ignore_grit = params[0], params[1], params[2], params[4]
    if count != 1 or up_to or target.side != SIDE_OPPONENT or not _reaches_here(state, target):
        return None
    found = kill_candidates(state, params, (player, -1, state.marker_bf), 0)
    if not _cards_only(state, found):
        return None
    card_def = state.spec.card_def
    grit = state.grit
    ends: list[Change] = []
    for uid in found:
        card = card_def[uid]
        if not ignore_grit and grit[uid] > 0:
            if card.on_token_lost or card.on_grit_lost:
                return None
            ends.append(NO_CHANGE)
        elif card.on_death:
            return None
        else:
            ends.append((0, card_firepower(state, uid)))
    return ends or [NO_CHANGE]


def _destroys(state: State, params: tuple, player: int) -> list[Change] | None:
    """One card of the other side here destroyed: its firepower goes, unless it speaks when
    destroyed."""
    target, count, up_to = params[0], params[1], params[2]
    if count != 1 or up_to or target.side != SIDE_OPPONENT or not _reaches_here(state, target):
        return None
    found = removable(state, target, (player, -1, state.marker_bf), False)
    if not _cards_only(state, found):
        return None
    card_def = state.spec.card_def
    ends: list[Change] = []
    for uid in found:
        if card_def[uid].on_destroyed:
            return None
        ends.append((0, card_firepower(state, uid)))
    return ends or [NO_CHANGE]
