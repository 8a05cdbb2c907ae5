"""Silent wrongs (issue 19, section 2): a card loop in an overlay that kept greedy playing one
turn for ever, unknown names merged by an export and import, a rewrite that re-wrapped the
user's line or handed the file to root, PNG charts only their writer could read, and
`optimize --sets` accepting a set that does not exist."""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckbuilder import bots as bot_module
from deckbuilder.bots import (
    TURN_ACTION_LIMIT,
    GreedyBot,
    StepBudget,
    TurnBudget,
    best_action,
    cut_short_count,
    make_bot,
)
from deckbuilder.catalog import build_catalog
from deckbuilder.cli import app
from deckbuilder.games import get_game, new_game
from deckbuilder.writing import atomic_write_bytes, atomic_write_text
from deckbuilder.yamlio import load_yaml

ROOT = Path(__file__).resolve().parent.parent
PINKERTONS = ROOT / "decks" / "example-mcready-pinkertons.yaml"
runner = CliRunner()

#: A free lawman who draws a card, leaves play and comes back to hand: every play of him
#: looks better than ending the phase, so a judging bot would play him for ever.
LOOPING_DEPUTY = """\
corrections:
  deputy:
    source: a card loop, on purpose
    values:
      cost: 0
      effect:
        - {do: draw, count: 1}
        - {do: discard-self}
        - {do: retrieve, categories: [character], to: hand}
"""


def cli(*args: str | Path):
    result = runner.invoke(app, [*map(str, args)])
    assert "Traceback" not in result.stdout + result.stderr
    return result


# -- 1. a card loop cannot keep a bot in one turn ------------------------------------------------
@pytest.fixture
def looping_catalog(user_home: Path):
    user_home.mkdir(parents=True, exist_ok=True)
    (user_home / "overlay.yaml").write_text(LOOPING_DEPUTY, encoding="utf-8")
    return build_catalog()


def _play(catalog, spec: str, seed: int, most: int) -> tuple[object, list[object], int]:
    """Play colty against the looping McReady deck, at most `most` decisions."""
    state = new_game([catalog.base_deck("revolver", "colty"),
                      catalog.base_deck("revolver", "mcready")], seed, catalog=catalog)
    heuristics = get_game("revolver").heuristics
    players = [make_bot(spec, heuristics), make_bot(spec, heuristics)]
    rngs = [random.Random(seed), random.Random(seed + 1)]
    decisions = 0
    while not state.is_terminal() and decisions < most:
        player = state.current_player()
        state.apply(players[player].choose(state, rngs[player]))
        decisions += 1
    return state, players, decisions


@pytest.mark.parametrize("spec", ["greedy", "greedy:judge=playout"])
def test_a_card_loop_in_the_overlay_ends_the_turn_and_the_game(looping_catalog, spec) -> None:
    # Without the bound the scoring greedy played the deputy round for ever: 55,000
    # decisions in a minute, never leaving turn 20.
    state, players, decisions = _play(looping_catalog, spec, seed=0, most=30_000)
    assert state.is_terminal(), f"{spec}: still in turn {state.turn} after {decisions} decisions"
    if spec == "greedy":
        assert sum(cut_short_count(bot) for bot in players) > 0  # and it says so


def test_simulate_reports_when_a_bound_cut_the_bots_play_short(looping_catalog) -> None:
    result = cli("simulate", "mcready", "--games", "2", "--workers", "1", "--seed", "0",
                 "--json")
    assert result.exit_code == 0, result.stderr
    cuts = json.loads(result.stdout)["cut_short"]
    assert cuts and all(cut["times"] > 0 and "cut short" in cut["warning"] for cut in cuts)
    shown = cli("simulate", "mcready", "--games", "2", "--workers", "1", "--seed", "0")
    assert "Warning: greedy's play was cut short" in shown.stdout


