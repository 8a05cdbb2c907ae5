"""Revolver 2's judge for the end of a search rollout: the greedy's value, plus the guardians
the spaces still ahead on the first three battlefields can recruit.

Why the search needs more than the greedy's value here: on an optional space the guardians
choose to stay on the battlefield or move on to the next one's first space. Moving on is one
space nearer the mine's showdown and leaves the firepower in play (Mapache's too) behind,
which the value counts at once; what it gives up (the recruit of the space skipped, a
guardian more in play turns later, when Mapache's attacks would otherwise wipe the guardians
out) shows only once the marker leaves the third battlefield, several turns beyond any
rollout's horizon. So the greedy guardian moves on at most optional spaces, and a look-ahead
of a turn agrees with it (`tests/test_search_bot.py`). Measured on the base decks
(seeds 1-200, against the greedy Mapache): the greedy guardian wins 51.5%; the same greedy
made to stay on every optional space wins 69.0% (Wilson 95% interval 62.3-75.0%), with the
guardians wiped out in 62 games of 200 instead of 97.

The judge adds `RECRUIT` for each guardian the spaces after the marker's can still recruit
(as many as the pile holds), so a rollout that skips a space is judged one recruit poorer,
when the guardians judge. It is the search bot's only: the greedy bot keeps `evaluate` (and
its decisions).
"""

from __future__ import annotations

import math
from typing import Final

from deckbuilder.engine.state import DEFENDER, State
from deckbuilder.games.revolver2.bots.evaluate import SCALE, evaluate

#: What a guardian the spaces ahead can still recruit is worth (on the value's scale, before
#: its tanh). A space's step towards the mine is worth 0.07 (`MARKER` over about 19 spaces),
#: a guardian in play 0.30 (`GUARDIAN`), but moving on also leaves Mapache's firepower
#: behind, which the value counts at once and generously: the search guardian (seeds 1-200
#: against the greedy Mapache) won 64.0% with 0.15, 65.5% with 0.4, 69.0% with 0.7, 70.0%
#: with 1.0 and 68.0% with 2.0 (each +-6.5 points); with 1.0 it stays at every one of the
#: seeded decisions of `tests/test_search_bot.py`, as the always-staying greedy would.
RECRUIT: Final = 1.0
#: Subtracted so that a position's value stays near the greedy's on the first battlefields
#: (their spaces hold 8 or 9 recruits: about half are ahead on average there).
CENTRE: Final = 4
#: Only the first three battlefields recruit (malpaso-es: 1a. Robar cartas de guardián;
#: `rules.RECRUITING_BATTLEFIELDS`).
RECRUITING: Final = 3
#: Keeps `atanh` finite for a value at the edge of the tanh's range.
_EDGE: Final = 1.0 - 1e-12


def recruits_ahead(state: State) -> int:
    """The guardians the spaces after the marker's (on the recruiting battlefields) bring
    if the guardians stay on every optional space, at most as many as the pile holds."""
    spec = state.spec
    bfs = spec.bfs
    total = 0
    bf = state.marker_bf
    space = state.marker_space + 1
    while bf < RECRUITING and bf < len(bfs):
        recruits = bfs[bf].recruits
        while space < len(recruits):
            total += recruits[space]
            space += 1
        bf += 1
        space = 0
    pile = len(state.pile)
    return total if total < pile else pile


def judge(state: State, player: int) -> float:
    """In [-1, 1] from `player`'s point of view, as `evaluate`, with the recruits ahead for
    the guardians. Mapache's value is `evaluate`'s: his moves never change the recruits
    ahead (the marker is the guardians'), and the term, the same for all his candidates,
    would only push his values towards the tanh's flat end (the search Mapache won 64.2% of
    400 games against greedy with it, 92.0% of 200 without)."""
    if state.over or player != DEFENDER:
        return evaluate(state, player)
    guardians_view = evaluate(state, DEFENDER)
    if guardians_view > _EDGE:
        guardians_view = _EDGE
    elif guardians_view < -_EDGE:
        guardians_view = -_EDGE
    value = math.atanh(guardians_view) / SCALE + RECRUIT * (recruits_ahead(state) - CENTRE)
    guardians_view = math.tanh(SCALE * value)
    return guardians_view if player == DEFENDER else -guardians_view
