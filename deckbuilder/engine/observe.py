"""What one viewer may see: `observe(state, viewer)` -> a frozen `Observation`, the one source
of every face's view of a position (the terminal, the web tables, the replay viewers, the
JSON API). A viewer is a seat (0, 1), `SPECTATOR` (what both seats see alike) or
`EVERYTHING` (None: both hands and the face-down cards, for a game that is over).

Hidden from a seat: the opponent's hand (not its size), the order of both decks, the
opponent's cards face down under a card; the legal actions go only to the player who must
decide. The values every face shows (firepower, whether the row is chosen) are computed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckbuilder.engine.actions import kind_name
from deckbuilder.engine.addons import host_of, is_hidden
from deckbuilder.engine.board import firepower
from deckbuilder.engine.game_rules import RowChoice
from deckbuilder.engine.log_lines import SPECTATOR, visible_log
from deckbuilder.engine.position import DECK_TOP_SHOWN, pile_ids
from deckbuilder.engine.state import PHASE_NAMES, TERMINAL, State
from deckbuilder.engine.wording import has_value, is_emptied

#: The viewer who sees everything (both hands, the cards face down).
EVERYTHING = None


@dataclass(frozen=True)
class CardView:
    id: str
    name: str
    owner: int
    mode: str
    firepower: int
    power: int
    true_grit: int
    eagle: bool
    #: lying face down under another card (the Strongbox's): its owner sees it, the
    #: opponent sees only that a card lies there (id and name empty)
    hidden: bool = False
    under: str = ""  # the id of the card it lies under ("" for a card in a column)


@dataclass(frozen=True)
class BattlefieldView:
    id: str
    name: str
    defence: int
    cards: tuple[tuple[CardView, ...], tuple[CardView, ...]]  # by owner
    firepower: tuple[int, int]  # cards only; the gang adds `defence` in the attack


@dataclass(frozen=True)
class CharacterView:
    id: str
    name: str
    survival: int
    alive: bool
    true_grit: int
    power: int


@dataclass(frozen=True)
class Observation:
    player: int
    game: str
    players: tuple[str, str]
    turn: int
    active: int
    phase: str
    current_player: int
    decision: str
    legal_actions: tuple[int, ...]
    marker: tuple[str, str]  # (battlefield id, space label)
    marker_index: tuple[int, int]
    countdown: int  # tokens on the countdown card (the Mexican Border, the Mexican Army)
    pieces_used: tuple[str, ...]  # table pieces used for good (Derail the Train, the bridge)
    characters: tuple[CharacterView, ...]  # (bandits, guardians)
    battlefields: tuple[BattlefieldView, ...]
    open_range: tuple[tuple[CardView, ...], tuple[CardView, ...]]
    hand: tuple[str, ...]  # own hand, card ids sorted
    opponent_hand_size: int
    deck_sizes: tuple[int, int]
    discards: tuple[tuple[str, ...], tuple[str, ...]]
    removed: tuple[tuple[str, ...], tuple[str, ...]]
    terminal: bool
    winner: int | None
    termination: str | None
    #: the game's own pieces as this player may see them (Revolver 2: the poker tournament,
    #: the guardian pile's size, power tokens on the battlefield cards)
    game_view: tuple[tuple[str, Any], ...] = ()
    silver: tuple[int, int] = (0, 0)  # the players' silver dollars
    #: cards lying under character cards (Module B's Garrotte): (character id, card id)
    under_characters: tuple[tuple[str, str], ...] = ()
    #: the log written since the driver last took it (a verbose state's), as this player may
    #: read it (`log_lines.visible_log`: the opponent's draws as counts)
    log: tuple[str, ...] = field(default=(), compare=False)  # two copies of a position
    #: who looks: a seat, SPECTATOR or EVERYTHING (`player` is the seat whose side is his)
    viewer: int | None = 0
    #: the other seat's hand, for EVERYTHING only
    other_hand: tuple[str, ...] | None = None
    hand_sizes: tuple[int, int] = (0, 0)
    #: the characters face down in the pile (all know who; the order is hidden), sorted;
    #: for EVERYTHING in the order they come, the next first
    in_pile: tuple[str, ...] = ()
    #: for EVERYTHING, what no player sees: each deck's next cards (`DECK_TOP_SHOWN`)
    deck_tops: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    #: characters out of play that are neither dead nor in the pile, and where they wait
    held: tuple[tuple[str, str], ...] = ()
    #: the battlefield sets the game still chooses between; empty: the row is chosen
    row_choices: tuple[RowChoice, ...] = ()

    @property
    def row_chosen(self) -> bool:
        return not self.row_choices


def _card_view(state: State, uid: int, viewer: int | None) -> CardView:
    spec = state.spec
    card = spec.card_def[uid]
    mode = state.mode_of(uid)
    fp = mode.firepower + state.power[uid] if has_value(state, uid) else 0
    host = host_of(state, uid)
    under = spec.card_def[host].id if host >= 0 else ""
    if is_hidden(state, uid):
        owner = spec.owner[uid]
        seen = viewer is EVERYTHING or viewer == owner  # else only that a card lies there
        return CardView(card.id if seen else "", card.name if seen else "face-down card", owner,
                        mode.name, 0, 0, 0, bool(state.eagle[uid]), True, under)
    return CardView(card.id, card.name, spec.owner[uid], mode.name, fp, state.power[uid],
                    state.grit[uid], is_emptied(state, uid), False, under)


def observe(state: State, viewer: int | None) -> Observation:
    """The state as `viewer` sees it: a seat nothing of the opponent's hand but its size, a
    spectator no hand, EVERYTHING both hands (player 0's side as his own)."""
    spec = state.spec
    player = viewer if viewer is not None and viewer >= 0 else 0  # whose side is his

    def cards(row: int) -> tuple[CardView, ...]:
        return tuple(_card_view(state, uid, viewer) for uid in state.rows[row])

    battlefields = tuple(
        BattlefieldView(bf.id, bf.name, bf.defence, (cards(2 * bf.idx), cards(2 * bf.idx + 1)),
                        (firepower(state, bf.idx, 0), firepower(state, bf.idx, 1)))
        for bf in spec.bfs)
    open_range = (cards(2 * spec.n_bf), cards(2 * spec.n_bf + 1))
    characters = tuple(
        CharacterView(c.id, c.name, c.survival, state.alive[c.idx],
                   state.grit[spec.character_base + c.idx],
                   state.power[spec.character_base + c.idx])
        for c in spec.characters
    )
    ids = [card.id for card in spec.card_def]
    current = state.current_player()
    marker_bf = spec.bfs[state.marker_bf]
    tops = [tuple(ids[u] for u in reversed(deck[-DECK_TOP_SHOWN:])) for deck in state.decks]
    return Observation(
        player=player,
        game=spec.game,
        players=spec.game_rules.side_names,
        turn=state.turn,
        active=state.active,
        phase=PHASE_NAMES[state.phase],
        current_player=current,
        decision="" if current == TERMINAL else kind_name(state.pending_kind, state.spec),
        legal_actions=tuple(state.legal) if current == viewer else (),
        marker=(marker_bf.id, marker_bf.labels[state.marker_space]),
        marker_index=(state.marker_bf, state.marker_space),
        countdown=state.countdown,
        pieces_used=tuple(sorted(state.pieces_used)),
        characters=characters,
        battlefields=battlefields,
        open_range=open_range,
        hand=() if viewer == SPECTATOR else tuple(sorted(ids[u] for u in state.hands[player])),
        opponent_hand_size=len(state.hands[1 - player]),
        deck_sizes=(len(state.decks[0]), len(state.decks[1])),
        discards=(tuple(ids[u] for u in state.discards[0]),
                  tuple(ids[u] for u in state.discards[1])),
        removed=(tuple(ids[u] for u in state.removed[0]),
                 tuple(ids[u] for u in state.removed[1])),
        terminal=state.over,
        winner=state.winner,
        termination=state.termination.value if state.termination else None,
        game_view=tuple(sorted({**spec.game_rules.observe(state, viewer),
                                "character_pile": len(state.pile),
                                "battlefield_tokens": tuple(state.bf_power)}.items())),
        silver=(state.silver[0], state.silver[1]),
        under_characters=tuple((spec.characters[index].id, ids[uid])
                               for index, uid in state.under_characters),
        log=tuple(visible_log(state.log, viewer)),
        viewer=viewer,
        other_hand=(tuple(sorted(ids[u] for u in state.hands[1 - player]))
                    if viewer is EVERYTHING else None),
        hand_sizes=(len(state.hands[0]), len(state.hands[1])),
        in_pile=tuple(pile_ids(state) if viewer is EVERYTHING else sorted(pile_ids(state))),
        deck_tops=(tops[0], tops[1]) if viewer is EVERYTHING else None,
        held=tuple((spec.characters[index].id, where) for index, where
                   in sorted(spec.game_rules.held_characters(state).items())),
        row_choices=spec.game_rules.row_choices(state),
    )
