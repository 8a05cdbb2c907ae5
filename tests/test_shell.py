"""The command line's habits: --version, -h on every command, shell completion, choices that
forgive the documents' spellings and refuse an unknown value naming the choices, the same exit
codes everywhere (listed in each --help), progress on stderr whenever stderr is a terminal,
and tables piped into another program with their ids whole."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
from importlib.metadata import version
from pathlib import Path

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

import deckbuilder
from deckbuilder.build import describe
from deckbuilder.cli import app
from deckbuilder.commands.choices import BOT, BOTS, FACTION, GAME, RULESET, SET, SIDE

runner = CliRunner()
DECKBUILDER = [sys.executable, "-m", "deckbuilder"]


def invoke(*args: str | Path):
    return runner.invoke(app, list(map(str, args)))


def one_line_error(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def every_command_path() -> list[list[str]]:
    """Every command and group of the app, as the words that call it."""
    found: list[list[str]] = []

    def walk(command: object, words: list[str]) -> None:
        found.append(words)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*words, name])

    walk(get_command(app), [])
    return found


# -- --version, -h, completion ----------------------------------------------------------------
def test_version_is_the_package_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"deckbuilder {deckbuilder.__version__} ({describe()})"
    assert deckbuilder.__version__ == version("revolver-deckbuilder")


@pytest.mark.parametrize("words", every_command_path(), ids=lambda words: " ".join(words) or "-")
def test_every_command_takes_h_and_lists_the_exit_codes(words: list[str]) -> None:
    short, long = invoke(*words, "-h"), invoke(*words, "--help")
    assert short.exit_code == 0, short.output
    assert short.stdout == long.stdout
    text = " ".join(short.stdout.split())
    assert "Exit codes: 0 ok; 1 a check failed" in text, text
    assert "2 bad input or usage" in text


def test_the_shell_completion_options_are_on(monkeypatch: pytest.MonkeyPatch) -> None:
    text = invoke("--help").stdout
    assert "--install-completion" in text and "--show-completion" in text
    # typer detects the shell from the parent processes; a run without a shell above it
    # (a detached job) finds none, so the test names it
    shellingham = pytest.importorskip("shellingham")
    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("bash", "/bin/bash"))
    script = invoke("--show-completion")
    assert script.exit_code == 0, script.output + repr(script.exception)
    assert "_DECKBUILDER_COMPLETE" in script.stdout


def complete(words: str) -> list[str]:
    """What the shell offers after `words` (bash's protocol, as the installed script asks)."""
    environment = {**os.environ, "_DECKBUILDER_COMPLETE": "complete_bash",
                   "COMP_WORDS": words, "COMP_CWORD": str(len(words.split(" ")) - 1)}
    result = subprocess.run([sys.executable, "-c", "from deckbuilder.cli import main; main()"],
                            env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_the_shell_completes_games_rulesets_and_bots() -> None:
    assert complete("deckbuilder rules --game ") == ["revolver", "revolver2"]
    assert complete("deckbuilder play --game revolver2") == ["revolver2"]
    rulesets = complete("deckbuilder play --ruleset rulebook-")
    assert {"rulebook-en", "rulebook-es", "rulebook-nl"} <= set(rulesets)
    assert all(name.startswith("rulebook-") for name in rulesets)
    assert complete("deckbuilder simulate colty --bot gr") == ["greedy", "greedy:judge=playout"]
    assert "greedy,search" in complete("deckbuilder play --bots greedy,se")


# -- choices ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("choice", "typed", "meant"), [
    (FACTION, "Colti", "colty"),
    (FACTION, "the Colty gang", "colty"),
    (FACTION, "COLTY", "colty"),
    (FACTION, "Colonel McReady", "mcready"),
    (FACTION, "Mc Ready", "mcready"),
    (FACTION, "Padre Esteban", "esteban"),
    (FACTION, "Malpaso", "esteban"),
    (FACTION, "General Mapache", "mapache"),
    (FACTION, "Frontier", "frontier"),
    (SIDE, "McReady", "mcready"),
    (GAME, "Revolver 2", "revolver2"),
    (GAME, "Last Stand at Malpaso", "revolver2"),
    (GAME, "REVOLVER", "revolver"),
    (SET, "The Tarnished Star", "tarnished-star"),
    (SET, "Revolver Expansion 1.2: Hunt the Man Down", "hunt-the-man-down"),
    (SET, "tarnished star", "tarnished-star"),
    (RULESET, "Rulebook-EN", "rulebook-en"),
    (RULESET, "Dutch rules summary", "rulebook-nl"),
    (BOT, "Greedy", "greedy"),
    (BOT, "SEARCH:rollouts=5", "search:rollouts=5"),
    (BOTS, "Random,search:rollouts=5,horizon=2", "random,search:rollouts=5,horizon=2"),
])
def test_choices_forgive_case_and_the_documents_spellings(choice, typed: str, meant: str) -> None:
    assert choice(typed) == meant