def test_the_turn_budget_counts_actions_from_the_bots_first_decision_in_the_turn() -> None:
    class Table:
        def __init__(self) -> None:
            self.history: list[int] = []
            self.turn = 1

    budget = TurnBudget(limit=3)
    table = Table()
    assert not budget.is_spent(table, 0)  # the count begins
    table.history += [1, 2]
    assert not budget.is_spent(table, 0)
    assert not budget.is_spent(table, 1)  # the other player's count is its own
    table.history.append(3)
    assert budget.is_spent(table, 0) and budget.is_spent(table, 0)
    assert budget.cut_short == 1  # once a turn
    table.turn = 2
    assert not budget.is_spent(table, 0)  # a new turn starts a new count
    other = Table()
    other.turn = 2
    other.history = list(table.history) + [9] * 10
    assert not budget.is_spent(other, 0)  # another state (a new game, a copy) too


def test_a_step_budget_bounds_one_look_ahead_and_says_so() -> None:
    tried: list[int] = []

    class World:
        def __init__(self) -> None:
            self.last = -1

        def clone(self) -> World:
            return World()

        def apply(self, action: int) -> None:
            self.last = action
            tried.append(action)

    actions = list(range(50))
    budget = StepBudget(steps=10)
    chosen = best_action(World(), actions, 0, lambda world, player: float(world.last),
                         random.Random(1), budget=budget)
    assert budget.cut and len(tried) == 10 and chosen == 9
    tried.clear()
    unbounded = best_action(World(), actions, 0, lambda world, player: float(world.last),
                            random.Random(1))
    assert unbounded == 49 and len(tried) == 50


