"""The turn marker: which space comes next, moving it, and what entering a battlefield does.

The track is the battlefields' spaces left to right. Regular spaces count game turns; "-"
spaces are used only when a card moves the marker back before space "1"; face spaces (on
Rattlesnake Creek) only once a bandit's death or lost token switches them on.
"""

from __future__ import annotations

from deckbuilder.engine.board import find_row, push_steps
from deckbuilder.engine.codes import SPACE_EXTRA, SPACE_FACE, SPACE_OPTIONAL, SPACE_REGULAR
from deckbuilder.engine.state import DEFENDER, State, with_item
from deckbuilder.engine.wording import text_applies


def _forward_ok(state: State, bf: int, space: int) -> bool:
    battlefield = state.spec.bfs[bf]
    kind = battlefield.kinds[space]
    if kind in (SPACE_REGULAR, SPACE_OPTIONAL):
        return True
    return kind == SPACE_FACE and state.face_on[battlefield.offset + space]


def next_space(state: State, bf: int, space: int) -> int:
    """The next space the marker may stop on when moving right ("-" spaces and unused face
    spaces are skipped), or -1 at the end of the battlefield."""
    for candidate in range(space + 1, len(state.spec.bfs[bf].kinds)):
        if _forward_ok(state, bf, candidate):
            return candidate
    return -1


def previous_space(state: State, bf: int, space: int) -> int:
    """The space to the left (the "-" extra spaces included), or -1 at the left edge."""
    kinds = state.spec.bfs[bf].kinds
    for candidate in range(space - 1, -1, -1):
        if kinds[candidate] == SPACE_EXTRA or _forward_ok(state, bf, candidate):
            return candidate
    return -1


def first_space(state: State, bf: int) -> int:
    space = next_space(state, bf, -1)
    return space if space >= 0 else 0


def marker_target(state: State, spaces: int, stay: bool) -> tuple[int, int] | None:
    """Where moving the marker `spaces` (+ right, - left) ends, or None if it cannot."""
    bf, space = state.marker_bf, state.marker_space
    step = 1 if spaces > 0 else -1
    for _ in range(abs(spaces)):
        nxt = next_space(state, bf, space) if step > 0 else previous_space(state, bf, space)
        if nxt >= 0:
            space = nxt
            continue
        if stay or not 0 <= bf + step < state.spec.n_bf:
            return None
        bf += step
        space = first_space(state, bf) if step > 0 else len(state.spec.bfs[bf].kinds) - 1
    return (bf, space)


def set_marker(state: State, bf: int, space: int) -> None:
    old = state.marker_bf
    state.marker_bf = bf
    state.marker_space = space
    if state.verbose:
        battlefield = state.spec.bfs[bf]
        state.note(f"turn marker: {battlefield.name} space {battlefield.labels[space]}")
    if bf != old:
        marker_entered(state, bf)
        marker_left(state, old)  # pushed last: runs first


def advance_marker(state: State) -> None:
    """Phase 1: one space forward, or space "1" of the next battlefield."""
    bf = state.marker_bf
    space = next_space(state, bf, state.marker_space)
    if space >= 0:
        set_marker(state, bf, space)
    elif bf + 1 < state.spec.n_bf:
        set_marker(state, bf + 1, first_space(state, bf + 1))
    elif state.verbose:
        state.note("turn marker: already on the last space")


def move_marker(state: State, spaces: int, stay: bool) -> None:
    """A card moves the marker: as far as it can, one space at a time."""
    step = 1 if spaces > 0 else -1
    for _ in range(abs(spaces)):
        target = marker_target(state, step, stay)
        if target is None:
            return
        set_marker(state, *target)


def activate_face_spaces(state: State, face: str, count: int) -> None:
    for battlefield in state.spec.bfs:
        for space, kind in enumerate(battlefield.kinds):
            flat = battlefield.offset + space
            if count and kind == SPACE_FACE and battlefield.faces[space] == face \
                    and not state.face_on[flat]:
                state.face_on = with_item(state.face_on, flat, True)
                count -= 1
    if state.verbose:
        state.note(f"extra turns: {face} face spaces in use")


def marker_entered(state: State, bf: int) -> None:
    spec = state.spec
    base = spec.character_base
    for character in spec.characters:
        if character.marker_enters and state.alive[character.idx]:
            for where, steps in character.marker_enters:
                if where == bf or where < 0:
                    push_steps(state, steps, (DEFENDER, base + character.idx, bf))
    for uid in spec.watch_uids:
        card = spec.card_def[uid]
        if card.marker_enters and state.placed[uid] is not None:
            here = find_row(state, uid) >> 1
            if not text_applies(state, uid, here):
                continue
            for where, steps in card.marker_enters:
                if where == bf or where < 0:
                    push_steps(state, steps, (spec.owner[uid], uid, here))


def marker_left(state: State, bf: int) -> None:
    spec = state.spec
    here = state.rows[2 * bf] + state.rows[2 * bf + 1]
    for uid in spec.watch_uids:
        card = spec.card_def[uid]
        if card.leave_battlefield and uid in here and text_applies(state, uid, bf):
            push_steps(state, card.leave_battlefield, (spec.owner[uid], uid, bf))


def draw_phase_triggers(state: State, player: int) -> None:
    spec = state.spec
    bf = state.marker_bf
    row = state.rows[2 * bf + player]
    for uid in spec.watch_uids:
        card = spec.card_def[uid]
        if card.draw_phase_here and uid in row and text_applies(state, uid, bf):
            push_steps(state, card.draw_phase_here, (player, uid, bf))
    if player == DEFENDER:
        for character in spec.characters:
            if character.draw_phase_here and state.alive[character.idx]:
                push_steps(state, character.draw_phase_here,
                           (DEFENDER, spec.character_base + character.idx, bf))