@pytest.mark.parametrize(("choice", "typed", "named"), [
    (FACTION, "colti2", ["colty", "mcready", "esteban", "mapache", "frontier"]),
    (SIDE, "frontier", ["colty", "mcready", "esteban", "mapache"]),
    (GAME, "revolver3", ["revolver", "revolver2"]),
    (SET, "tarnished", ["tarnished-star", "revolver-base"]),
    (RULESET, "rulebook", ["rulebook-en", "rulebook-es"]),
    (BOT, "clever", ["random", "greedy", "search"]),
])
def test_an_unknown_choice_names_the_choices(choice, typed: str, named: list[str]) -> None:
    with pytest.raises(typer.BadParameter) as refused:
        choice(typed)
    message = str(refused.value)
    assert f"'{typed}'" in message
    assert all(name in message.split("choose one of:")[1] for name in named), message


def test_a_documents_spelling_gives_the_same_answer() -> None:
    canonical = invoke("rules", "--game", "revolver2", "--json")
    spelled = invoke("rules", "--game", "Revolver 2", "--json")
    assert canonical.exit_code == spelled.exit_code == 0
    assert json.loads(spelled.stdout) == json.loads(canonical.stdout)
    played = invoke("play", "--game", "Malpaso", "--bots", "Random", "--json", "--max-turns", "2")
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["game"] == "revolver2"


@pytest.mark.parametrize(("args", "unknown"), [
    (("rules", "--game", "colti"), "colti"),
    (("play", "--game", "revolver3", "-q"), "revolver3"),
    (("play", "--bots", "greedy,clever", "-q"), "clever"),
    (("play", "--ruleset", "no-such-rules", "-q"), "no-such-rules"),
    (("simulate", "colty", "--bot", "clever", "--games", "1"), "clever"),
    (("scenario", "x.yaml", "--ruleset", "no-such-rules"), "no-such-rules"),
])
def test_an_unknown_choice_is_a_usage_error_of_one_line(args: tuple[str, ...],
                                                        unknown: str) -> None:
    line = one_line_error(invoke(*args))
    assert f"'{unknown}'" in line and "choose one of:" in line


def test_cards_refuses_an_unknown_faction_and_forgives_colti() -> None:
    colti = invoke("cards", "--faction", "Colti", "--json")
    assert colti.exit_code == 0, colti.output
    rows = json.loads(colti.stdout)
    assert rows and {row["faction"] for row in rows} == {"colty"}
    line = one_line_error(invoke("cards", "--faction", "coltee"))
    assert "mcready" in line and "colty" in line


# -- exit codes -------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ("validate",),
    ("sets", "check"),
    ("scenario",),
    ("play", "--no-such-option"),
    ("simulate", "colty", "--games", "0"),
    ("validate", "--jsn", "x.yaml"),
])
def test_usage_errors_exit_2_in_one_line(args: tuple[str, ...]) -> None:
    line = one_line_error(invoke(*args))
    assert line.startswith("error: ") and "--help" in line


def test_a_failed_check_exits_1_and_bad_input_2_across_commands(tmp_path: Path) -> None:
    sets = Path(__file__).resolve().parent / "fixtures" / "sets"
    assert invoke("sets", "check", sets / "homebrew-base.yaml").exit_code == 0
    assert invoke("sets", "check", sets / "every-problem.yaml").exit_code == 1
    assert invoke("sets", "check", tmp_path / "missing.yaml").exit_code == 2
    assert invoke("validate", tmp_path / "missing.yaml").exit_code == 2
    assert invoke("scenario", tmp_path / "missing.yaml").exit_code == 2


