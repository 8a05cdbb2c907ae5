"""Set up Revolver 2 positions by hand, for rule tests and scenario files: past the poker
tournament with the right battlefield set (`skip_tournament`), and Revolver 2's own pieces
(tokens on a side of a battlefield card, the bridge).
"""

from __future__ import annotations

from deckbuilder.engine.board import draw
from deckbuilder.engine.chance import shuffle
from deckbuilder.engine.state import ATTACKER, DEFENDER, State, with_item
from deckbuilder.games.revolver2.facts import LAYOUT_OF_WINNER
from deckbuilder.games.revolver2.pieces import BRIDGE
from deckbuilder.games.revolver2.poker import OPENING_HAND, Tournament, in_progress


class StagingError(ValueError):
    """A staging request the position cannot satisfy (no such battlefield set, a tournament
    already over)."""


#: The battlefield sets a game may be played with, in the order of LAYOUT_OF_WINNER (the set
#: the guardians bring in by winning the tournament first).
BATTLEFIELD_SETS: tuple[str, str] = LAYOUT_OF_WINNER


def battlefield_set_of(state: State, battlefield_id: str) -> str | None:
    """The battlefield set (crystal-river, buffalo-falls) a battlefield belongs to; None for
    the three fixed battlefields, which are in play whichever set is."""
    layouts = state.spec.facts.layouts
    found = [name for name, spec in layouts.items()
             if any(bf.id == battlefield_id for bf in spec.bfs)]
    if not found:
        raise StagingError(f"no battlefield '{battlefield_id}' in Revolver 2")
    return found[0] if len(found) < len(layouts) else None


def skip_tournament(state: State, battlefield_set: str, begin: bool = True) -> None:
    """End the poker tournament without playing it: the side whose win brings in
    `battlefield_set` has won it, no poker card played. With `begin` the game goes on as after
    a played tournament; without it no decision is open (a scenario opens its own turn)."""
    if battlefield_set not in BATTLEFIELD_SETS:
        raise StagingError(f"no battlefield set '{battlefield_set}' (use one of: "
                           f"{', '.join(BATTLEFIELD_SETS)})")
    if not in_progress(state):
        raise StagingError("the poker tournament is already over")
    winner = BATTLEFIELD_SETS.index(battlefield_set)
    state.spec = state.spec.facts.layouts[battlefield_set]
    # The face-space flags are per space of the battlefields in play: size them to this set.
    state.face_on = (False,) * sum(len(bf.kinds) for bf in state.spec.bfs)
    state.game_data = Tournament(((), ()), (-1, -1), -1, (0, 0), ((), ()), winner)
    state.tasks.clear()
    state.pending_resume = None
    state.legal = []
    if state.verbose:
        names = state.spec.game_rules.side_names
        state.note(f"the poker tournament is skipped: {names[winner]} brings in "
                   f"{', '.join(bf.name for bf in state.spec.bfs[:3])}")
    if not begin:
        return
    shuffle(state.rng, state.decks[DEFENDER])
    shuffle(state.rng, state.decks[ATTACKER])
    draw(state, DEFENDER, OPENING_HAND)
    draw(state, ATTACKER, OPENING_HAND)
    state.spec.game_rules.start_turn(state, DEFENDER)
    state.run()


def stage_battlefield_tokens(state: State, battlefield: str, player: int, count: int) -> None:
    """`count` power tokens on `player`'s side of a battlefield card (counted in his
    firepower there; the guardians' add to the battlefield's defence)."""
    for bf in state.spec.bfs:
        if bf.id == battlefield:
            state.bf_power = with_item(state.bf_power, 2 * bf.idx + player, count)
            return
    raise StagingError(f"battlefield '{battlefield}' is not in play")


def is_bridge_blown(state: State) -> bool:
    return BRIDGE in state.pieces_used


def stage_bridge(state: State, blown: bool) -> None:
    """Los Quantos Bridge blown (it can be blown only once a game) or still standing."""
    state.pieces_used = (state.pieces_used | {BRIDGE}) if blown else \
        (state.pieces_used - {BRIDGE})