def test_a_bot_within_its_bounds_plays_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bounds change nothing where they are not reached: a greedy game of the packaged
    decks is the same move for move whatever the limits, and none is reached."""
    catalog = build_catalog()

    def moves() -> list[int]:
        state = new_game([catalog.base_deck("revolver", "colty"),
                          catalog.base_deck("revolver", "mcready")], 3, catalog=catalog)
        heuristics = get_game("revolver").heuristics
        players = [make_bot("greedy", heuristics), GreedyBot(heuristics.evaluate)]
        rngs = [random.Random(5), random.Random(6)]
        while not state.is_terminal():
            player = state.current_player()
            state.apply(players[player].choose(state, rngs[player]))
        assert [cut_short_count(bot) for bot in players] == [0, 0]
        return list(state.history)

    bounded = moves()
    monkeypatch.setattr(bot_module.TurnBudget.__init__, "__defaults__", (10**9,))
    monkeypatch.setattr(bot_module.StepBudget.__init__, "__defaults__", (10**9,))
    assert moves() == bounded
    assert TURN_ACTION_LIMIT > 25  # the longest turn of the packaged decks is under 25


# -- 2. export then import keeps unknown names apart -------------------------------------------
def test_two_unknown_names_of_unprintable_characters_stay_two(tmp_path: Path) -> None:
    names = ["\u2028", "\u2029", "\u200b", "Призрак", "Фантом"]  # all fold to nothing
    lines = "".join(f'  "{json.dumps(name)[1:-1]}": {count}\n'
                    for count, name in enumerate(names, start=1))
    source = tmp_path / "odd.yaml"
    text = PINKERTONS.read_text(encoding="utf-8")
    source.write_text(text.replace("cards:\n", "cards:\n" + lines), encoding="utf-8")
    for output_format in ("text", "json"):
        exported = tmp_path / f"odd.{output_format}"
        assert cli("deck", "export", source, "--format", output_format, "-o", exported,
                   "--force").exit_code == 0
        back = tmp_path / f"back-{output_format}.yaml"
        cli("deck", "import", exported, "-o", back, "--force")
        cards = dict(load_yaml(back)["cards"])
        assert {name: cards.get(name) for name in names} == {
            name: count for count, name in enumerate(names, start=1)}, output_format


# -- 3. a rewrite keeps the user's line, owner, group and mode ---------------------------------
def test_deck_swap_keeps_a_long_sets_line_as_written(tmp_path: Path) -> None:
    line = ("sets: [revolver-base, ambush-on-gunshot-trail, hunt-the-man-down, "
            "vengeance-on-the-frontier, tarnished-star]   # all of mine")
    text = PINKERTONS.read_text(encoding="utf-8")
    start = text.index("sets: [")
    end = text.index("]", start) + 1
    deck = tmp_path / "long.yaml"
    deck.write_text(text[:start] + line + text[end:], encoding="utf-8")
    # a swap that keeps the deck legal (a third Texas Ranger would be one more than the box holds)
    result = cli("deck", "swap", deck, "--out", "Texas Ranger", "--in", "deputy")
    assert result.exit_code == 0, result.output
    assert line in deck.read_text(encoding="utf-8").splitlines()


def _other_group() -> int | None:
    """A group the test may give a file that is not the one a new file gets."""
    if os.geteuid() == 0:
        return 4242
    mine = [gid for gid in os.getgroups() if gid != os.getegid()]
    return mine[0] if mine else None


@pytest.mark.skipif(not hasattr(os, "chown"), reason="POSIX owners")
def test_a_rewrite_keeps_the_files_owner_group_and_setgid_bit(tmp_path: Path) -> None:
    group = _other_group()
    if group is None:
        pytest.skip("the test user belongs to one group only")
    owner = 4343 if os.geteuid() == 0 else os.geteuid()
    deck = tmp_path / "shared.yaml"
    deck.write_text("name: shared\n", encoding="utf-8")
    os.chown(deck, owner, group)
    os.chmod(deck, 0o2664)
    atomic_write_text(deck, "name: changed\n")
    after = os.stat(deck)
    assert deck.read_text(encoding="utf-8") == "name: changed\n"
    assert (after.st_uid, after.st_gid) == (owner, group)
    assert stat.S_IMODE(after.st_mode) == 0o2664


def test_a_rewrite_keeps_the_mode_bits(tmp_path: Path) -> None:
    deck = tmp_path / "private.yaml"
    deck.write_text("name: private\n", encoding="utf-8")
    os.chmod(deck, 0o640)
    atomic_write_text(deck, "name: still private\n")
    assert stat.S_IMODE(os.stat(deck).st_mode) == 0o640


# -- 4. PNG charts are written as every other file -------------------------------------------
def test_png_charts_get_the_mode_the_umask_allows(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from deckbuilder.sim.reports.charts import Chart
    from deckbuilder.sim.reports.png_charts import write_charts

    chart = Chart(name="wins", kind="bars", title="Wins", bars=[("a", 0.4), ("b", 0.6)])
    previous = os.umask(0o022)
    try:
        written = write_charts([chart], tmp_path / "charts")
        again = write_charts([chart], tmp_path / "charts")  # replacing keeps the mode
    finally:
        os.umask(previous)
    assert written == again and written[0].read_bytes().startswith(b"\x89PNG")
    assert stat.S_IMODE(os.stat(written[0]).st_mode) == 0o644  # 0o600 from its own writer


def test_bytes_go_through_the_same_writer_as_text(tmp_path: Path) -> None:
    target = tmp_path / "data.bin"
    atomic_write_bytes(target, b"\x00\xff")
    os.chmod(target, 0o604)
    atomic_write_bytes(target, b"\x01")
    assert target.read_bytes() == b"\x01" and stat.S_IMODE(os.stat(target).st_mode) == 0o604
    assert not [path for path in tmp_path.iterdir() if path.name.endswith(".tmp")]


# -- 5. optimize refuses a set that does not exist -------------------------------------------
def test_optimize_refuses_an_unknown_set_in_one_line() -> None:
    result = cli("optimize", "mcready", "--sets", "no-such-set", "--budget", "20")
    assert result.exit_code == 2
    message = result.stderr.strip()
    assert "\n" not in message and "unknown set 'no-such-set'" in message
    assert "known sets:" in message and "revolver-base" in message