# -- several files at once --------------------------------------------------------------------
def test_sets_check_takes_several_files_and_reports_each(tmp_path: Path) -> None:
    sets = Path(__file__).resolve().parent / "fixtures" / "sets"
    good, bad = sets / "homebrew-base.yaml", sets / "every-problem.yaml"
    both = invoke("sets", "check", good, bad, tmp_path / "missing.yaml")
    assert both.exit_code == 2  # the worst of the three
    assert "ok: test-frontier-town" in both.stdout
    assert "every-problem.yaml" in both.stdout + both.stderr
    assert "missing.yaml" in both.stderr
    assert invoke("sets", "check", good, sets / "cycle-a.yaml").exit_code == 0
    assert invoke("sets", "check", good, bad).exit_code == 1
    reports = json.loads(invoke("sets", "check", good, bad, "--json").stdout)
    assert [report["ok"] for report in reports] == [True, False]
    assert [Path(report["file"]).name for report in reports] == [good.name, bad.name]


def test_scenario_takes_several_files(tmp_path: Path) -> None:
    scenarios = sorted((Path(__file__).resolve().parent / "scenarios").glob("adios-amigo*.yaml"))
    assert len(scenarios) >= 2
    result = invoke("scenario", *scenarios, "--json")
    assert result.exit_code == 0, result.output
    reports = json.loads(result.stdout)
    assert [Path(report["scenario"]) for report in reports] == scenarios
    assert all(report["passed"] for report in reports)
    failing = tmp_path / "failing.yaml"
    text = scenarios[0].read_text(encoding="utf-8")
    assert "expect:" in text
    failing.write_text(text.replace("expect:", "expect:\n  winner: mcready", 1),
                       encoding="utf-8")
    mixed = invoke("scenario", scenarios[0], failing)
    assert mixed.exit_code in (1, 2), mixed.output
    assert mixed.stdout.count("scenario: ") >= 1 and "failing.yaml" in mixed.stderr


# -- progress and piped tables ----------------------------------------------------------------
def run_with_terminal(args: list[str], *, stdin_tty: bool = False, stderr_tty: bool = False,
                      columns: int = 40) -> tuple[int, str, str]:
    """Run deckbuilder with stdout a pipe, and stdin or stderr a pseudo-terminal of
    `columns` columns; its stdout and stderr (the terminal's side as read from it)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")}
    environment["TERM"] = "xterm"
    try:
        process = subprocess.Popen(
            [*DECKBUILDER, *args], stdin=follower if stdin_tty else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=follower if stderr_tty else subprocess.PIPE,
            env=environment)
        os.close(follower)
        terminal = bytearray()
        while stderr_tty:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the other side closed
                break
            if not chunk:
                break
            terminal += chunk
        stdout, stderr = process.communicate(timeout=300)
    finally:
        os.close(leader)
    shown = terminal.decode("utf-8", "replace") if stderr_tty else stderr.decode()
    return process.returncode, stdout.decode(), shown


def test_progress_goes_to_stderr_when_it_is_a_terminal() -> None:
    args = ["simulate", "colty", "--games", "12", "--workers", "1", "--bot", "random"]
    code, stdout, terminal = run_with_terminal(args, stderr_tty=True)
    assert code == 0, stdout + terminal
    assert "playing" in terminal  # the bar, on the terminal
    assert "playing" not in stdout and "\x1b[" not in stdout  # the report, clean in the pipe
    assert "Wins per side" in stdout
    code, stdout, stderr = run_with_terminal(args)
    assert code == 0 and "playing" not in stdout + stderr  # no terminal, no bar
    code, stdout, terminal = run_with_terminal([*args, "--json"], stderr_tty=True)
    assert code == 0 and json.loads(stdout)["games"] == 12 and "playing" in terminal


def test_a_piped_table_keeps_its_ids_whole() -> None:
    from deckbuilder.catalog import build_catalog

    ids = [entry.id for entry in build_catalog().cards() if entry.game == "revolver"]
    longest = max(ids, key=len)
    assert len(longest) > 30
    code, stdout, stderr = run_with_terminal(["cards", "--game", "revolver"], stdin_tty=True,
                                             columns=40)
    assert code == 0, stderr
    words = set(stdout.replace("│", " ").replace("┃", " ").split())
    assert {longest, *ids} <= words


#: The console script pip installed beside this interpreter (not whatever `deckbuilder` comes
#: first on PATH: the test must pass outside an activated environment too).
CONSOLE_SCRIPT = shutil.which("deckbuilder", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(CONSOLE_SCRIPT is None, reason="no console script beside this interpreter")
def test_the_console_script_is_the_app() -> None:
    assert CONSOLE_SCRIPT is not None
    result = subprocess.run([CONSOLE_SCRIPT, "--version"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0
    assert result.stdout.startswith(f"deckbuilder {deckbuilder.__version__} (")
